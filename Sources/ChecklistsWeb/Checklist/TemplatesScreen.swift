import ChecklistsModel
import FastCGI
import HTMLTemplates

/// The changes that reuse a list, each a plain form: Duplicate List and
/// Save as Template (on Edit List), New List from a template and Delete
/// Template (on New List, which lists the templates). Only the owner's
/// browsers reach them: no share link's route leads here, so an edit
/// link's holder can neither copy a list nor make a template. A copy
/// counts against the owner's limits (lists, templates, the 2 MiB) as
/// any new list does; past one the change is refused with its reason
/// (`422`) and nothing is stored.
enum TemplatesScreen {
  /// `POST /lists/{list}/duplicate`: a copy of the list, opened. The
  /// copy's name is worded in the visitor's language and then stored as
  /// typed text: it stays so whatever language later shows it.
  static func duplicate(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    let catalogue = context.catalogue
    let id = try context.updateModel { model in
      try model.duplicateList(id: listID) { name in
        // Translators: the name a duplicated list is given; {{name}} is the
        // original list's name.
        catalogue.text(translatable("{{name}} copy"), [("name", name)])
      }
    }
    return .redirect(to: "/lists/\(id)")
  }

  /// `POST /lists/{list}/save-as-template`: the list kept as a template;
  /// New List, where the templates are.
  static func saveAsTemplate(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    _ = try context.updateModel { model in try model.saveAsTemplate(listID: listID) }
    return .redirect(to: "/lists/new#templates")
  }

  /// `POST /templates/{template}/new-list`: a list made from the
  /// template, opened.
  static func newList(_ context: ChangeContext) throws -> Response {
    let templateID = try context.id(.template)
    let id = try context.updateModel { model in try model.addList(fromTemplate: templateID) }
    return .redirect(to: "/lists/\(id)")
  }

  /// `POST /templates/{template}/delete`: the template removed; New List.
  /// A delete sent again finds none and answers the same.
  static func delete(_ context: ChangeContext) throws -> Response {
    let templateID = try context.id(.template)
    do {
      try context.updateModel { model in try model.deleteTemplate(id: templateID) }
    } catch ChecklistsError.noSuchTemplate {}
    return .redirect(to: "/lists/new#templates")
  }

  /// The templates New List offers: name, icon, item count.
  static func choices(
    _ model: DataModel, icons: IconLibrary,
    catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> [TemplateValue] {
    model.templates.map { template in
      [
        "id": .int(template.id),
        "name": .string(template.name),
        "svg": .string(icons.svg(template.icon)),
        "count": .string(
          catalogue.text(
            translatable(one: "{{count}} item", other: "{{count}} items"),
            count: template.items.count)),
      ]
    }
  }
}
