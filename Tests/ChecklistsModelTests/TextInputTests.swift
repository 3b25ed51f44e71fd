import ChecklistsModel
import Foundation
import Testing

@Suite("Cleaning and bounding the text a visitor types")
struct TextInputTests {
  @Test("Text is trimmed and loses its control characters")
  func trimsAndRemovesControlCharacters() throws {
    #expect(try TextInput.clean("  Milk \n") == "Milk")
    #expect(try TextInput.clean("a\u{0}b\u{7F}c\u{1B}") == "abc")
    #expect(try TextInput.clean("two\nlines") == "two lines")
    #expect(try TextInput.clean("\u{3000}全角\u{00A0}") == "全角")
    #expect(try TextInput.clean("👨‍👩‍👧 family") == "👨‍👩‍👧 family")
  }

  /// Text for a parameterised test, named in the results by what it is or by its escaped form
  /// (the text itself is too long, or holds control characters).
  struct Sample: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let text: String
  }

  @Test(
    "Text that cleans to nothing is refused",
    arguments: ["", "   ", "\n\r\t", "\u{0}\u{1}"].map {
      Sample(testDescription: $0.debugDescription, text: $0)
    })
  func refusesEmpty(raw: Sample) {
    #expect(throws: ChecklistsError.emptyText) { try TextInput.clean(raw.text) }
  }

  @Test("The length limit counts characters after cleaning")
  func lengthLimitCountsCharactersAfterCleaning() throws {
    let longest = String(repeating: "é", count: Limits.maximumTextLength)
    #expect(try TextInput.clean("  " + longest + "  ") == longest)
    #expect(throws: ChecklistsError.textTooLong(limit: 1_000)) {
      try TextInput.clean(longest + "x")
    }
  }

  /// Issue 11: one character of `"a"` + 20,000 combining accents (40 KB)
  /// passed the character limit alone.
  @Test("Combining marks piled on one letter are refused")
  func combiningMarksPiledOnOneLetterAreRefused() {
    let piled = "a" + String(repeating: "\u{301}", count: 20_000)
    #expect(piled.count == 1)
    #expect(throws: ChecklistsError.textTooLarge) { try TextInput.clean(piled) }
    let justOver = "a" + String(repeating: "\u{301}", count: Limits.maximumTextScalars)
    #expect(throws: ChecklistsError.textTooLarge) { try TextInput.clean(justOver) }
  }

  @Test("Four-byte scalars are bounded by their bytes")
  func fourByteScalarsAreBoundedByBytes() {
    // 3,001 skin-tone modifiers: under the scalar limit, 12,004 bytes.
    let modifiers = String(repeating: "\u{1F3FD}", count: 3_001)
    #expect(modifiers.unicodeScalars.count <= Limits.maximumTextScalars)
    #expect(throws: ChecklistsError.textTooLarge) { try TextInput.clean(modifiers) }
  }

  static let samples = [
    Sample(
      testDescription: "emoji with a skin-tone modifier: 2 scalars, 8 bytes",
      text: String(repeating: "👍🏽", count: 1_000)),
    Sample(
      testDescription: "flags: 2 regional indicators",
      text: String(repeating: "🇫🇷", count: 1_000)),
    Sample(testDescription: "CJK: 3 bytes", text: String(repeating: "字", count: 1_000)),
    Sample(
      testDescription: "Devanagari conjunct: 4 scalars, 12 bytes",
      text: String(repeating: "क्षि", count: 1_000)),
    Sample(
      testDescription: "Vietnamese written decomposed",
      text: String(repeating: "Viê\u{323}t ", count: 200)),
    Sample(
      testDescription: "ZWJ families among words",
      text: String(repeating: "👩‍👩‍👧‍👦 and ", count: 166) + "👩🏽‍💻"),
  ]

  /// Any real text of 1,000 characters passes all three limits.
  @Test("Real text of a thousand characters passes", arguments: samples)
  func realTextOfAThousandCharactersPasses(sample: Sample) throws {
    #expect(sample.text.count <= Limits.maximumTextLength)
    #expect(try TextInput.clean(sample.text) == sample.text.trimmingCharacters(in: .whitespaces))
  }

  @Test(
    "Every error message is a sentence",
    arguments: [
      .emptyText, .textTooLong(limit: 1), .textTooLarge, .tooManyLists(limit: 1),
      .tooManyItems(limit: 1), .noSuchList(1), .noSuchItem(1),
    ] as [ChecklistsError])
  func messagesAreSentences(error: ChecklistsError) {
    #expect(error.message.hasSuffix("."))
  }

  @Test(
    "Printable ASCII is cleaned as every other text: kept whole, trimmed, refused past the limit")
  func printableASCIIIsCleanedAsOtherText() throws {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let length = Int.random(in: 1...40, using: &random)
      let text = String(
        (0..<length).map { _ in
          Character(UnicodeScalar(UInt8.random(in: 0x20...0x7E, using: &random)))
        })
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty {
        #expect(throws: ChecklistsError.emptyText) { try TextInput.clean(text) }
      } else {
        #expect(try TextInput.clean(text) == trimmed)
        #expect(try TextInput.clean("\t" + text + "\u{7}") == trimmed)
      }
    }
    let longest = String(repeating: "a", count: Limits.maximumTextLength)
    #expect(try TextInput.clean(longest) == longest)
    #expect(throws: ChecklistsError.textTooLong(limit: Limits.maximumTextLength)) {
      try TextInput.clean(longest + "b")
    }
  }
}
