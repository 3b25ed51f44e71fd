import Foundation

/// A list's reset rule with what it has done: the boundary last applied,
/// and for `afterAllChecked` the moment every item became checked. `due`,
/// the next boundary, is worked out whenever these change (not at each
/// request: a page asks it once per load).
package struct ScheduledReset: Sendable, Equatable {
  package let rule: ResetRule
  /// The boundary last applied, or the moment the rule was set; nil until
  /// the store's write path starts the rule (a template's rule, a rule just
  /// chosen or imported: `DataModel.settleResets(at:)`).
  package private(set) var lastReset: Date?
  /// When the list's last unchecked item became checked (`afterAllChecked`
  /// only; nil while some item is unchecked, or the list is empty).
  package private(set) var allCheckedAt: Date?
  /// The next boundary: when the list is next reset. Nil while the rule has
  /// not started, or waits for every item to be checked.
  package private(set) var due: Date?

  package init(rule: ResetRule, lastReset: Date? = nil, allCheckedAt: Date? = nil) {
    self.rule = rule
    self.lastReset = lastReset
    if case .afterAllChecked = rule { self.allCheckedAt = allCheckedAt }
    due = nil
    due = nextDue()
  }

  /// `due` is worked out from the rest.
  package static func == (lhs: ScheduledReset, rhs: ScheduledReset) -> Bool {
    lhs.rule == rhs.rule && lhs.lastReset == rhs.lastReset && lhs.allCheckedAt == rhs.allCheckedAt
  }

  /// The latest boundary passed at `now` that is not applied yet, if any:
  /// several passed while nobody looked are one reset, recorded as the latest.
  package func passedBoundary(at now: Date) -> Date? {
    guard let due, due <= now else { return nil }
    switch rule {
    case .clock(let clock): return ResetSchedule(clock).latest(atOrBefore: now)
    case .afterAllChecked: return due
    }
  }

  /// Records that the list was reset at `boundary`.
  package mutating func applied(_ boundary: Date) {
    lastReset = boundary
    allCheckedAt = nil
    due = nextDue()
  }

  /// Starts the rule at `now` if it has not started; for `afterAllChecked`,
  /// notes when every item became checked (or forgets it). True when
  /// anything changed.
  package mutating func settle(allChecked: Bool, at now: Date) -> Bool {
    // Whole seconds, as the file keeps dates: the model cached after a
    // write is then the model read back.
    let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
    var changed = false
    if lastReset == nil {
      lastReset = now
      changed = true
    }
    if case .afterAllChecked = rule {
      if allChecked, allCheckedAt == nil {
        allCheckedAt = now
        changed = true
      } else if !allChecked, allCheckedAt != nil {
        allCheckedAt = nil
        changed = true
      }
    }
    if changed { due = nextDue() }
    return changed
  }

  private func nextDue() -> Date? {
    guard let lastReset else { return nil }
    switch rule {
    case .clock(let clock): return ResetSchedule(clock).next(after: lastReset)
    case .afterAllChecked(let hours):
      return allCheckedAt.map { $0.addingTimeInterval(TimeInterval(hours) * 3_600) }
    }
  }
}
