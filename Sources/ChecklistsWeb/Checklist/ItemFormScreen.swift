import ChecklistsModel
import FastCGI
import Foundation
import HTMLTemplates
import HTTPTypes

/// The form to edit an item (`GET /lists/{list}/items/{item}/edit`) and its
/// save; shown again, with what was typed and the reason, when a
/// submission is refused.
enum ItemFormScreen {
  static let template = "item-form"
  static let title = translatable("Edit Item")

  /// What the form's fields hold: the item as saved, or what was sent.
  struct Fields {
    var text: String
    /// The due date field's value: `YYYY-MM-DDTHH:MM` in the visitor's
    /// zone, or exactly what was typed when it comes back refused.
    var dueDate: String
    var shouldRemind: Bool
    /// The note's field, or nil when the form had none (a page from
    /// before notes: saving it keeps the note).
    var notes: String?
    /// The Repeat fields, or nil when the form had none (an edit link's
    /// form: saving it keeps how the item repeats).
    var repeats: RepeatFields?
  }

  /// The due date a form's fields name, read in the zone the form was
  /// shown in (`dueDateZone`; the current zone when the form names none):
  /// `400` with the form as typed when the zone or the date is none.
  struct DueDateReading {
    enum Outcome {
      case date(Date?)
      case refused(Refusal)
    }
    /// The zone the date was read in, or that the form comes back in.
    let zoneName: String
    let outcome: Outcome

    init(_ fields: Fields, zoneName named: String?, current: String, catalogue: Catalogue) {
      let zoneName = named ?? current
      guard let zone = VisitorTimeZone.zone(named: zoneName) else {
        self.zoneName = current
        outcome = .refused(
          Refusal(
            field: .dueDate,
            message: catalogue.text(
              translatable(
                "The form named a time zone this site does not know. The due date is read in {{zone}}: check it, then save again."
              ), [("zone", current)])))
        return
      }
      self.zoneName = zoneName
      do {
        outcome = .date(try DueDateField.parse(fields.dueDate, in: zone))
      } catch {
        var malformed = false
        if case .malformed = error { malformed = true }
        outcome = .refused(
          Refusal(
            field: .dueDate, message: error.message(in: catalogue), isMalformedDate: malformed))
      }
    }
  }

  /// Why a submission came back, and which field it is about.
  struct Refusal {
    enum Field: String { case text, dueDate, notes, `repeat` }

    /// The field a refusal of the model's is about.
    static func field(of error: ChecklistsError) -> Field {
      switch error {
      case .dueDateOutOfRange: .dueDate
      case .noteTooLong, .noteTooLarge: .notes
      default: .text
      }
    }
    var field: Field
    var message: String
    /// The due date is not a date at all (not merely out of range).
    var isMalformedDate = false
  }

  /// `GET /lists/{list}/items/{item}/edit`: the form, filled with the item.
  static func show(_ context: ScreenContext) throws -> Response {
    let (list, item) = try Self.item(context, in: context.model)
    let zoneName = VisitorTimeZone.currentIdentifier(context.preferences)
    let zone = VisitorTimeZone.zone(named: zoneName)!
    let fields = Fields(
      text: item.text, dueDate: item.dueDate.map { WallClockTime($0, in: zone).formValue } ?? "",
      shouldRemind: item.shouldRemind, notes: item.notes, repeats: RepeatFields(item))
    let values = pageContext(
      list: list, item: item, fields: fields, zone: zoneName, refusal: nil,
      csrf: context.csrfToken)
    return try context.page(template, title: context.catalogue.text(title), values)
  }

