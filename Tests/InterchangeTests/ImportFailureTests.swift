import Interchange
import Testing

@Suite("An import failure carries the sentence the visitor reads")
struct ImportFailureTests {
  @Test("Its description is its message")
  func descriptionIsMessage() {
    let failure = ImportFailure("This file is not a checklists export.")
    #expect(failure.message == "This file is not a checklists export.")
    #expect("\(failure)" == failure.message)
  }
}
