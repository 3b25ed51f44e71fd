import ChecklistsModel
import Foundation
import Testing

@testable import Storage

/// The direct reader reads every file the writer writes, and on any file
/// it reads at all it agrees with the general reader (`PropertyList` and
/// `Codable`): same lists, items, deletions, counters and change logs.
@Suite struct ChecklistsXMLReaderTests {
  /// Both readers on `bytes`: the direct one's model, after checking that
  /// the general one reads the very same (or that the direct one left the
  /// file to it).
  @discardableResult
  func agreed(_ bytes: [UInt8], _ comment: Comment? = nil) -> DataModel? {
    guard let direct = ChecklistsFile.decodeDirectly(bytes) else { return nil }
    let general = try? ChecklistsFile.decodeGenerally(bytes)
    #expect(general == direct, comment)
    #expect(general?.lists.map(\.changes) == direct.lists.map(\.changes), comment)
    return direct
  }

  /// A model with something of every kind the file holds, in random amounts.
  func randomModel(using generator: inout some RandomNumberGenerator) throws -> DataModel {
    let alphabet = Array("ab <>&\"'\r\né🙂xyz0123;#")
    func text() -> String {
      "x"
        + String(
          (0..<Int.random(in: 0...12, using: &generator)).map { _ in
            alphabet.randomElement(using: &generator)!
          })
    }
    var model = DataModel()
    for number in 0..<Int.random(in: 0...4, using: &generator) {
      let list =
        Bool.random(using: &generator)
        ? try model.addList(
          name: text(), icon: ChecklistIcon.allCases.randomElement(using: &generator)!)
        : try model.addList(name: text(), calendarName: "app-list-\(number)")
      let stored = model
      for _ in 0..<Int.random(in: 0...6, using: &generator) {
        let item: Int
        if Bool.random(using: &generator) {
          item = try model.addItem(text: text(), toList: list)
        } else {
          let calendar = CalendarData(uid: text(), resource: text() + ".ics", kept: text())
          item = try model.addItem(
            CalendarItemFields(
              text: text(), checked: false, dueDate: nil, shouldRemind: false, calendar: calendar),
            toList: list)
        }
        if Bool.random(using: &generator) { _ = try model.toggleItem(id: item, inList: list) }
        if Bool.random(using: &generator) {
          let seconds = Double.random(in: 0...253_402_300_799.9, using: &generator)
          try model.editItem(
            id: item, inList: list, text: text(), dueDate: Date(timeIntervalSince1970: seconds),
            shouldRemind: Bool.random(using: &generator),
            notes: Bool.random(using: &generator) ? text() + "\n" + text() : nil)
        }
      }
      if Bool.random(using: &generator) { model.recordChanges(since: stored) }
      if Bool.random(using: &generator) {
        _ = try model.changeProperties(
          ofList: list,
          setting: [CollectionProperty(namespace: text(), name: text(), value: text())],
          removing: [])
      }
      if Bool.random(using: &generator) { try model.setSort(.dueDate, ofList: list) }
      if Bool.random(using: &generator) {
        let hour = Int.random(in: 0...23, using: &generator)
        let minute = Int.random(in: 0...59, using: &generator)
        let zone = ["UTC", "Europe/Berlin", "Australia/Lord_Howe"].randomElement(using: &generator)!
        let rules: [ResetRule?] = [
          ResetClock(days: .everyDay, hour: hour, minute: minute, zone: zone).map { .clock($0) },
          ResetClock(
            days: .weekdays([Int.random(in: 1...7, using: &generator), 5]), hour: hour,
            minute: minute, zone: zone
          ).map { .clock($0) },
          ResetClock(
            days: .dayOfMonth(Int.random(in: 1...31, using: &generator)), hour: hour,
            minute: minute, zone: zone
          ).map { .clock($0) },
          .afterAllChecked(hours: Int.random(in: 1...720, using: &generator)),
        ]
        try model.setResetRule(rules.randomElement(using: &generator)!, ofList: list)
        if Bool.random(using: &generator) {
          model.settleResets(at: Date(timeIntervalSince1970: 1_790_000_000.5))
        }
      }
      if Bool.random(using: &generator) { _ = try model.saveAsTemplate(listID: list) }
      if let item = model.checklist(id: list)!.items.randomElement(using: &generator) {
        try model.deleteItem(
          id: item.id, inList: list, at: Date(),
          by: [.owner, .editLink, .app].randomElement(using: &generator)!)
      }
      if Bool.random(using: &generator) {
        try model.deleteList(
          id: list, at: Date(timeIntervalSince1970: 1_790_000_000),
          by: [.owner, .app].randomElement(using: &generator)!)
      }
    }
    return model
  }

