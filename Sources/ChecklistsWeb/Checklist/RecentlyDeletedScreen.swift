import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates

/// Recently deleted (`GET /deleted`): the lists and items the visitor
/// deleted in the last 30 days, newest first, each with Restore; and the
/// restore itself (`POST /deleted/{deletion}/restore`), which is also the
/// Undo of a deletion's notice (`UndoNotice`).
enum RecentlyDeletedScreen {
  static let template = "recently-deleted"
  static let title = translatable("Recently Deleted")
  /// The query of the page an Undo of something no longer there leads to.
  static let nothingToRestoreQuery = "nothing-to-restore"
  /// How many item texts an entry of several items names before "and N more".
  static let namedItems = 3

  /// `GET /deleted`: the entries, and the notice of an Undo that found
  /// nothing to restore.
  static func show(_ context: ScreenContext) throws -> Response {
    let now = context.now
    let notice =
      context.request.query == nothingToRestoreQuery
      ? context.catalogue.text(
        translatable(
          "Nothing to restore: that was restored already, or is no longer kept. Nothing was changed."
        ))
      : nil
    let values = pageContext(
      model: context.model, now: now, notice: notice, csrf: context.csrfToken,
      catalogue: context.catalogue)
    return try context.page(template, title: context.catalogue.text(title), values)
  }

  /// `POST /deleted/{deletion}/restore`: give back exactly what the
  /// deletion took (ids, order, checkmarks, due dates) and open its list.
  ///
  /// An id never handed out is `404`. One handed out and no longer there
  /// (restored already, or purged) changes nothing and says so, so an Undo
  /// sent twice is harmless. Items whose list has been deleted since are
  /// `409`, pointing to Recently deleted, where the list can be restored
  /// first.
  static func restore(_ context: ChangeContext) throws -> Response {
    let id = try context.id(.deletion)
    let restored: DataModel.Restored
    do {
      restored = try context.updateModel { model in
        guard id < model.nextDeletionID else { throw WebError.deletionNotFound }
        return try model.restore(deletion: id)
      }
    } catch let error as ChecklistsError {
      if case .deletedItemsListGone = error { throw WebError.restoreConflict(error) }
      guard error.isRefusedInput else { throw error }
      throw WebError.unprocessable(error, backHref: "/deleted", backLabel: title)
    }
    return .redirect(
      to: UndoNotice.location(after: restored) ?? "/deleted?\(nothingToRestoreQuery)")
  }

  static func pageContext(
    model: DataModel, now: Date, notice: String?, csrf: String,
    catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> TemplateValue {
    let entries: [TemplateValue] = model.recentDeletions(at: now).map { deletion in
      entry(
        deletion, currentList: model.checklist(id: deletion.listID), now: now,
        catalogue: catalogue)
    }
    var context: [String: TemplateValue] = [
      "hasEntries": .bool(!entries.isEmpty),
      "entries": .list(entries),
      "keptDays": .int(Int(DataModel.deletionsKeptFor / 86_400)),
      "csrf": .string(csrf),
    ]
    if let notice { context["notice"] = .string(notice) }
    return .object(TemplateObject(context))
  }

  /// One entry: what went, from where, when.
  ///
  /// - Parameter currentList: the list the items came from as it is now
  ///   (renamed, perhaps), or nil when it has been deleted since.
  static func entry(
    _ deletion: Deletion, currentList: Checklist?, now: Date,
    catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> TemplateValue {
    var values: [String: TemplateValue] = [
      "id": .int(deletion.id),
      "when": .string(relativeTime(deletion.deletedAt, now: now, catalogue: catalogue)),
      "datetime": .string(deletion.deletedAt.formatted(.iso8601)),
    ]
    if let list = deletion.list {
      values["title"] = .string(list.name)
      values["detail"] = .string(
        list.items.isEmpty
          ? catalogue.text(translatable("List with no items"))
          : catalogue.text(
            translatable(one: "List with {{count}} item", other: "List with {{count}} items"),
            count: list.items.count))
    } else {
      let texts = deletion.items.map(\.item.text)
      let named = texts.prefix(namedItems).joined(separator: ", ")
      values["title"] = .string(
        texts.count > namedItems
          ? catalogue.text(
            translatable(
              one: "{{names}} and {{count}} more", other: "{{names}} and {{count}} more"),
            count: texts.count - namedItems, [("names", named)])
          : named)
      let from = currentList?.name ?? deletion.listName
      values["detail"] = .string(
        texts.count == 1
          ? catalogue.text(translatable("Item from “{{name}}”"), [("name", from)])
          : catalogue.text(
            translatable(
              one: "{{count}} item from “{{name}}”", other: "{{count}} items from “{{name}}”"),
            count: texts.count, [("name", from)]))
      if currentList == nil { values["listGone"] = .string(deletion.listName) }
    }
    return .object(TemplateObject(values))
  }

  /// "just now", "5 minutes ago", "3 hours ago", "2 days ago": elapsed
  /// time, which needs no time zone.
  static func relativeTime(
    _ date: Date, now: Date, catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> String {
    let seconds = max(0, Int(now.timeIntervalSince(date)))
    switch seconds {
    case ..<60: return catalogue.text(translatable("just now"))
    case ..<3_600:
      return catalogue.text(
        translatable(one: "{{count}} minute ago", other: "{{count}} minutes ago"),
        count: seconds / 60)
    case ..<86_400:
      return catalogue.text(
        translatable(one: "{{count}} hour ago", other: "{{count}} hours ago"),
        count: seconds / 3_600)
    default:
      return catalogue.text(
        translatable(one: "{{count}} day ago", other: "{{count}} days ago"),
        count: seconds / 86_400)
    }
  }
}

extension WebError {
  /// A restore of a deletion id never handed out.
  static let deletionNotFound = WebError(
    status: .notFound, title: translatable("Not in Recently Deleted"),
    message: translatable(
      "Nothing was deleted under this address. Recently Deleted shows what can be restored."),
    backHref: "/deleted", backLabel: RecentlyDeletedScreen.title)

  /// A restore that must wait for another (the items' list first).
  static func restoreConflict(_ error: ChecklistsError) -> WebError {
    var page = WebError.unprocessable(
      error, backHref: "/deleted", backLabel: RecentlyDeletedScreen.title)
    page.status = .conflict
    page.title = translatable("Not restored yet")
    return page
  }
}
