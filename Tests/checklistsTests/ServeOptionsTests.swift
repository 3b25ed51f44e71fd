import ArgumentParser
import Testing

@testable import checklists

@Suite struct ServeOptionsTests {
  @Test func listenTakesAnIPv4AddressAndAPort() {
    #expect(ServeCommand.tcpAddress("10.0.0.11:9000")! == ("10.0.0.11", 9000))
    #expect(ServeCommand.tcpAddress("127.0.0.1:1")! == ("127.0.0.1", 1))
    for refused in [
      "10.0.0.11", "10.0.0.11:", ":9000", "10.0.0.11:0", "10.0.0.11:65536", "10.0.0:9000",
      "10.0.0.256:9000", "host.example:9000", "[::1]:9000", "10.0.0.11:9000:1",
    ] {
      #expect(ServeCommand.tcpAddress(refused) == nil, "\(refused)")
    }
  }

  @Test func storeIsFilesOrAPostgresURI() {
    #expect(StoreLocation(argument: "files") == .files)
    #expect(
      StoreLocation(argument: "postgresql:///checklists?host=/run/postgresql")
        == .postgres("postgresql:///checklists?host=/run/postgresql"))
    #expect(StoreLocation(argument: "postgres://u@db/c") == .postgres("postgres://u@db/c"))
    #expect(StoreLocation(argument: "mysql://db/c") == .unrecognized("mysql://db/c"))
    #expect(StoreLocation(argument: "") == .unrecognized(""))
    #expect(throws: ValidationError.self) {
      try StoreLocation(argument: "mysql://db/c").validated()
    }
    #expect(throws: Never.self) { try StoreLocation(argument: "files").validated() }
    #expect("\(StoreLocation.postgres("postgresql://u:secret@db/c"))" == "postgresql")
  }

  /// A password in a mistyped `--store` is never repeated in a message,
  /// and one in a good URI is noticed (`serve` warns of it).
  @Test func aPasswordInTheStoreIsRedacted() {
    #expect(
      "\(StoreLocation(argument: "postgersql://u:secret@db/c"))" == "postgersql://u:…@db/c")
    #expect(
      StoreLocation.redacted("postgresql://db/c?user=u&password=secret&sslmode=verify-full")
        == "postgresql://db/c?user=u&password=…&sslmode=verify-full")
    #expect(StoreLocation.redacted("postgresql://u@db:5432/c") == "postgresql://u@db:5432/c")
    #expect(StoreLocation.holdsPassword("postgresql://u:secret@db/c"))
    #expect(StoreLocation.holdsPassword("postgresql:///c?host=/run&password=secret"))
    #expect(!StoreLocation.holdsPassword("postgresql://u@db/c?sslmode=verify-full"))
  }

  @Test func anAddressOtherMachinesReachNeedsAnAllowList() throws {
    let none: [String: String] = [:]
    #expect(throws: ValidationError.self) {
      try ServeCommand.allowList(listen: "10.0.0.11:9000", allowFrom: nil, environment: none)
    }
    #expect(throws: ValidationError.self) {
      try ServeCommand.allowList(
        listen: "0.0.0.0:9000", allowFrom: nil,
        environment: [
          "FCGI_WEB_SERVER_ADDRS": ""
        ])
    }
    #expect(
      try ServeCommand.allowList(
        listen: "10.0.0.11:9000", allowFrom: "10.0.0.10, 10.0.0.12", environment: none)?
        .description == "10.0.0.10,10.0.0.12")
    #expect(
      try ServeCommand.allowList(
        listen: "10.0.0.11:9000", allowFrom: nil,
        environment: ["FCGI_WEB_SERVER_ADDRS": "10.0.0.10"])?.description == "10.0.0.10")
    // This host only: no list needed, and one given is applied.
    #expect(
      try ServeCommand.allowList(listen: "127.0.0.1:9000", allowFrom: nil, environment: none) == nil
    )
    #expect(try ServeCommand.allowList(listen: nil, allowFrom: nil, environment: none) == nil)
    #expect(
      try ServeCommand.allowList(
        listen: "127.0.0.1:9000", allowFrom: "127.0.0.1", environment: none)?
        .description == "127.0.0.1")
  }

  @Test func aMetricsAddressOtherMachinesReachNeedsItsAllowList() throws {
    #expect(try ServeCommand.metricsEndpoint(nil, allowFrom: nil) == nil)
    let local = try #require(try ServeCommand.metricsEndpoint("127.0.0.1:9101", allowFrom: nil))
    #expect("\(local.host)" == "127.0.0.1" && local.port == 9101 && local.allowed == nil)
    for (address, allowFrom) in [
      ("10.0.0.11:9101", nil), ("0.0.0.0:9101", nil), ("10.0.0.11", "10.0.0.5"),
      ("10.0.0.11:9101", "10.0.0"), (nil, "10.0.0.5"), ("localhost:9101", nil),
    ] as [(String?, String?)] {
      #expect(throws: ValidationError.self, "\(address ?? "-") \(allowFrom ?? "-")") {
        try ServeCommand.metricsEndpoint(address, allowFrom: allowFrom)
      }
    }
    let reached = try #require(
      try ServeCommand.metricsEndpoint("10.0.0.11:9101", allowFrom: "10.0.0.5, 10.0.0.6"))
    #expect(reached.allowed?.description == "10.0.0.5,10.0.0.6")
  }

  @Test func anAllowListIsIPv4AddressesGivenOnce() {
    let none: [String: String] = [:]
    for wrong in [
      "", ",", "10.0.0.10,", "10.0.0", "db.internal", "10.0.0.0/8", "::1", "10.0.0.256",
    ] {
      #expect(throws: ValidationError.self, "\(wrong)") {
        try ServeCommand.allowList(listen: "10.0.0.11:9000", allowFrom: wrong, environment: none)
      }
    }
    #expect(throws: ValidationError.self) {
      try ServeCommand.allowList(
        listen: "10.0.0.11:9000", allowFrom: "10.0.0.10",
        environment: ["FCGI_WEB_SERVER_ADDRS": "10.0.0.10"])
    }
  }

  @Test func serveRefusesAReachableListenWithoutAList() {
    #expect(throws: (any Error).self) {
      try ServeCommand.parse(["--listen", "10.0.0.11:9000"])
    }
    #expect(throws: Never.self) {
      try ServeCommand.parse(["--listen", "10.0.0.11:9000", "--allow-from", "10.0.0.10"])
    }
  }
}

