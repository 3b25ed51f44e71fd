import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates

/// All Lists (`GET /lists`, and `GET /` when it does not redirect): one row
/// per list, in the model's order (by name).
enum AllListsScreen {
  static let template = "all-lists"
  static let title = translatable("All Lists")

  /// `GET /`: the entry point, which applies the landing rule.
  static func landing(_ context: ScreenContext) throws -> Response {
    if let id = landingList(context) { return .redirect(to: "/lists/\(id)") }
    return try context.page(
      template, title: context.catalogue.text(title),
      pageContext(context.model, context.icons, catalogue: context.catalogue))
  }

  /// `GET /lists`: the lists, and no list selected from now on; after a
  /// list was deleted, the notice that offers Undo (`UndoNotice`); after
  /// an import, what it added (`ImportNotice`).
  static func show(_ context: ScreenContext) throws -> Response {
    context.model.setSelectedChecklist(id: nil, preferences: context.preferences)
    let undo = UndoNotice.value(
      query: context.request.query, on: .allLists, model: context.model, now: context.now,
      catalogue: context.catalogue, csrf: { context.csrfToken })
    return try context.page(
      template, title: context.catalogue.text(title),
      pageContext(
        context.model, context.icons, undo: undo,
        imported: ImportNotice.message(
          query: context.request.query, catalogue: context.catalogue),
        catalogue: context.catalogue))
  }

  /// The landing rule: the list to open on `/`, or nil for All Lists. A
  /// brand-new browser is shown the first-run `List` as if `ChecklistIndex`
  /// were already 0 (the first run's value; it is stored only with the
  /// first change, as a `GET` writes nothing).
  static func landingList(_ context: ScreenContext) -> Int? {
    let preferences = context.preferences
    let session = context.session
    if context.input.isFirstRun
      && session.cookies.value(named: PreferenceKey.checklistIndex, isHTTPS: session.isHTTPS) == nil
    {
      guard preferences.bool(forKey: PreferenceKey.openLastList) else { return nil }
      return context.model.checklist(atRow: 0)?.id
    }
    switch context.model.landing(preferences: preferences) {
    case .checklist(let id): return id
    case .allLists: return nil
    }
  }

  static func pageContext(
    _ model: DataModel, _ icons: IconLibrary, undo: TemplateValue? = nil, imported: String? = nil,
    catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> TemplateValue {
    let rows: [TemplateValue] = model.lists.map { list in
      [
        "id": .int(list.id),
        "name": .string(list.name),
        "subtitle": .string(subtitle(list, catalogue)),
        "icon": icons.value(for: list.icon),
      ]
    }
    var context: [String: TemplateValue] = ["hasLists": .bool(!rows.isEmpty), "lists": .list(rows)]
    if let undo { context["undo"] = undo }
    if let imported { context["imported"] = .string(imported) }
    return .object(TemplateObject(context))
  }

  /// The line under a list's name: "(No Items)", "All Done!" or "N Remaining".
  static func subtitle(_ list: Checklist, _ catalogue: Catalogue) -> String {
    if list.items.isEmpty { return catalogue.text(translatable("(No Items)")) }
    let unchecked = list.uncheckedCount
    if unchecked == 0 { return catalogue.text(translatable("All Done!")) }
    return catalogue.text(
      translatable(one: "{{count}} Remaining", other: "{{count}} Remaining"), count: unchecked)
  }
}
