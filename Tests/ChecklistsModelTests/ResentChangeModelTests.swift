import ChecklistsModel
import Testing

/// The model's side of re-sent forms: an add knows it was applied from the
/// state its form was rendered in, a toggle sets the state it asks for.
@Suite("Re-sent forms in the model")
struct ResentChangeModelTests {
  @Test("An add from the same rendering is applied once")
  func anAddFromTheSameRenderingIsAppliedOnce() throws {
    var model = DataModel()
    let list = try model.addList(name: "Shop", icon: .none)
    try model.addItem(text: "earlier", toList: list)
    let rendered = model.nextItemID
    let first = try model.addItem(text: " milk ", toList: list, formState: rendered)
    let again = try model.addItem(text: "milk", toList: list, formState: rendered)
    #expect(again == first)
    #expect(model.checklist(id: list)?.items.map(\.text) == ["earlier", "milk"])
    // Other text from the same rendering, and the same text from a later one, are added.
    try model.addItem(text: "eggs", toList: list, formState: rendered)
    try model.addItem(text: "milk", toList: list, formState: model.nextItemID)
    try model.addItem(text: "earlier", toList: list, formState: rendered)
    #expect(
      model.checklist(id: list)?.items.map(\.text) == [
        "earlier", "milk", "eggs", "milk", "earlier",
      ])
    // A rendering of another list says nothing about this one.
    let other = try model.addList(name: "Other", icon: .none)
    try model.addItem(text: "eggs", toList: other, formState: rendered)
    #expect(model.checklist(id: other)?.items.map(\.text) == ["eggs"])
  }

  @Test("Setting an item twice leaves it as asked")
  func settingAnItemTwiceLeavesItAsAsked() throws {
    var model = DataModel()
    let list = try model.addList(name: "Shop", icon: .none)
    let item = try model.addItem(text: "bread", toList: list)
    for _ in 0..<2 { try model.setItem(id: item, inList: list, checked: true) }
    #expect(model.checklist(id: list)?.item(id: item)?.checked == true)
    for _ in 0..<2 { try model.setItem(id: item, inList: list, checked: false) }
    #expect(model.checklist(id: list)?.item(id: item)?.checked == false)
    #expect(throws: (any Error).self) { try model.setItem(id: 99, inList: list, checked: true) }
  }

  @Test("A one-list page's add nonce is the list's own, and a re-sent add is still a no-op")
  func addFormStateOfAList() throws {
    var model = DataModel()
    let groceries = try model.addList(name: "Groceries", icon: .none)
    let work = try model.addList(name: "Work", icon: .none)
    #expect(model.addFormState(ofList: groceries) == 1)
    let milk = try model.addItem(text: "Milk", toList: groceries)
    let nonce = try #require(model.addFormState(ofList: groceries))
    #expect(nonce == milk + 1)
    // The owner's work elsewhere does not move it.
    for text in ["Report", "Slides"] { try model.addItem(text: text, toList: work) }
    #expect(model.addFormState(ofList: groceries) == nonce)
    #expect(nonce < model.nextItemID)
    let jam = try model.addItem(text: "Jam", toList: groceries, formState: nonce)
    #expect(try model.addItem(text: "Jam", toList: groceries, formState: nonce) == jam)
    #expect(model.checklist(id: groceries)?.items.map(\.text) == ["Milk", "Jam"])
    #expect(model.addFormState(ofList: 999) == nil)
  }
}
