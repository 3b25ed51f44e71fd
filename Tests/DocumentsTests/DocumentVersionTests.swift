import Documents
import Foundation
import Testing

/// A version is trusted to stand for its document only once a later write
/// could not leave the same identity: written at least 20 ms before now.
@Suite struct DocumentVersionTests {
  private func written(at seconds: Int64, _ nanoseconds: Int64) -> DocumentVersion {
    DocumentVersion(
      place: 1, number: 2, size: 3, modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds)
  }

  @Test func aVersionIsSettledFromTwentyMillisecondsAfterItsWrite() {
    let now = Date(timeIntervalSince1970: 1_000)
    #expect(written(at: 1_000, 0).isSettled(at: now) == false)
    #expect(written(at: 999, 990_000_000).isSettled(at: now) == false)
    #expect(written(at: 999, 979_000_000).isSettled(at: now))
    #expect(written(at: 990, 0).isSettled(at: now))
  }

  @Test func aVersionWrittenAfterNowIsNotSettled() {
    // `now` is read before the version: a write in between looks younger.
    let now = Date(timeIntervalSince1970: 1_000)
    #expect(written(at: 1_001, 0).isSettled(at: now) == false)
  }
}
