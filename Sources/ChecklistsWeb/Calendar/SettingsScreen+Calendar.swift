import FastCGI
import FileSystem
import HTMLTemplates
import HTTPTypes
import Storage

/// The Settings screen's calendar section: the visitor's private calendar
/// address (`/calendar/<secret>.ics`, see `CalendarFeedRoute`), made,
/// replaced and removed by its forms.
extension SettingsScreen {
  /// Settings' values with the calendar section's under `calendar`. A
  /// `Referer` holds a page's address, never its contents, and Settings'
  /// address holds no secret: the site's `same-origin` policy serves it
  /// (with `no-referrer`, browsers post its forms with `Origin: null`,
  /// which the origin check refuses).
  static func withCalendar<Input>(_ context: RequestContext<Input>, _ values: TemplateValue)
    throws -> TemplateValue
  {
    // Added to the values' own object: rebuilding it from its pairs hashed every name twice.
    var object = TemplateObject(capacity: 1)
    if case .object(let values) = values { object = values }
    let secret = try calendarFiles {
      try context.services.calendars.secret(of: context.session.directory)
    }
    let origin = PublicOrigin.of(
      context.request, configured: context.services.configuration.publicOrigin)
    object["calendar"] = calendarContext(secret: secret, origin: origin)
    return .object(object)
  }

  /// The path of the calendar at `secret`.
  static func calendarPath(_ secret: CalendarSecret) -> String {
    "/calendar/\(secret.text).ics"
  }

  /// `calendar.address` (absolute when the origin is known) and
  /// `calendar.webcal` (the same address for calendar apps); an empty
  /// object when the visitor has no address.
  static func calendarContext(secret: CalendarSecret?, origin: PublicOrigin?) -> TemplateValue {
    guard let secret else { return .object(TemplateObject([:])) }
    let path = calendarPath(secret)
    guard let origin else { return .object(TemplateObject(["address": .string(path)])) }
    let authority = origin.description.dropFirst(origin.scheme.count + 3)
    return .object(
      TemplateObject([
        "address": .string("\(origin)\(path)"),
        "webcal": .string("webcal://\(authority)\(path)"),
      ]))
  }

  /// `POST /settings/calendar`: make the visitor's address (a repeat keeps it).
  static func createCalendar(_ context: ChangeContext) throws -> Response {
    _ = try calendarFiles {
      try context.services.calendars.create(for: context.session.directory)
    }
    return .redirect(to: "/settings?calendar-created#calendar")
  }

  /// `POST /settings/calendar/replace`: a new address; the old one is
  /// `404` from now on.
  static func replaceCalendar(_ context: ChangeContext) throws -> Response {
    _ = try calendarFiles {
      try context.services.calendars.replace(for: context.session.directory)
    }
    return .redirect(to: "/settings?calendar-replaced#calendar")
  }

  /// `POST /settings/calendar/delete`: no address any more.
  static func removeCalendar(_ context: ChangeContext) throws -> Response {
    try calendarFiles { try context.services.calendars.remove(for: context.session.directory) }
    return .redirect(to: "/settings?calendar-removed#calendar")
  }

  /// The sentence after a calendar change, by the redirect's query.
  static func calendarNotice(query: String) -> String? {
    switch query {
    case "calendar-created":
      translatable("Your calendar address is ready. Subscribe to it in your calendar app.")
    case "calendar-replaced":
      translatable(
        "Your calendar has a new address; the old one no longer works. Subscribe to the new one.")
    case "calendar-removed": translatable("Your calendar address is removed; it no longer works.")
    default: nil
    }
  }

  /// Runs a change of the calendar's files, its failures told as the
  /// store's (a busy lock is `503`, a failed system call `500`).
  private static func calendarFiles<T>(_ body: () throws -> T) throws -> T {
    try StoreError.reporting(body)
  }
}
