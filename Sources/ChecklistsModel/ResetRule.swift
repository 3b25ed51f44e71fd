import Foundation

/// When a list unchecks every item by itself (issue 30, "scheduled reset"):
/// at a wall-clock time on some days, or some hours after its last item
/// became checked.
package enum ResetRule: Sendable, Equatable {
  /// At `ResetClock`'s time on its days, in its zone.
  case clock(ResetClock)
  /// `hours` (1–720) after the moment every item became checked.
  case afterAllChecked(hours: Int)

  /// The hours an `afterAllChecked` rule may wait.
  package static let hoursRange = 1...720

  /// The rule when its values are in range; nil otherwise (what the file
  /// readers and the forms refuse).
  package static func afterAllChecked(checkedHours hours: Int) -> ResetRule? {
    hoursRange.contains(hours) ? .afterAllChecked(hours: hours) : nil
  }
}

/// A wall-clock reset: on which days, at what time, in which zone.
///
/// The zone is stored with the rule (the owner's zone preference when the
/// rule was saved) rather than read from the preferences at each request:
/// every host and every kind of reader (a page, CalDAV, the feed, a share
/// link) then works out the same boundaries from the file alone, which is
/// what makes a reset happen once.
package struct ResetClock: Sendable, Equatable {
  /// The days a reset falls on.
  package enum Days: Sendable, Equatable {
    case everyDay
    /// ISO weekdays, 1 = Monday … 7 = Sunday; sorted, unique, not empty.
    case weekdays([Int])
    /// A day of the month, 1–31. A month shorter than `day` resets on its
    /// last day (the 31st is the 30th in April, the 28th or 29th in February).
    case dayOfMonth(Int)
  }

  package let days: Days
  /// 0–23.
  package let hour: Int
  /// 0–59.
  package let minute: Int
  /// An IANA zone name; one this machine does not know reads as UTC.
  package let zone: String

  /// Nil when a value is out of range, or `weekdays` is empty.
  package init?(days: Days, hour: Int, minute: Int, zone: String) {
    guard (0...23).contains(hour), (0...59).contains(minute), !zone.isEmpty else { return nil }
    switch days {
    case .everyDay: self.days = days
    case .weekdays(let weekdays):
      let sorted = Array(Set(weekdays)).sorted()
      guard !sorted.isEmpty, sorted.allSatisfy({ (1...7).contains($0) }) else { return nil }
      self.days = .weekdays(sorted)
    case .dayOfMonth(let day):
      guard (1...31).contains(day) else { return nil }
      self.days = days
    }
    self.hour = hour
    self.minute = minute
    self.zone = zone
  }

  /// The zone the rule's times are in.
  package var timeZone: TimeZone { TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")! }
}
