import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ChecklistsWeb

@Suite struct ServerSecretTests {
  /// Each test's own directory (Swift Testing makes a suite value per test).
  private let temporary = TemporaryDirectory("checklists-secret")
  private let visitor = VisitorID(cookieValue: "00112233445566778899aabbccddeeff")!

  @Test func isCreatedOnceWith0600AndReadBackAfterwards() throws {
    let directory = temporary.path
    let first = try ServerSecret.loadOrCreate(inDirectory: directory, durable: false)
    let path = directory + "/secret"
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect((attributes[.size] as? Int) == 32)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(first.bytes))
    let second = try ServerSecret.loadOrCreate(inDirectory: directory, durable: true)
    #expect(second.bytes == first.bytes)
    #expect(CSRF(secret: second).token(for: visitor) == CSRF(secret: first).token(for: visitor))
    // No temporary file is left behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["secret"])
  }

  @Test func aFileOfTheWrongSizeIsAnErrorAndIsLeftAlone() throws {
    let directory = temporary.path
    let path = directory + "/secret"
    try Data("short".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: ServerSecretError.wrongLength(path: path, byteCount: 5)) {
      try ServerSecret.loadOrCreate(inDirectory: directory, durable: false)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("short".utf8))
  }

  @Test func aMissingDirectoryIsAFileError() {
    #expect {
      try ServerSecret.loadOrCreate(
        inDirectory: "/nonexistent-\(UUID().uuidString)", durable: false)
    } throws: { error in
      guard case .file = error as? ServerSecretError else { return false }
      return true
    }
  }

  @Test func racingCreatorsAgreeOnOneSecret() throws {
    // Eight creators at once on a fresh directory, ten times: `link` lets
    // exactly one candidate become the file, and everybody reads it back.
    for round in 0..<10 {
      let directory = temporary.appending("round-\(round)")
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
      let results = Results()
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        results.append(
          Result { try ServerSecret.loadOrCreate(inDirectory: directory, durable: false).bytes })
      }
      let secrets = try results.values.map { try $0.get() }
      #expect(secrets.count == 8)
      #expect(Set(secrets).count == 1)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["secret"])
    }
  }
}

/// Results collected from concurrent work, behind a lock.
private final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Result<[UInt8], any Error>] = []

  func append(_ result: Result<[UInt8], any Error>) {
    lock.withLock { stored.append(result) }
  }

  var values: [Result<[UInt8], any Error>] { lock.withLock { stored } }
}