  @Test func everyWrittenFileIsReadDirectlyAsTheGeneralReaderReadsIt() throws {
    var generator = SystemRandomNumberGenerator()
    for round in 0..<200 {
      let model = try randomModel(using: &generator)
      let document = ChecklistsXMLWriter.document(model)
      let read = try #require(agreed(document, "round \(round)"), "round \(round): left")
      #expect(read == model, "round \(round)")
      #expect(read.lists.map(\.calendarName) == model.lists.map(\.calendarName))
      #expect(read.lists.map(\.changes) == model.lists.map(\.changes), "round \(round)")
      #expect(read.deletions.map(\.deleter) == model.deletions.map(\.deleter), "round \(round)")
      #expect(read.templates == model.templates, "round \(round)")
      #expect(read.lists.map(\.reset?.due) == model.lists.map(\.reset?.due), "round \(round)")
      #expect(try ChecklistsFile.decode(Data(document)) == model)
    }
  }

  /// Every one-byte change and every cut of a file: the direct reader
  /// either leaves it or reads what the general reader reads (a change
  /// can make a file that reads, e.g. a digit of a counter).
  @Test func everyDamagedFileIsLeftOrReadAlike() throws {
    var model = DataModel()
    let list = try model.addList(name: "Fish & Chips", icon: .groceries)
    let milk = try model.addItem(text: "Milk <2>", toList: list)
    _ = try model.toggleItem(id: milk, inList: list)
    let bread = try model.addItem(text: "Bread", toList: list)
    try model.editItem(
      id: bread, inList: list, text: "Bread", dueDate: Date(timeIntervalSince1970: 1_790_000_000),
      shouldRemind: true)
    try model.deleteItem(id: milk, inList: list, at: Date(timeIntervalSince1970: 1_790_000_000))
    let file = ChecklistsXMLWriter.document(model)
    #expect(agreed(file) == model)
    var read = 0
    for position in file.indices {
      for value: UInt8 in [0x00, 0x09, 0x20, 0x30, 0x31, 0x3C, 0x61, 0x80, 0xFF] {
        var changed = file
        changed[position] = value
        if agreed(changed, "byte \(position) = \(value)") != nil { read += 1 }
      }
      agreed(Array(file.prefix(position)), "cut at \(position)")
    }
    // Digits, letters of texts and whitespace between elements still read.
    #expect(read > 100)
  }

  @Test(arguments: [
    ("an unknown key", "<key>text</key>", "<key>note</key><string>n</string><key>text</key>"),
    ("a key twice", "<key>text</key>", "<key>checked</key><true/><key>text</key>"),
    ("a comment", "<key>text</key>", "<!-- c --><key>text</key>"),
    ("CDATA", "<string>Milk</string>", "<string><![CDATA[Milk]]></string>"),
    ("another entity", "<string>Milk</string>", "<string>Milk&quot;</string>"),
    ("a real id", "<integer>1</integer>", "<real>1</real>"),
    ("spaces in an integer", "<integer>1</integer>", "<integer> 1 </integer>"),
    ("leading whitespace", "<?xml", " <?xml"),
    ("another declaration", "encoding=\"UTF-8\"", "encoding=\"utf-8\""),
  ])
  func filesOfAnotherShapeAreLeftToTheGeneralReader(
    what: String, original: String, replacement: String
  ) throws {
    var model = DataModel()
    let list = try model.addList(name: "List", icon: .none)
    try model.addItem(text: "Milk", toList: list)
    let text = String(decoding: ChecklistsXMLWriter.document(model), as: UTF8.self)
    let range = try #require(text.range(of: original), "\(what)")
    let changed = Array(text.replacingCharacters(in: range, with: replacement).utf8)
    #expect(ChecklistsFile.decodeDirectly(changed) == nil, "\(what)")
    // The general reader still decides: it reads each of these but the
    // key twice.
    let general = try? ChecklistsFile.decode(Data(changed))
    #expect((general == nil) == (what == "a key twice"), "\(what)")
  }

  @Test func invalidUTF8InAStringIsLeftAndRefused() throws {
    var model = DataModel()
    let list = try model.addList(name: "List", icon: .none)
    try model.addItem(text: "Milk", toList: list)
    var file = ChecklistsXMLWriter.document(model)
    let milk = try #require(file.firstRange(of: Array("Milk".utf8)))
    file[milk.lowerBound] = 0xFF
    #expect(ChecklistsFile.decodeDirectly(file) == nil)
    #expect(throws: (any Error).self) { try ChecklistsFile.decode(Data(file)) }
  }
}