/// The page cache is sized in MiB; the count of older set-ups still parses.
@Suite struct PageCacheOptionsTests {
  private func serve(_ arguments: [String]) throws -> ServeCommand {
    try ServeCommand.parse(["--port", "9000"] + arguments)
  }

  @Test func theSizeIsInMebibytesAndDefaultsTo80() throws {
    #expect(try serve([]).memoMegabytes == 80)
    #expect(try serve(["--page-cache-size", "256"]).memoMegabytes == 256)
    #expect(try serve([]).memoCapacity == nil)
  }

  @Test func aSizeOutsideItsRangeIsRefusedWithWhatItTakes() {
    for size in ["0", "-1", "1048577"] {
      #expect(throws: (any Error).self, "\(size)") { try serve(["--page-cache-size", size]) }
    }
    do {
      _ = try serve(["--page-cache-size", "0"])
    } catch {
      #expect(ServeCommand.message(for: error).contains("--page-cache-size takes MiB"))
    }
  }

  @Test func theRowCacheIsInMebibytesDefaults16AndMayBeNone() throws {
    #expect(try serve([]).rowCacheMegabytes == 16)
    #expect(try serve(["--row-cache-size", "0"]).rowCacheMegabytes == 0)
    #expect(try serve(["--row-cache-size", "64"]).rowCacheMegabytes == 64)
    for size in ["-1", "1048577", "some"] {
      #expect(throws: (any Error).self, "\(size)") { try serve(["--row-cache-size", size]) }
    }
    do {
      _ = try serve(["--row-cache-size", "1048577"])
    } catch {
      #expect(ServeCommand.message(for: error).contains("--row-cache-size takes MiB, from 0"))
    }
  }

  @Test func theOldCountStillParsesAndMustBePositive() throws {
    #expect(try serve(["--page-cache-capacity", "4000"]).memoCapacity == 4000)
    do {
      _ = try serve(["--page-cache-capacity", "0"])
      Issue.record("--page-cache-capacity 0 was taken")
    } catch {
      #expect(ServeCommand.message(for: error).contains("--page-cache-size MiB"))
    }
  }
}

/// Decoded checklists are sized in MiB; the count of older set-ups still
/// parses, and bounds the other decoded caches as before.
@Suite struct ModelCacheOptionsTests {
  private func serve(_ arguments: [String]) throws -> ServeCommand {
    try ServeCommand.parse(["--port", "9000"] + arguments)
  }

  @Test func theSizeIsInMebibytesAndDefaultsTo16() throws {
    #expect(try serve([]).modelCacheMegabytes == 16)
    #expect(try serve(["--cache-size", "100"]).modelCacheMegabytes == 100)
    #expect(try serve([]).cacheCapacity == nil)
  }

  @Test func aSizeOutsideItsRangeIsRefusedWithWhatItTakes() {
    for size in ["0", "-1", "1048577"] {
      do {
        _ = try serve(["--cache-size=\(size)"])
        Issue.record("--cache-size \(size) was taken")
      } catch {
        #expect(ServeCommand.message(for: error).contains("--cache-size takes MiB"), "\(size)")
      }
    }
  }

  @Test func theOldCountStillParsesAndMustBePositive() throws {
    #expect(try serve(["--cache-capacity", "25000"]).cacheCapacity == 25000)
    do {
      _ = try serve(["--cache-capacity", "0"])
      Issue.record("--cache-capacity 0 was taken")
    } catch {
      #expect(ServeCommand.message(for: error).contains("--cache-size MiB"))
    }
  }
}
