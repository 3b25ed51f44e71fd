import ChecklistsModel
import Interchange

extension FuzzTargets {
  // MARK: Markdown import

  /// Reading never crashes and throws only `ImportFailure`; what it reads is
  /// within the limits, every list has tasks and every task text; and once
  /// added to a model, the model's export reads back as the same lists.
  static func markdownImport(_ bytes: [UInt8]) {
    let lists: [ImportedList]
    do {
      lists = try MarkdownImport.lists(from: bytes, untitledListName: "Untitled")
    } catch {
      check(!error.message.isEmpty, "a failure without a message")
      return
    }
    check(!lists.isEmpty && lists.count <= Limits.maximumLists, "\(lists.count) lists")
    for list in lists {
      check(
        !list.items.isEmpty && list.items.count <= Limits.maximumItemsPerList,
        "\(list.items.count) items in \(list.name.debugDescription)")
      check(!isBlank(list.name), "a blank list name")
      for item in list.items { check(!isBlank(item.text), "a blank task") }
    }
    var model = DataModel()
    guard (try? model.addImported(lists)) != nil else { return }
    let exported = MarkdownExport.document(model)
    let expected = model.lists.map { list in
      ImportedList(
        name: list.name,
        items: list.items.map { ImportedItem(text: $0.text, checked: $0.checked, notes: $0.notes) })
    }
    do {
      let again = try MarkdownImport.lists(from: exported, untitledListName: "Untitled")
      check(
        again == expected,
        "the export of \(expected) read back as \(again); the export:\n"
          + String(decoding: exported, as: UTF8.self))
    } catch {
      fatalError("invariant broken: the export was refused: \(error.message)")
    }
  }

  /// Nothing left once cleaned.
  static func isBlank(_ text: String) -> Bool {
    do {
      _ = try TextInput.clean(text)
      return false
    } catch {
      return error == .emptyText
    }
  }
}
