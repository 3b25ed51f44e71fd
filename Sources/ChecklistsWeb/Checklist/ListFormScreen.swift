import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates
import HTTPTypes

/// The form for a new list (`GET /lists/new`) and for renaming a list or
/// changing its icon (`GET /lists/{list}/edit`), with what they post:
/// create, save, delete. The form is shown again, with what was typed and
/// the reason, when a submission is refused.
enum ListFormScreen {
  static let template = "list-form"

  static func title(editing list: Checklist?) -> String {
    list == nil ? translatable("New List") : translatable("Edit List")
  }

  /// `GET /lists/new`: an empty form; a new list gets Folder. Below it,
  /// the templates to start from (`TemplatesScreen`).
  static func newList(_ context: ScreenContext) throws -> Response {
    let values = pageContext(
      editing: nil, name: "", icon: .folder, error: nil, csrf: context.csrfToken,
      icons: context.icons,
      templates: TemplatesScreen.choices(
        context.model, icons: context.icons, catalogue: context.catalogue),
      catalogue: context.catalogue)
    return try context.page(template, title: context.catalogue.text(title(editing: nil)), values)
  }

  /// `GET /lists/{list}/edit`: the form, filled with the list's name and icon.
  /// While it shows a share link's address it is `no-store`: no browser
  /// cache and no service worker keeps a secret (`Public/sw.js` keeps the
  /// form otherwise, so that a list may be renamed offline).
  static func edit(_ context: ScreenContext) throws -> Response {
    guard let list = context.model.checklist(id: try context.id(.list)) else {
      throw WebError.listNotFound
    }
    let share = try shareContext(context, listID: list.id)
    let values = pageContext(
      editing: list, name: list.name, icon: list.icon, error: nil, csrf: context.csrfToken,
      icons: context.icons, share: share.value, reset: ResetForm(list.reset),
      catalogue: context.catalogue)
    var response = try context.page(
      template, title: context.catalogue.text(title(editing: list)), values)
    if share.showsAddress { response.headerFields[.cacheControl] = "no-store" }
    return response
  }

  /// `POST /lists`: create a list (fields `name`, `icon`) and open it.
  static func create(_ context: ChangeContext) throws -> Response {
    let icon = try context.form.icon()
    let name = context.form["name"] ?? ""
    do {
      let id = try context.updateModel { model in try model.addList(name: name, icon: icon) }
      return .redirect(to: "/lists/\(id)")
    } catch let error as ChecklistsError where error.isRefusedInput {
      return try refused(
        context, editing: nil, name: name, icon: icon, message: error.message(in: context.catalogue)
      )
    }
  }

  /// `POST /lists/{list}`: save a list's name, icon and, when the form has
  /// the Scheduled Reset fieldset (`ResetForm`), its reset rule, in the
  /// owner's zone. A rule that is none is `400` with the form as typed,
  /// and nothing is stored.
  static func save(_ context: ChangeContext) throws -> Response {
    let id = try context.id(.list)
    let icon = try context.form.icon()
    let name = context.form["name"] ?? ""
    let resetForm = ResetForm(context.form)
    var rule: ResetRule??
    do {
      if let resetForm {
        rule = .some(
          try resetForm.rule(zone: VisitorTimeZone.currentIdentifier(context.preferences)))
      }
    } catch {
      guard let list = try context.currentModel().model.checklist(id: id) else {
        throw WebError.listNotFound
      }
      return try refused(
        context, editing: list, name: name, icon: icon,
        message: context.catalogue.text(error.message), reset: resetForm,
        status: .badRequest)
    }
    do {
      try context.updateModel { model in
        try model.updateList(id: id, name: name, icon: icon)
        if let rule { try model.setResetRule(rule, ofList: id) }
      }
      return .redirect(to: "/lists/\(id)")
    } catch let error as ChecklistsError where error.isRefusedInput {
      guard let list = try context.currentModel().model.checklist(id: id) else {
        throw WebError.listNotFound
      }
      return try refused(
        context, editing: list, name: name, icon: icon,
        message: error.message(in: context.catalogue), reset: resetForm ?? ResetForm(list.reset))
    }
  }

  /// `POST /lists/{list}/delete`: delete a list; All Lists, offering
  /// Undo. A delete sent again is answered the same way while Recently
  /// deleted still has the list.
  static func delete(_ context: ChangeContext) throws -> Response {
    let id = try context.id(.list)
    let deletion = try context.updateModel { model in
      do {
        return try model.deleteList(id: id, at: context.now)
      } catch ChecklistsError.noSuchList {
        guard let earlier = model.deletion(ofList: id) else { throw ChecklistsError.noSuchList(id) }
        return earlier.id
      }
    }
    return .redirect(to: UndoNotice.location("/lists", deletion: deletion))
  }

  /// The form again, with what was typed and why it was refused (`422`
  /// for what the model refuses, `400` for a reset rule that is none).
  private static func refused(
    _ context: ChangeContext, editing list: Checklist?, name: String, icon: ChecklistIcon,
    message: String, reset: ResetForm? = nil,
    status: HTTPResponse.Status = .unprocessableContent
  ) throws -> Response {
    let templates =
      list == nil
      ? TemplatesScreen.choices(
        try context.currentModel().model, icons: context.icons, catalogue: context.catalogue)
      : []
    let values = pageContext(
      editing: list, name: name, icon: icon, error: message,
      csrf: context.csrfToken, icons: context.icons,
      share: try list.map { try shareContext(context, listID: $0.id).value },
      templates: templates, reset: list == nil ? nil : reset ?? ResetForm(list?.reset),
      catalogue: context.catalogue)
    return try context.refusedForm(
      template, title: context.catalogue.text(title(editing: list)), values, status: status)
  }

  /// - Parameters:
  ///   - share: the Share section's values (`shareContext`), for a list
  ///     that exists.
  ///   - templates: New List's templates (`TemplatesScreen.choices`).
  static func pageContext(
    editing list: Checklist?, name: String, icon: ChecklistIcon, error: String?, csrf: String,
    icons: IconLibrary, share: TemplateValue? = nil, templates: [TemplateValue] = [],
    reset: ResetForm? = nil, catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> TemplateValue {
    let choices: [TemplateValue] = ChecklistIcon.allCases.map { choice in
      [
        "name": .string(choice.rawValue),
        "label": .string(catalogue.text(choice.label)),
        "svg": .string(icons.svg(choice)),
        "checked": .bool(choice == icon),
      ]
    }
    var context: [String: TemplateValue] = [
      "name": .string(name),
      "icons": .list(choices),
      "csrf": .string(csrf),
      "limits": ["listName": .int(Limits.maximumTextLength)],
    ]
    if let list {
      context["list"] = ["id": .int(list.id), "name": .string(list.name)]
    }
    if let error { context["error"] = .string(error) }
    if let share { context["share"] = share }
    if let reset { context["reset"] = reset.values(catalogue: catalogue) }
    if !templates.isEmpty {
      context["hasTemplates"] = true
      context["templates"] = .list(templates)
    }
    return .object(TemplateObject(context))
  }
}
