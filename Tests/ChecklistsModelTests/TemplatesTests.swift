import ChecklistsModel
import Foundation
import Testing

/// Duplicating a list, keeping one as a template and starting a list from
/// it: new ids, what each copy keeps, the limits, and the file.
@Suite struct TemplatesTests {
  static func model() throws -> (DataModel, list: Int) {
    var model = DataModel()
    let list = try model.addList(name: "Packing", icon: .trips)
    try model.setSort(.dueDate, ofList: list)
    for text in ["Passport", "Charger", "Socks"] {
      let id = try model.addItem(text: text, toList: list)
      try model.editItem(
        id: id, inList: list, text: text, dueDate: Date(timeIntervalSince1970: 1_900_000_000),
        shouldRemind: true, notes: "note of \(text)")
    }
    try model.toggleItem(id: model.checklist(id: list)!.items[1].id, inList: list)
    return (model, list)
  }

  /// The page words the copy's name in the visitor's language; it is
  /// cleaned and stored as any typed name.
  @Test func aDuplicateTakesTheNameItIsGiven() throws {
    var (model, list) = try Self.model()
    let copyID = try model.duplicateList(id: list) { "  \($0) Kopie " }
    #expect(model.checklist(id: copyID)?.name == "Packing Kopie")
  }

  @Test func aDuplicateIsANewListWithEveryItemAsItIs() throws {
    var (model, list) = try Self.model()
    let original = try #require(model.checklist(id: list))
    let copyID = try model.duplicateList(id: list)
    let copy = try #require(model.checklist(id: copyID))
    #expect(copyID != list && copy.name == "Packing copy" && copy.icon == .trips)
    #expect(copy.sort == .dueDate)
    #expect(copy.items.map(\.text) == original.items.map(\.text))
    #expect(copy.items.map(\.checked) == [false, true, false])
    #expect(copy.items.map(\.notes) == original.items.map(\.notes))
    #expect(copy.items.map(\.dueDate) == original.items.map(\.dueDate))
    #expect(Set(copy.items.map(\.id)).isDisjoint(with: original.items.map(\.id)))
    #expect(model.checklist(id: list) == original)
    #expect(model.lists.map(\.name) == ["Packing", "Packing copy"])
  }

  @Test func aTemplateIsNoListAndStartsNewOnesUnchecked() throws {
    var (model, list) = try Self.model()
    let template = try model.saveAsTemplate(listID: list)
    #expect(model.lists.map(\.id) == [list])
    #expect(model.checklist(id: template) == nil)
    let kept = try #require(model.template(id: template))
    #expect(kept.items.allSatisfy { !$0.checked && $0.dueDate == nil && !$0.shouldRemind })
    #expect(kept.items.map(\.notes) == ["note of Passport", "note of Charger", "note of Socks"])
    let first = try model.addList(fromTemplate: template)
    let second = try model.addList(fromTemplate: template)
    #expect(model.lists.count == 3)
    for id in [first, second] {
      let made = try #require(model.checklist(id: id))
      #expect(made.name == "Packing" && made.icon == .trips && made.sort == .dueDate)
      #expect(made.items.map(\.text) == ["Passport", "Charger", "Socks"])
      #expect(made.items.allSatisfy { !$0.checked })
    }
    let allItemIDs = (model.lists + model.templates).flatMap { $0.items.map(\.id) }
    #expect(Set(allItemIDs).count == allItemIDs.count)
    try model.deleteTemplate(id: template)
    #expect(model.templates.isEmpty && model.lists.count == 3)
    #expect(throws: ChecklistsError.noSuchTemplate(template)) {
      try model.addList(fromTemplate: template)
    }
  }

  @Test func theLimitsHold() throws {
    var (model, list) = try Self.model()
    for _ in 0..<Limits.maximumTemplates { try model.saveAsTemplate(listID: list) }
    #expect(throws: ChecklistsError.tooManyTemplates(limit: Limits.maximumTemplates)) {
      try model.saveAsTemplate(listID: list)
    }
    while model.lists.count < Limits.maximumLists { _ = try model.addList(name: "x", icon: .none) }
    let before = model
    #expect(throws: ChecklistsError.tooManyLists(limit: Limits.maximumLists)) {
      try model.duplicateList(id: list)
    }
    #expect(throws: ChecklistsError.tooManyLists(limit: Limits.maximumLists)) {
      try model.addList(fromTemplate: model.templates[0].id)
    }
    #expect(model == before)
  }

  /// A calendar app's data stays with the original: a copy is a new
  /// to-do to a client, never the same `UID` twice.
  @Test func aCopyLeavesTheCalendarAppsDataBehind() throws {
    var model = DataModel()
    let list = try model.addList(name: "Tasks", icon: .none)
    try model.addItem(
      CalendarItemFields(
        text: "Call", checked: false, dueDate: nil, shouldRemind: false,
        calendar: CalendarData(uid: "u-1", resource: "u-1.ics", kept: "PRIORITY:1")),
      toList: list)
    let copy = try model.duplicateList(id: list)
    #expect(model.checklist(id: copy)?.items.first?.calendar == nil)
  }

  @Test func templatesAreWrittenOnlyWhenThereAreAndReadBack() throws {
    var (model, list) = try Self.model()
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    #expect(!String(decoding: try encoder.encode(model), as: UTF8.self).contains("templates"))
    let template = try model.saveAsTemplate(listID: list)
    let data = try encoder.encode(model)
    #expect(String(decoding: data, as: UTF8.self).contains("<key>templates</key>"))
    #expect(model.formatVersion == 3)
    let decoded = try PropertyListDecoder().decode(DataModel.self, from: data)
    #expect(decoded == model)
    #expect(decoded.template(id: template) != nil)
    // A file whose template shares a list's id is refused.
    var text = String(decoding: data, as: UTF8.self)
    text = text.replacing(
      "<key>id</key>\n\t\t\t<integer>\(template)</integer>",
      with: "<key>id</key>\n\t\t\t<integer>\(list)</integer>")
    #expect(throws: (any Error).self) {
      try PropertyListDecoder().decode(DataModel.self, from: Data(text.utf8))
    }
  }

  @Test func anImportedTemplateJoinsTheTemplates() throws {
    var model = DataModel()
    let ids = try model.addImported([
      ImportedList(name: "A list", items: [ImportedItem(text: "one")]),
      ImportedList(name: "A template", items: [ImportedItem(text: "two")], isTemplate: true),
    ])
    #expect(ids.count == 1)
    #expect(model.lists.map(\.name) == ["A list"])
    #expect(model.templates.map(\.name) == ["A template"])
  }
}
