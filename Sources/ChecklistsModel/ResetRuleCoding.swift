import Foundation

/// A `ResetRule` as the files hold it (a list's `reset` dictionary in
/// `Checklists.plist`, the JSON export's `reset` object): `kind` (`daily`,
/// `weekly`, `monthly`, `afterAllChecked`), then `hour`, `minute` and
/// `zone` for the first three, `weekdays` (ISO, 1 = Monday) for `weekly`,
/// `day` for `monthly`, `hours` for `afterAllChecked`.
package struct ResetRuleCoding: Codable, Sendable, Equatable {
  package var kind: String
  package var hour: Int?
  package var minute: Int?
  package var zone: String?
  package var weekdays: [Int]?
  package var day: Int?
  package var hours: Int?

  package init(_ rule: ResetRule) {
    switch rule {
    case .afterAllChecked(let hours):
      kind = Self.afterAllChecked
      self.hours = hours
    case .clock(let clock):
      hour = clock.hour
      minute = clock.minute
      zone = clock.zone
      switch clock.days {
      case .everyDay: kind = Self.daily
      case .weekdays(let days):
        kind = Self.weekly
        weekdays = days
      case .dayOfMonth(let day):
        kind = Self.monthly
        self.day = day
      }
    }
  }

  package init(
    kind: String, hour: Int? = nil, minute: Int? = nil, zone: String? = nil,
    weekdays: [Int]? = nil, day: Int? = nil, hours: Int? = nil
  ) {
    self.kind = kind
    self.hour = hour
    self.minute = minute
    self.zone = zone
    self.weekdays = weekdays
    self.day = day
    self.hours = hours
  }

  package static let daily = "daily"
  package static let weekly = "weekly"
  package static let monthly = "monthly"
  package static let afterAllChecked = "afterAllChecked"

  /// A stored rule that is not one.
  package struct Invalid: Error, CustomStringConvertible {
    package var description: String { "a list's reset rule is not one this version reads" }
  }

  /// The rule; throws `Invalid` for a kind this code does not know, a value
  /// missing or out of range, or one that belongs to another kind.
  package func rule() throws(Invalid) -> ResetRule {
    if kind == Self.afterAllChecked {
      guard hour == nil, minute == nil, zone == nil, weekdays == nil, day == nil, let hours,
        let rule = ResetRule.afterAllChecked(checkedHours: hours)
      else { throw Invalid() }
      return rule
    }
    guard hours == nil, let hour, let minute, let zone else { throw Invalid() }
    let days: ResetClock.Days
    switch kind {
    case Self.daily where weekdays == nil && day == nil: days = .everyDay
    case Self.weekly where day == nil: days = .weekdays(weekdays ?? [])
    case Self.monthly where weekdays == nil: days = .dayOfMonth(day ?? 0)
    default: throw Invalid()
    }
    guard let clock = ResetClock(days: days, hour: hour, minute: minute, zone: zone),
      clock.days == days
    else { throw Invalid() }
    return .clock(clock)
  }
}
