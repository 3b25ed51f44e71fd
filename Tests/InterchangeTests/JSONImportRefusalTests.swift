import ChecklistsModel
import Foundation
import Testing

@testable import Interchange

/// Every way a file is refused, each with the sentence the visitor reads.
@Suite struct JSONImportRefusalTests {
  static func refusal(_ bytes: [UInt8]) -> String? {
    do {
      _ = try JSONImport.lists(from: bytes)
      return nil
    } catch {
      return error.message
    }
  }

  static func refusal(_ text: String) -> String? { refusal(Array(text.utf8)) }

  static func refusal(lists: String) -> String? {
    refusal(#"{"format": "checklists", "version": 1, "lists": [\#(lists)]}"#)
  }

  static func refusal(items: String) -> String? {
    refusal(lists: #"{"name": "Groceries", "items": [\#(items)]}"#)
  }

  @Test(arguments: [
    ("", "This file is empty."),
    (" \n\t ", "This file is empty."),
    (
      "{",
      "This file is not valid JSON: the file ends inside an object (a “}” is missing) at line 1, column 2."
    ),
    (
      "{\"format\": \"checklists\",}",
      "This file is not valid JSON: expected a name in double quotes after the comma at line 1, column 25."
    ),
    (
      "[1, 2,]",
      "This file is not valid JSON: expected a value after the comma at line 1, column 7."
    ),
    (
      "{\"a\" 1}",
      "This file is not valid JSON: expected “:” after a name, not “1” at line 1, column 6."
    ),
    (
      "{\"a\": 1\n\"b\": 2}",
      "This file is not valid JSON: expected “,” or “}”, not “\"” at line 2, column 1."
    ),
    ("[1 2]", "This file is not valid JSON: expected “,” or “]”, not “2” at line 1, column 4."),
    (
      "{a: 1}",
      "This file is not valid JSON: expected a name in double quotes, not “a” at line 1, column 2."
    ),
    (
      "{'a': 1}",
      "This file is not valid JSON: expected a name in double quotes, not “'” at line 1, column 2."
    ),
    (
      "{\"a\": tru}",
      "This file is not valid JSON: expected a value (such as true, false, null, a number or a text in quotes) at line 1, column 7."
    ),
    (
      "{\"a\": nul",
      "This file is not valid JSON: expected a value (such as true, false, null, a number or a text in quotes) at line 1, column 7."
    ),
    (
      "{\"a\": 01}",
      "This file is not valid JSON: a number may not start with 0 (except 0 itself) at line 1, column 7."
    ),
    (
      "{\"a\": 1.}",
      "This file is not valid JSON: expected a digit in a number, not “}” at line 1, column 9."
    ),
    (
      "{\"a\": -}",
      "This file is not valid JSON: expected a digit in a number, not “}” at line 1, column 8."
    ),
    (
      "{\"a\": 1e}",
      "This file is not valid JSON: expected a digit in a number, not “}” at line 1, column 9."
    ),
    ("{\"a\": +1}", "This file is not valid JSON: expected a value, not “+” at line 1, column 7."),
    ("{\"a\": NaN}", "This file is not valid JSON: expected a value, not “N” at line 1, column 7."),
    (
      "{\"a\": \"x}",
      "This file is not valid JSON: the text in quotes that starts here never ends at line 1, column 7."
    ),
    (
      "{\"a\": \"x\ty\"}",
      "This file is not valid JSON: a text in quotes holds a control character (U+0009), which must be written as an escape such as \\n at line 1, column 9."
    ),
    (
      "{\"a\": \"\\x\"}",
      "This file is not valid JSON: “\\x” is not an escape JSON knows at line 1, column 8."
    ),
    (
      "{\"a\": \"\\u12\"}",
      "This file is not valid JSON: “\\u” must be followed by four hexadecimal digits at line 1, column 8."
    ),
    (
      "{\"a\": \"\\ud800\"}",
      "This file is not valid JSON: the escape \\uD800 is the first half of a character without its second at line 1, column 8."
    ),
    (
      "{\"a\": \"\\ud800\\u0041\"}",
      "This file is not valid JSON: the escape \\uD800 is the first half of a character without its second at line 1, column 8."
    ),
    (
      "{\"a\": \"\\udc00\"}",
      "This file is not valid JSON: the escape \\uDC00 is the second half of a character without its first at line 1, column 8."
    ),
    (
      "{\"a\": \"\\",
      "This file is not valid JSON: the file ends inside an escape at line 1, column 8."
    ),
    (
      "{} {}",
      "This file is not valid JSON: the file goes on after its end (“{”) at line 1, column 4."
    ),
    (
      "{}\n// a comment",
      "This file is not valid JSON: the file goes on after its end (“/”) at line 2, column 1."
    ),
    ("{\"é😀\": x}", "This file is not valid JSON: expected a value, not “x” at line 1, column 8."),
    ("{\"a\": ]", "This file is not valid JSON: expected a value, not “]” at line 1, column 7."),
    (
      "{\"a\": 1, ]",
      "This file is not valid JSON: expected a name in double quotes, not “]” at line 1, column 10."
    ),
    ("[1, }", "This file is not valid JSON: expected a value after the comma at line 1, column 5."),
    (
      "[\n",
      "This file is not valid JSON: the file ends where a value was expected at line 2, column 1."
    ),
    (
      "[1",
      "This file is not valid JSON: the file ends inside an array (a “]” is missing) at line 1, column 3."
    ),
    (
      "{\"a\": 1,",
      "This file is not valid JSON: the file ends inside an object (a “}” is missing) at line 1, column 9."
    ),
    (
      "{\"a\": \u{7}}",
      "This file is not valid JSON: expected a value, not “U+0007” at line 1, column 7."
    ),
  ])
  func notJSON(text: String, message: String) {
    #expect(Self.refusal(text) == message)
  }

  @Test func aByteOrderMarkIsNotCountedInTheColumn() {
    #expect(
      Self.refusal([0xEF, 0xBB, 0xBF] + Array("{\"a\" 1}".utf8))
        == "This file is not valid JSON: expected “:” after a name, not “1” at line 1, column 6.")
    #expect(
      Self.refusal([0xEF, 0xBB, 0xBF] + Array("{\"é\": \"".utf8) + [0xFF])
        == "This file is not UTF-8 text: the byte at line 1, column 8 is not part of a UTF-8 character."
    )
  }

