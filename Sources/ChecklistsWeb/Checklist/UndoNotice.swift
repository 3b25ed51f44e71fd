import ChecklistsModel
import Foundation
import HTMLTemplates

/// The notice at the top of a page after a deletion, with its Undo button,
/// and after an Undo (the `undo-notice` partial).
///
/// The change's `303` names it in the query: `?deleted=ID` after deleting
/// an item or a list, `?removed=ID` after removing the checked items,
/// `?restored=list` or `?restored=N` (items) after an Undo. Nothing is
/// stored for it beyond the deletion itself, so a reload offers Undo only
/// while Recently deleted still holds the deletion; and a page with a query
/// is never kept by `ResponseMemo`, so the list page without one stays as
/// cheap as it was.
enum UndoNotice {
  /// What a page's query names.
  enum Subject: Equatable {
    /// A deletion; `removedChecked` when it came from Remove checked items.
    case deletion(id: Int, removedChecked: Bool)
    case restoredList
    case restoredItems(count: Int)
  }

  /// The page a notice is on: a deletion's notice shows only on its own
  /// page (items on their list, a list on All Lists).
  enum Page: Equatable {
    case checklist(id: Int)
    case allLists
  }

  /// Where deleting an item or a list leads: `page`, offering Undo.
  static func location(_ page: String, deletion id: Int) -> String { "\(page)?deleted=\(id)" }

  /// Where removing the checked items leads: `page`, offering Undo.
  static func location(_ page: String, removedChecked id: Int) -> String {
    "\(page)?removed=\(id)"
  }

  /// Where an Undo leads: the restored list, saying what came back; nil
  /// for `.nothing`.
  static func location(after restored: DataModel.Restored) -> String? {
    switch restored {
    case .list(let id): "/lists/\(id)?restored=list"
    case .items(let listID, let count): "/lists/\(listID)?restored=\(count)"
    case .nothing: nil
    }
  }

  /// The subject `query` names; nil for any other query.
  static func subject(query: String) -> Subject? {
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let number = RoutePattern.identifier(parts[1].utf8)
      switch parts[0] {
      case "deleted": if let number { return .deletion(id: number, removedChecked: false) }
      case "removed": if let number { return .deletion(id: number, removedChecked: true) }
      case "restored":
        if parts[1] == "list" { return .restoredList }
        if let number { return .restoredItems(count: number) }
      default: continue
      }
    }
    return nil
  }

  /// The partial's `undo` value for `query` on `page`: `message`, and
  /// `deletion` and `csrf` when Undo is offered. Nil when the query names
  /// nothing this page shows, or a deletion Recently deleted no longer has.
  static func value(
    query: String, on page: Page, model: DataModel, now: Date,
    catalogue: Catalogue = Catalogue(madeFromEnglish: .english), csrf: () -> String
  ) -> TemplateValue? {
    guard !query.isEmpty, let subject = subject(query: query) else { return nil }
    switch subject {
    case .deletion(let id, let removedChecked):
      guard let deletion = model.recentDeletion(id: id, at: now), shows(deletion, on: page) else {
        return nil
      }
      return [
        "message": .string(message(deletion, removedChecked: removedChecked, catalogue: catalogue)),
        "deletion": .int(deletion.id),
        "csrf": .string(csrf()),
      ]
    case .restoredList:
      guard case .checklist = page else { return nil }
      return ["message": .string(catalogue.text(translatable("List restored.")))]
    case .restoredItems(let count):
      guard case .checklist = page else { return nil }
      return [
        "message": .string(
          catalogue.text(
            translatable(one: "Restored {{count}} item.", other: "Restored {{count}} items."),
            count: count))
      ]
    }
  }

  static func shows(_ deletion: Deletion, on page: Page) -> Bool {
    switch page {
    case .checklist(let id): deletion.list == nil && deletion.listID == id
    case .allLists: deletion.list != nil
    }
  }

  /// "Deleted “Milk”.", "Removed 3 checked items.", "Deleted the list “Groceries”."
  static func message(
    _ deletion: Deletion, removedChecked: Bool,
    catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> String {
    if let list = deletion.list {
      return catalogue.text(translatable("Deleted the list “{{name}}”."), [("name", list.name)])
    }
    let count = deletion.items.count
    if removedChecked {
      return catalogue.text(
        translatable(
          one: "Removed {{count}} checked item.", other: "Removed {{count}} checked items."),
        count: count)
    }
    if count == 1 {
      return catalogue.text(
        translatable("Deleted “{{text}}”."), [("text", deletion.items[0].item.text)])
    }
    return catalogue.text(
      translatable(one: "Deleted {{count}} item.", other: "Deleted {{count}} items."), count: count)
  }
}
