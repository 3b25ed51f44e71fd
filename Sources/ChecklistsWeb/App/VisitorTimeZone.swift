import ChecklistsModel
import Foundation
import Preferences

/// The time zone a visitor's due dates are entered and shown in: the
/// `TimeZone` preference (UTC until known), set from the browser's zone
/// when the enhancement script runs, or chosen on Settings.
enum VisitorTimeZone {
  /// The field the enhancement script adds to the forms it sends: the
  /// browser's zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`).
  static let browserField = "browserTimeZone"
  /// The Settings form's select.
  static let settingsField = PreferenceKey.timeZone
  /// The preference's registered default.
  static let defaultIdentifier = "UTC"

  /// Every zone identifier this server knows (the IANA names of its ICU
  /// data), sorted, with UTC: what Settings offers and a form may send.
  static let identifiers: [String] = {
    var known = Set(TimeZone.knownTimeZoneIdentifiers)
    known.insert(defaultIdentifier)
    return known.sorted()
  }()

  private static let known = Set(identifiers)

  /// The zone named `identifier` if this server knows it; nil otherwise
  /// (also for the spellings `TimeZone(identifier:)` accepts beyond the
  /// names, such as offsets, which a browser never reports).
  static func zone(named identifier: String) -> TimeZone? {
    guard known.contains(identifier) else { return nil }
    return TimeZone(identifier: identifier)
  }

  /// The visitor's zone: the preference, or UTC when it holds a name this
  /// server no longer knows.
  static func current(_ preferences: VisitorDefaults) -> TimeZone {
    zone(named: currentIdentifier(preferences))!
  }

  /// The name of the visitor's zone, as `current(_:)` reads it (a zone's
  /// own `identifier` may be another name for it: UTC's reads "GMT").
  static func currentIdentifier(_ preferences: VisitorDefaults) -> String {
    guard let stored = identifier(preferences), known.contains(stored) else {
      return defaultIdentifier
    }
    return stored
  }

  /// The preference's value as stored (or the default).
  static func identifier(_ preferences: VisitorDefaults) -> String? {
    preferences.string(forKey: PreferenceKey.timeZone)
  }

  /// Stores the zone a form's `browserTimeZone` field reports when it is a
  /// zone this server knows and not the one already stored; nothing is
  /// written otherwise. A name this server does not know (a browser with
  /// newer zone data than the server's) is passed over, not refused: the
  /// field is added by the script to every change it sends, and refusing
  /// it would make every change of that browser fail. A visitor can still
  /// pick a zone on Settings, which refuses an unknown one.
  static func adoptBrowserZone(from form: FormData, into preferences: VisitorDefaults) {
    guard let reported = form[browserField], zone(named: reported) != nil,
      reported != identifier(preferences)
    else { return }
    preferences.set(reported, forKey: PreferenceKey.timeZone)
  }

  /// The zone the Settings form chose: nil when the form has no such field,
  /// `400` when it names no zone this server knows.
  static func chosen(in form: FormData) throws(WebError) -> String? {
    guard let chosen = form[settingsField] else { return nil }
    guard zone(named: chosen) != nil else {
      throw WebError.badRequest(
        translatable(
          "The time zone “{{zone}}” is not one this site knows. Choose one from the list on Settings."
        ), [("zone", String(chosen.prefix(60)))])
    }
    return chosen
  }
}
