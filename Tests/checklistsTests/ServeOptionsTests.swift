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
    #expect(StoreLocation(argument: "mysql://db/c") == nil)
    #expect(StoreLocation(argument: "") == nil)
    #expect("\(StoreLocation.postgres("postgresql://u:secret@db/c"))" == "postgresql")
  }
}