  @Test func nestingIsBoundedWithoutRecursion() {
    let deep = String(repeating: "[", count: 1_000_000)
    #expect(
      Self.refusal(deep)
        == "This file is not valid JSON: objects and arrays are nested more than 64 deep at line 1, column 65."
    )
    let objects = String(repeating: "{\"a\":", count: 100_000)
    #expect(
      Self.refusal(objects)
        == "This file is not valid JSON: objects and arrays are nested more than 64 deep at line 1, column 321."
    )
    // 64 levels are read (and passed over when unknown).
    let nested = String(repeating: "[", count: 62) + String(repeating: "]", count: 62)
    #expect(
      Self.refusal(#"{"format": "checklists", "version": 1, "lists": [], "x": \#(nested)}"#) == nil)
  }

  @Test func notUTF8() {
    #expect(
      Self.refusal([0x7B, 0x0A, 0x22, 0xFF, 0x22, 0x7D])
        == "This file is not UTF-8 text: the byte at line 2, column 2 is not part of a UTF-8 character."
    )
    for bytes: [UInt8] in [
      [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xF8],
      [0xE0, 0x9F, 0xBF],
    ] {
      #expect(
        Self.refusal([0x7B, 0x22] + bytes + [0x22, 0x7D])
          == "This file is not UTF-8 text: the byte at line 1, column 3 is not part of a UTF-8 character.",
        "\(bytes)")
    }
    let utf16 = Array(#"{"format": "checklists"}"#.utf16).flatMap {
      [UInt8($0 & 0xFF), UInt8($0 >> 8)]
    }
    let message = "This file is UTF-16 or UTF-32 text; a Checklists export is UTF-8 text."
    #expect(Self.refusal(utf16) == message)
    #expect(Self.refusal([0xFF, 0xFE] + utf16) == message)
    #expect(
      Self.refusal(
        [0xFE, 0xFF] + Array(#"{}"#.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        == message)
  }

  @Test(arguments: [
    (
      "[]",
      "This file is JSON, but not a Checklists export: it holds an array where an export holds an object with “format”: “checklists”."
    ),
    (
      "\"checklists\"",
      "This file is JSON, but not a Checklists export: it holds a text in quotes where an export holds an object with “format”: “checklists”."
    ),
    ("{}", "This JSON file is not a Checklists export: it has no “format”: “checklists”."),
    (
      "{\"lists\": []}",
      "This JSON file is not a Checklists export: it has no “format”: “checklists”."
    ),
    (
      "{\"format\": \"todo.txt\", \"version\": 1}",
      "This JSON file is not a Checklists export: its “format” is “todo.txt”, not “checklists”."
    ),
    (
      "{\"format\": 1}",
      "This JSON file is not a Checklists export: its “format” is 1, not “checklists”."
    ),
    (
      "{\"format\": \"checklists\", \"format\": \"checklists\"}",
      "This JSON file has “format” twice."
    ),
    ("{\"format\": \"checklists\", \"lists\": []}", "This Checklists export has no “version”."),
    (
      "{\"format\": \"checklists\", \"version\": \"1\", \"lists\": []}",
      "This Checklists export: “version” is a text in quotes; it must be a whole number such as 1."
    ),
    (
      "{\"format\": \"checklists\", \"version\": 1.0, \"lists\": []}",
      "This Checklists export: “version” is 1.0; it must be a whole number such as 1."
    ),
    (
      "{\"format\": \"checklists\", \"version\": 1e0, \"lists\": []}",
      "This Checklists export: “version” is 1e0; it must be a whole number such as 1."
    ),
    (
      "{\"format\": \"checklists\", \"version\": 2, \"lists\": []}",
      "This file is a Checklists export in format version 2, newer than this server reads (version 1): update Checklists on this server to import it."
    ),
    (
      "{\"format\": \"checklists\", \"version\": 12345678901234567890, \"lists\": {}}",
      "This file is a Checklists export in format version 12345678901234567890, newer than this server reads (version 1): update Checklists on this server to import it."
    ),
    (
      "{\"format\": \"checklists\", \"version\": 0, \"lists\": []}",
      "This Checklists export has “version” 0, which no Checklists server writes: the first version is 1."
    ),
    (
      "{\"format\": \"checklists\", \"version\": -1, \"lists\": []}",
      "This Checklists export has “version” -1, which no Checklists server writes: the first version is 1."
    ),
    ("{\"format\": \"checklists\", \"version\": 1}", "This Checklists export has no “lists”."),
    (
      "{\"format\": \"checklists\", \"version\": 1, \"lists\": {}}",
      "This Checklists export: “lists” is an object; it must be an array of lists."
    ),
    (
      "{\"format\": \"checklists\", \"version\": 1, \"lists\": null}",
      "This Checklists export: “lists” is null; it must be an array of lists."
    ),
  ])
  func notOurFormat(text: String, message: String) {
    #expect(Self.refusal(text) == message)
  }

  @Test(arguments: [
    (
      "\"Groceries\"",
      "List 1 is a text in quotes; each list must be an object with a “name” and its “items”."
    ),
    ("{\"items\": []}", "List 1 has no “name”."),
    ("{\"name\": null, \"items\": []}", "List 1: “name” is null; it must be a text in quotes."),
    ("{\"name\": 7, \"items\": []}", "List 1: “name” is a number; it must be a text in quotes."),
    ("{\"name\": \"A\", \"name\": \"B\", \"items\": []}", "List 1 has “name” twice."),
    ("{\"name\": \"Trips\"}", "List 1 (“Trips”) has no “items”."),
    (
      "{\"items\": {}, \"name\": \"Trips\"}",
      "List 1 (“Trips”): “items” is an object; it must be an array of items."
    ),
    (
      "{\"name\": \"Trips\", \"items\": [], \"icon\": 3}",
      "List 1 (“Trips”): “icon” is a number; it must be an icon’s name in quotes, such as “groceries”."
    ),
    (
      "{\"name\": \"Trips\", \"items\": [], \"sort\": \"name\"}",
      "List 1 (“Trips”): “sort” is “name”; it must be “own” or “dueDate”."
    ),
    (
      "{\"name\": \"Trips\", \"items\": [], \"sort\": \"DueDate\"}",
      "List 1 (“Trips”): “sort” is “DueDate”; it must be “own” or “dueDate”."
    ),
    (
      "{\"name\": \"Trips\", \"items\": [], \"sort\": true}",
      "List 1 (“Trips”): “sort” is true or false; it must be “own” or “dueDate”."
    ),
    (
      "{\"name\": \"A very long name that goes on and on and on, past forty characters\", \"items\": 1}",
      "List 1 (“A very long name that goes on and on and…”): “items” is a number; it must be an array of items."
    ),
    (
      "{\"name\": \"Line\\nbreak\", \"items\": 1}",
      "List 1 (“Line break”): “items” is a number; it must be an array of items."
    ),
  ])
  func badLists(list: String, message: String) {
    #expect(Self.refusal(lists: list) == message)
  }

  @Test func theListIsCountedFromOne() {
    #expect(
      Self.refusal(lists: #"{"name": "A", "items": []}, {"name": "B", "items": []}, []"#)
        == "List 3 is an array; each list must be an object with a “name” and its “items”.")
  }

  @Test(arguments: [
    (
      "3",
      "Item 1 of list 1 (“Groceries”) is a number; each item must be an object with a “text” and “checked”."
    ),
    ("{\"checked\": false}", "Item 1 of list 1 (“Groceries”) has no “text”."),
    ("{\"text\": \"Milk\"}", "Item 1 of list 1 (“Groceries”) has no “checked”."),
    (
      "{\"text\": [\"Milk\"], \"checked\": false}",
      "Item 1 of list 1 (“Groceries”): “text” is an array; it must be a text in quotes."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": \"yes\"}",
      "Item 1 of list 1 (“Groceries”): “checked” is a text in quotes; it must be true or false."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": 1}",
      "Item 1 of list 1 (“Groceries”): “checked” is a number; it must be true or false."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": null}",
      "Item 1 of list 1 (“Groceries”): “checked” is null; it must be true or false."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": false, \"checked\": true}",
      "Item 1 of list 1 (“Groceries”) has “checked” twice."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": false, \"shouldRemind\": \"no\"}",
      "Item 1 of list 1 (“Groceries”): “shouldRemind” is a text in quotes; it must be true or false."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": false, \"dueDate\": 1740848400}",
      "Item 1 of list 1 (“Groceries”): “dueDate” is a number; it must be a date and time in quotes, such as “2025-03-01T17:00:00Z”."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": false, \"dueDate\": \"tomorrow\"}",
      "Item 1 of list 1 (“Groceries”): “dueDate” is “tomorrow”; it must be a date and time such as “2025-03-01T17:00:00Z”."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": false, \"dueDate\": \"1969-12-31T23:59:59Z\"}",
      "Item 1 of list 1 (“Groceries”): the due date “1969-12-31T23:59:59Z” is outside the years 1970 to 9999."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": false, \"dueDate\": \"1970-01-01T00:30:00+01:00\"}",
      "Item 1 of list 1 (“Groceries”): the due date “1970-01-01T00:30:00+01:00” is outside the years 1970 to 9999."
    ),
    (
      "{\"text\": \"Milk\", \"checked\": false, \"dueDate\": \"9999-12-31T23:00:00-01:00\"}",
      "Item 1 of list 1 (“Groceries”): the due date “9999-12-31T23:00:00-01:00” is outside the years 1970 to 9999."
    ),
  ])
  func badItems(item: String, message: String) {
    #expect(Self.refusal(items: item) == message)
  }

  @Test(arguments: [
    "2025-03-01", "2025-03-01T17:00Z", "2025-03-01T17:00:00", "2025-03-01 17:00:00Z",
    "2025-02-29T17:00:00Z", "2025-13-01T17:00:00Z", "2025-03-01T24:00:00Z",
    "2025-03-01T17:60:00Z", "2025-03-01T17:00:61Z", "2025-03-01T17:00:00.Z",
    "2025-03-01T17:00:00+0100", "2025-03-01T17:00:00+24:00", "2025-03-01T17:00:00+01:60",
    "+2025-03-01T17:00:00Z", "2025-3-1T17:00:00Z", "2025-03-01T17:00:00ZZ", "１２３４-03-01T17:00:00Z",
    "2025-03-01T17:00:00 Z", "",
  ])
  func unreadableDueDates(text: String) {
    #expect(
      Self.refusal(items: #"{"text": "Milk", "checked": false, "dueDate": "\#(text)"}"#)
        == "Item 1 of list 1 (“Groceries”): “dueDate” is “\(text)”; it must be a date and time such as “2025-03-01T17:00:00Z”."
    )
  }

  @Test func theItemIsCountedFromOneInItsList() {
    let good = #"{"text": "Milk", "checked": false}"#
    #expect(
      Self.refusal(
        lists:
          #"{"name": "A", "items": [\#(good)]}, {"name": "B", "items": [\#(good), \#(good), {"text": "x"}]}"#
      )
        == "Item 3 of list 2 (“B”) has no “checked”.")
  }

  @Test func tooManyListsOrItemsStopsTheReading() {
    let list = #"{"name": "n", "items": []}"#
    // What follows the first list past the limit is never read.
    #expect(
      Self.refusal(
        lists: Array(repeating: list, count: Limits.maximumLists + 1).joined(separator: ",") + ", 7"
      )
        == "This file has more than 500 lists; Checklists keeps at most 500.")
    let item = #"{"text": "x", "checked": false}"#
    #expect(
      Self.refusal(
        items: Array(repeating: item, count: Limits.maximumItemsPerList + 1).joined(separator: ",")
          + ", 7")
        == "List 1 (“Groceries”) has more than 5,000 items; a list holds at most 5,000.")
  }
}
