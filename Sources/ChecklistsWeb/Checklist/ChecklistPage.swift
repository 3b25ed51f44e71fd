import ChecklistsModel
import Foundation

/// What a Checklist screen shows of a list at one moment: the rows in the
/// order shown, their due dates in words, how rows may be moved, and until
/// when all that stays true.
struct ChecklistPage {
  struct Row {
    var item: ChecklistItem
    /// Nil when the item has no due date.
    var due: Due?
    /// A repeating item's words ("Repeats weekly", its last done day), nil
    /// for any other item: a plain row costs nothing more.
    var repeats: Repeats?

    init(item: ChecklistItem, due: Due? = nil, repeats: Repeats? = nil) {
      self.item = item
      self.due = due
      self.repeats = repeats
    }
  }

  struct Repeats {
    /// "Repeats weekly", "Repeats (custom)".
    var label: String
    /// The day it was last done, in the visitor's zone, or nil.
    var lastDone: String?
    /// The due date a check of the row names (seconds since 1970), when
    /// checking moves it on: a check sent twice then moves it once.
    var dueSeconds: Int?
  }

  struct Due {
    /// The `<time>` element's `datetime` (UTC).
    var machineReadable: String
    /// The words shown, in the visitor's zone ("Tomorrow 09:00").
    var label: String
    /// Unchecked and past due: marked with the word "Overdue" and an icon.
    var isOverdue: Bool
  }

  /// How the enhancement script may move rows on this page (the list's
  /// `data-move`); nil when the list is shown by due date, where the
  /// visitor's own order is not what they see.
  enum Moves: String {
    /// Next to any other row shown.
    case own
    /// Next to a row of the same state: checked items are shown last, so
    /// an unchecked item moved among them would stay where it is shown.
    case grouped
  }

  let list: Checklist
  /// The items shown, in the order shown: for a list in its own order with
  /// nothing hidden, the list's own array, shared and not copied.
  let items: [ChecklistItem]
  /// The rows worded (due dates and repeats in words), one an item of
  /// `items`; empty for a page made with `labelled: false`.
  let rows: [Row]
  /// Checked items left out by `HideCheckedItems`.
  let hiddenCount: Int
  let moves: Moves?
  /// When the page stops being right although nothing stored changed: the
  /// next due date an unchecked row passes ("Overdue"), or the visitor's
  /// next midnight ("Today"); nil when no row shows a due date.
  let changesAt: Date?

  /// - Parameters:
  ///   - zone: the visitor's zone, asked for only when a row shows a due
  ///     date (a list without any costs no time-zone look-up).
  ///   - labelled: false makes no `rows` and leaves `changesAt` nil, for a
  ///     screen that words its rows itself, item by item (`RowFragments`:
  ///     most rows come ready-made). Its items are then never copied: a
  ///     row a copy of its item cost a retain and a release of each of the
  ///     item's strings and arrays, three times a row (~12% of a computed
  ///     20-item page whose items repeat, callgrind).
  init(
    list: Checklist, now: Date, checkedLast: Bool, hideChecked: Bool,
    words: DateWords = .english, zone: @escaping () -> TimeZone, labelled: Bool = true
  ) {
    self.list = list
    var items = list.displayedItems(checkedLast: checkedLast)
    var hidden = 0
    if hideChecked {
      hidden = items.count
      items.removeAll(where: \.checked)
      hidden -= items.count
    }
    self.items = items
    var rows: [Row] = []
    var changesAt: Date?
    if labelled {
      var labeller = RowLabeller(now: now, words: words, zone: zone)
      // Grown by doubling, a 5,000-item page copied its rows ~13 times.
      rows.reserveCapacity(items.count)
      for item in items {
        let (row, rowChangesAt) = labeller.row(item)
        if let rowChangesAt { changesAt = min(changesAt ?? rowChangesAt, rowChangesAt) }
        rows.append(row)
      }
    }
    self.rows = rows
    hiddenCount = hidden
    self.changesAt = changesAt
    if list.sort == .dueDate || items.count < 2 {
      moves = nil
    } else {
      moves = checkedLast && !hideChecked ? .grouped : .own
    }
  }
}

/// Words one page's rows: their due dates and repeats in the visitor's
/// zone and language, and until when each row's words stay right.
struct RowLabeller {
  let now: Date
  let words: DateWords
  let zone: () -> TimeZone
  /// Made on the first row that shows a date, then used in place: a copy a
  /// row (`let words = label ?? …`) retained and released each of its
  /// words' arrays, ~1,300 instructions a dated row.
  private var label: DueDateLabel?
  /// The label's `nextChange`, worked out once a page, not once a row.
  private var nextMidnight: Date?

  init(now: Date, words: DateWords, zone: @escaping () -> TimeZone) {
    self.now = now
    self.words = words
    self.zone = zone
  }

  /// The row of `item`, and when its words stop being right by themselves
  /// (its due date passing turns it overdue; the visitor's midnight turns
  /// "Tomorrow" into "Today"); nil when it shows no date.
  mutating func row(_ item: ChecklistItem) -> (ChecklistPage.Row, changesAt: Date?) {
    var due: ChecklistPage.Due?
    var changesAt: Date?
    if let date = item.dueDate {
      if label == nil { label = DueDateLabel(zone: zone(), now: now, words: words) }
      let isOverdue = item.isOverdue(at: now)
      due = ChecklistPage.Due(
        machineReadable: DueDateLabel.machineReadable(date), label: label!.text(date),
        isOverdue: isOverdue)
      var next = midnight()
      if !item.checked && !isOverdue { next = min(next, date) }
      changesAt = next
    }
    var repeats: ChecklistPage.Repeats?
    if let recurrence = item.recurrence {
      var lastDone: String?
      if let date = item.lastDone {
        if label == nil { label = DueDateLabel(zone: zone(), now: now, words: words) }
        lastDone = label!.day(date)
        // "Today" is "Yesterday" after midnight.
        changesAt = min(changesAt ?? midnight(), midnight())
      }
      repeats = ChecklistPage.Repeats(
        label: words.repeats.text(recurrence), lastDone: lastDone,
        dueSeconds: item.movesWhenChecked && !item.checked
          ? item.dueDate.map { Int($0.timeIntervalSince1970) } : nil)
    }
    return (ChecklistPage.Row(item: item, due: due, repeats: repeats), changesAt)
  }

  private mutating func midnight() -> Date {
    if let nextMidnight { return nextMidnight }
    let midnight = label!.nextChange
    nextMidnight = midnight
    return midnight
  }
}
