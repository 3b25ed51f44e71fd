import ChecklistsModel
import XCTest

final class TextInputTests: XCTestCase {
  func testTrimsAndRemovesControlCharacters() throws {
    XCTAssertEqual(try TextInput.clean("  Milk \n"), "Milk")
    XCTAssertEqual(try TextInput.clean("a\u{0}b\u{7F}c\u{1B}"), "abc")
    XCTAssertEqual(try TextInput.clean("two\nlines"), "two lines")
    XCTAssertEqual(try TextInput.clean("\u{3000}全角\u{00A0}"), "全角")
    XCTAssertEqual(try TextInput.clean("👨‍👩‍👧 family"), "👨‍👩‍👧 family")
  }

  func testRefusesEmpty() {
    for raw in ["", "   ", "\n\r\t", "\u{0}\u{1}"] {
      XCTAssertThrowsError(try TextInput.clean(raw)) {
        XCTAssertEqual($0 as? ChecklistsError, .emptyText)
      }
    }
  }

  func testLengthLimitCountsCharactersAfterCleaning() throws {
    let longest = String(repeating: "é", count: Limits.maximumTextLength)
    XCTAssertEqual(try TextInput.clean("  " + longest + "  "), longest)
    XCTAssertThrowsError(try TextInput.clean(longest + "x")) {
      XCTAssertEqual($0 as? ChecklistsError, .textTooLong(limit: 1_000))
    }
  }

  func testMessagesAreSentences() {
    let errors: [ChecklistsError] = [
      .emptyText, .textTooLong(limit: 1), .tooManyLists(limit: 1), .tooManyItems(limit: 1),
      .noSuchList(1), .noSuchItem(1),
    ]
    for error in errors { XCTAssertTrue(error.message.hasSuffix(".")) }
  }
}
