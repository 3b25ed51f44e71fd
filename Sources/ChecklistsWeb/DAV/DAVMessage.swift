import ChecklistsModel
import Interchange

/// A sentence a CalDAV answer carries (a `text/plain` body, or a
/// `DAV:responsedescription`), worded in the client's language when the
/// answer is made: a calendar app may show it to its user as it is.
struct DAVMessage: Sendable {
  /// The sentence in a catalogue's language.
  let text: @Sendable (Catalogue) -> String

  /// A `translatable` phrase with the values of its `{{tags}}`.
  init(_ english: String, _ values: [(name: String, value: String)] = []) {
    text = { $0.text(english, values) }
  }

  /// A sentence that is no phrase of ours (another library's own words).
  init(verbatim: String) {
    text = { _ in verbatim }
  }

  /// A change the model refused, in its own words.
  init(refusal: ChecklistsError) {
    text = { refusal.message(in: $0) }
  }

  /// A to-do the mapping refused.
  init(todo error: CalendarTodoError) {
    text = { Self.text(of: error, in: $0) }
  }

  /// The mapping's refusal: what iCalendar names (`VTODO`, `SUMMARY`) stays
  /// as the standard spells it, and so do the names the reader's detail quotes
  /// (`BEGIN:VTODO`, a property's name), its words in the catalogue's language.
  static func text(of error: CalendarTodoError, in catalogue: Catalogue) -> String {
    switch error {
    case .syntax(let detail):
      catalogue.text(
        translatable("not valid iCalendar: {{detail}}"),
        [("detail", detail.text { catalogue.text($0) })])
    case .notACalendar(let found):
      catalogue.text(translatable("a VCALENDAR was expected, not {{found}}"), [("found", found)])
    case .unsupportedComponent(let name):
      catalogue.text(
        translatable("only to-dos (VTODO) are stored here, not {{component}}"),
        [("component", name)])
    case .noTodo: catalogue.text(translatable("the calendar holds no VTODO"))
    case .moreThanOneTodo:
      catalogue.text(translatable("one resource holds one VTODO, and this one holds more"))
    case .badUID:
      catalogue.text(
        translatable("the VTODO needs a UID of at most {{bytes}} bytes"),
        [("bytes", String(CalendarTodo.maximumUIDBytes))])
    case .noSummary: catalogue.text(translatable("the VTODO needs a SUMMARY"))
    case .text(let refusal): "SUMMARY: " + refusal.message(in: catalogue)
    case .notes(let refusal): "DESCRIPTION: " + refusal.message(in: catalogue)
    case .badDueDate:
      catalogue.text(translatable("DUE must be a date or date-time between 1970 and 9999"))
    case .tooMuchKept(let limit):
      catalogue.text(
        translatable("the to-do holds more than {{bytes}} bytes besides its title"),
        [("bytes", String(limit))])
    }
  }
}
