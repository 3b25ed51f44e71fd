import ChecklistsModel
import Foundation
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

  /// Issue 11: one character of `"a"` + 20,000 combining accents (40 KB)
  /// passed the character limit alone.
  func testCombiningMarksPiledOnOneLetterAreRefused() {
    let piled = "a" + String(repeating: "\u{301}", count: 20_000)
    XCTAssertEqual(piled.count, 1)
    XCTAssertThrowsError(try TextInput.clean(piled)) {
      XCTAssertEqual($0 as? ChecklistsError, .textTooLarge)
    }
    let justOver = "a" + String(repeating: "\u{301}", count: Limits.maximumTextScalars)
    XCTAssertThrowsError(try TextInput.clean(justOver)) {
      XCTAssertEqual($0 as? ChecklistsError, .textTooLarge)
    }
  }

  func testFourByteScalarsAreBoundedByBytes() {
    // 3,001 skin-tone modifiers: under the scalar limit, 12,004 bytes.
    let modifiers = String(repeating: "\u{1F3FD}", count: 3_001)
    XCTAssertLessThanOrEqual(modifiers.unicodeScalars.count, Limits.maximumTextScalars)
    XCTAssertThrowsError(try TextInput.clean(modifiers)) {
      XCTAssertEqual($0 as? ChecklistsError, .textTooLarge)
    }
  }

  /// Any real text of 1,000 characters passes all three limits.
  func testRealTextOfAThousandCharactersPasses() throws {
    let samples = [
      String(repeating: "👍🏽", count: 1_000),  // emoji with a skin-tone modifier: 2 scalars, 8 bytes
      String(repeating: "🇫🇷", count: 1_000),  // flags: 2 regional indicators
      String(repeating: "字", count: 1_000),  // CJK: 3 bytes
      String(repeating: "क्षि", count: 1_000),  // Devanagari conjunct: 4 scalars, 12 bytes
      String(repeating: "Viê\u{323}t ", count: 200),  // Vietnamese written decomposed
      String(repeating: "👩‍👩‍👧‍👦 and ", count: 166) + "👩🏽‍💻",  // ZWJ families among words
    ]
    for text in samples {
      XCTAssertLessThanOrEqual(text.count, Limits.maximumTextLength)
      XCTAssertEqual(try TextInput.clean(text), text.trimmingCharacters(in: .whitespaces))
    }
  }

  func testMessagesAreSentences() {
    let errors: [ChecklistsError] = [
      .emptyText, .textTooLong(limit: 1), .textTooLarge, .tooManyLists(limit: 1),
      .tooManyItems(limit: 1),
      .noSuchList(1), .noSuchItem(1),
    ]
    for error in errors { XCTAssertTrue(error.message.hasSuffix(".")) }
  }
}
