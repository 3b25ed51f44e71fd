import Documents
import Foundation
import Testing

@Suite struct DocumentErrorTests {
  @Test func onlyAnUnreachableEngineIsUnavailable() {
    let lost = DocumentError(
      operation: "PostgreSQL read", path: "/data/a", reason: .unavailable, detail: "lost")
    #expect(lost.isUnavailable)
    for reason in [DocumentError.Reason.failed, .notFound, .invalidPath] {
      #expect(!DocumentError(operation: "x", path: "/p", reason: reason, detail: "d").isUnavailable)
    }
  }

  @Test func itReadsAsTheOperationThePathAndTheEnginesWords() {
    let error = DocumentError(
      operation: "rename", path: "/data/a", reason: .failed, detail: "No space left on device")
    #expect(error.description == "rename /data/a: No space left on device")
    #expect(
      DocumentError.unsettled("/data/a").description == "load /data/a: replaced during every read")
  }
}

@Suite struct AsideNameTests {
  @Test func theTimeIsUTCInBasicFormat() {
    let time = Date(timeIntervalSince1970: 1_740_848_400.9)  // 2025-03-01 17:00:00.9 UTC
    #expect(
      AsideName.for("Checklists.plist", now: time) { _ in false }
        == "Checklists.plist.corrupt-20250301T170000Z")
    let early = Date(timeIntervalSince1970: 0)
    #expect(AsideName.for("a", now: early) { _ in false } == "a.corrupt-19700101T000000Z")
  }

  @Test func aTakenNameGetsACounter() {
    let time = Date(timeIntervalSince1970: 1_740_848_400)
    let base = "a.corrupt-20250301T170000Z"
    let taken: Set = [base, base + "-2"]
    #expect(AsideName.for("a", now: time) { taken.contains($0) } == base + "-3")
  }
}

@Suite struct DocumentNameTests {
  @Test func aPathSplitsAtItsLastSlash() {
    #expect(
      DocumentName.split("/data/users/ab/Checklists.plist") == (
        "/data/users/ab", "Checklists.plist"
      ))
    #expect(DocumentName.split("/secret") == ("/", "secret"))
    #expect(DocumentName.split("secret") == (".", "secret"))
  }
}