  /// `POST /lists/{list}/items/{item}`: save an item's text (field `text`),
  /// due date (`dueDate`, empty for none, a wall-clock time in the zone the
  /// form was shown in, `dueDateZone`), Remind me (`shouldRemind` sent
  /// when checked) and note (`notes`, empty for none; left as it is when
  /// the form sends no such field). A due date that is not one, or falls outside 1970-9999,
  /// is `400`; a text refused by the model `422`; either way the form comes
  /// back with everything as it was typed, and nothing is stored.
  ///
  /// The date is read in the zone the form showed it in, not the one the
  /// browser reports with it: a visitor whose zone changed (a journey)
  /// saving the form unchanged keeps the same due date. The reported zone
  /// is then stored, as with every change the script sends.
  static func save(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    let itemID = try context.id(.item)
    let form = context.form
    let current = try? context.currentModel().model.checklist(id: listID)?.item(id: itemID)
    let fields = Fields(form, current: current)
    let reading = DueDateReading(
      fields, zoneName: form["dueDateZone"],
      current: VisitorTimeZone.currentIdentifier(context.preferences),
      catalogue: context.catalogue)
    let zoneName = reading.zoneName
    let dueDate: Date?
    switch reading.outcome {
    case .date(let date): dueDate = date
    case .refused(let refusal):
      return try refused(context, fields: fields, zone: zoneName, refusal, status: .badRequest)
    }
    var recurrence: Recurrence??
    if let repeats = fields.repeats {
      switch repeats.edit(current: current?.recurrence, dueDate: dueDate) {
      case .success(.unchanged): break
      case .success(.set(let value)): recurrence = .some(value)
      case .failure(let refusal):
        return try refused(
          context, fields: fields, zone: zoneName,
          Refusal(field: .repeat, message: context.catalogue.text(refusal.phrase)),
          status: .badRequest)
      }
    }
    do {
      try context.updateModel { model in
        try model.editItem(
          id: itemID, inList: listID, text: fields.text, dueDate: dueDate,
          shouldRemind: fields.shouldRemind, notes: fields.notes, recurrence: recurrence)
      }
    } catch let error as ChecklistsError where error.isRefusedInput {
      let field = Refusal.field(of: error)
      return try refused(
        context, fields: fields, zone: zoneName,
        Refusal(field: field, message: error.message(in: context.catalogue)),
        status: field == .dueDate ? .badRequest : .unprocessableContent)
    }
    VisitorTimeZone.adoptBrowserZone(from: form, into: context.preferences)
    return .redirect(to: "/lists/\(listID)")
  }

  /// The form again, as it was sent, with the reason it was refused.
  private static func refused(
    _ context: ChangeContext, fields: Fields, zone: String, _ refusal: Refusal,
    status: HTTPResponse.Status
  ) throws -> Response {
    let (list, item) = try Self.item(context, in: try context.currentModel().model)
    let values = pageContext(
      list: list, item: item, fields: fields, zone: zone, refusal: refusal,
      csrf: context.csrfToken)
    return try context.refusedForm(
      template, title: context.catalogue.text(title), values, status: status)
  }

  /// The list and item the path names: `404` when either does not exist.
  private static func item<Input>(_ context: RequestContext<Input>, in model: DataModel) throws
    -> (Checklist, ChecklistItem)
  {
    guard let list = model.checklist(id: try context.id(.list)) else {
      throw WebError.listNotFound
    }
    guard let item = list.item(id: try context.id(.item)) else { throw WebError.itemNotFound }
    return (list, item)
  }

  static func pageContext(
    list: Checklist, item: ChecklistItem, fields: Fields, zone: String, refusal: Refusal?,
    csrf: String
  ) -> TemplateValue {
    var context = formValues(item: item, fields: fields, zone: zone, refusal: refusal, csrf: csrf)
    context["list"] = ["id": .int(list.id), "name": .string(list.name)]
    return .object(TemplateObject(context))
  }

  /// The values an item's form shows, the owner's (`item-form`) and a share
  /// link's (`shared-item-form`) alike: the fields as given, the zone the
  /// due date is in, and what a refusal says and where.
  static func formValues(
    item: ChecklistItem, fields: Fields, zone: String, refusal: Refusal?, csrf: String
  ) -> [String: TemplateValue] {
    var values: [String: TemplateValue] = [
      "item": ["id": .int(item.id)],
      "text": .string(fields.text),
      "dueDate": .string(fields.dueDate),
      "shouldRemind": .bool(fields.shouldRemind),
      "notes": .string(fields.notes ?? item.notes),
      "timeZone": .string(zone),
      "csrf": .string(csrf),
      "limits": [
        "itemText": .int(Limits.maximumTextLength), "notes": .int(Limits.maximumNoteLength),
      ],
    ]
    if let repeats = fields.repeats {
      values.merge(repeats.templateValues) { _, new in new }
      values["offerRepeat"] = true
    }
    if let refusal {
      values["error"] = .string(refusal.message)
      values["errorIn"] = [refusal.field.rawValue: true]
      // A date field drops a value that is not a date: show it as typed.
      values["dueDateAsText"] = .bool(refusal.isMalformedDate)
    }
    return values
  }
}

extension ItemFormScreen.Fields {
  /// The item form's fields, as posted (`text`, `dueDate`, `shouldRemind`,
  /// `notes`, and the Repeat fields: `RepeatFields`).
  init(_ form: FormData, current: ChecklistItem? = nil) {
    self.init(
      text: form["text"] ?? "", dueDate: form["dueDate"] ?? "",
      shouldRemind: form.contains("shouldRemind"), notes: form["notes"],
      repeats: RepeatFields(form, current: current))
  }
}
