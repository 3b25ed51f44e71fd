import Foundation
import Support

/// The name an unreadable document takes when it is set aside, in
/// whatever engine keeps it: one rule, so `checklists check` and a person
/// recovering files find the same names on disk and in a database.
package enum AsideName {
  /// `<name>.corrupt-<UTC time>` (`20250301T170000Z`), with `-2`, `-3` …
  /// while `isTaken` says that name is taken, so an earlier one is never
  /// overwritten.
  package static func `for`(
    _ name: String, now: Date = Date(), isTaken: (String) -> Bool
  ) -> String {
    let base = "\(name).corrupt-\(timestamp(now))"
    var target = base
    var counter = 1
    while isTaken(target) {
      counter += 1
      target = "\(base)-\(counter)"
    }
    return target
  }

  /// `now` in UTC as `YYYYMMDDTHHMMSSZ`, whole seconds.
  static func timestamp(_ now: Date) -> String {
    let time = UTCTime(secondsSince1970: Int64(now.timeIntervalSince1970.rounded(.down)))
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let year = String(repeating: "0", count: max(0, 4 - "\(time.year)".count)) + "\(time.year)"
    return
      "\(year)\(two(time.month))\(two(time.day))T\(two(time.hour))\(two(time.minute))\(two(time.second))Z"
  }
}
