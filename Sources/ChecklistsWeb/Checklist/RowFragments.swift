import ChecklistsModel
import Foundation
import HTMLTemplates
import Support

/// The rows of owners' Checklist pages, rendered and kept: a page computed
/// again (after one of its items changed, for another browser of the
/// owner, when the response memo no longer holds it) writes each unchanged
/// row as it was rendered instead of wording its dates and rendering it.
///
/// A row's HTML depends on the item, its list's id, the visitor's language
/// and, for a row that shows a date, their zone: the key holds these and
/// the owner (a row is found only for its own owner's page, even when
/// another's holds the same), the kept row the item it was made from.
/// What depends on the clock ("Tomorrow", "Overdue") is kept with
/// the moment it stops being right (`RowLabeller`), and a row found past
/// that moment is rendered again. Sized by memory: at most `budget` bytes
/// of rows and keys, the least recently used forgotten first.
final class RowFragments: Sendable {
  /// One owner's list as one visitor sees it: the rows kept together.
  struct PageKey: Hashable, Sendable {
    let owner: Int
    let language: Int
    /// The visitor's zone when a row of the page shows a date; empty
    /// otherwise (no row of such a page depends on it).
    let zone: String
    let list: Int
  }

  /// A class, so that finding a kept row costs one reference, not a copy
  /// of its item (~300 instructions a row as a struct, callgrind).
  final class Fragment: Sendable {
    /// The item as it was when rendered: the row is written again only
    /// for an item that shows the same (`showsTheSameRow(as:)`).
    let item: ChecklistItem
    /// The row's HTML, as the renderer made it (`TemplateValue.html`).
    let html: [UInt8]
    /// When the row's words stop being right by themselves; nil: never.
    let changesAt: Date?

    init(item: ChecklistItem, html: [UInt8], changesAt: Date?) {
      self.item = item
      self.html = html
      self.changesAt = changesAt
    }
  }

  /// A list's Scheduled Reset sentence ("Resets every week on Monday at
  /// 06:00; next: Tomorrow 06:00") as it was made for its rule.
  struct Summary: Sendable {
    let reset: ScheduledReset
    let text: String
    /// When its words stop being right by themselves; nil: never.
    let changesAt: Date?
  }

  /// A page's kept rows by item id, its reset sentence, and what they cost.
  struct PageRows: Sendable {
    var byID: [Int: Fragment]
    var summary: Summary?
    var cost: Int
  }

  /// What a page's rows came to: their HTML in the order shown (a
  /// template section of `.html` values, each written as it is), and the
  /// earliest moment one of them changes by itself.
  struct Rows {
    var html: [TemplateValue]
    /// The list's reset sentence, nil when it has no rule.
    var summary: String?
    var changesAt: Date?
    /// How many rows (and reset sentences) were made rather than found.
    var rendered: Int
  }

  /// What a kept row costs besides its bytes and its item's text, measured
  /// roughly: the item's other fields, the fragment and the map's slot.
  static let rowOverhead = 256

  private let cache: LockedValue<LRUCache<PageKey, PageRows>>
  private let budget: Int
  /// The pages computed lately whose rows are not kept: a page's rows are
  /// kept from its second computation among the last `seenCapacity`
  /// pages' on. A page computed once (a visitor seen once, or 20,000
  /// visitors taking turns, beyond every cache) then costs no more than
  /// rendering it, and pushes out nobody's kept rows: kept at the first
  /// computation, each such page cost ~25% more and its rows were gone
  /// before it came round again (`scripts/bench`, 20,000 rotating).
  private let seen = LockedValue(LRUCache<PageKey, Bool>(capacity: RowFragments.seenCapacity))
  static let seenCapacity = 4_096

  init(budget: Int = ApplicationConfiguration.defaultRowCacheBudget) {
    cache = LockedValue(LRUCache(budget: budget))
    self.budget = budget
  }

  /// What the kept rows cost, and of how many pages.
  var usage: (bytes: Int, pages: Int) { cache.withLock { ($0.totalCost, $0.count) } }

  /// The HTML of `page`'s rows (a page made with `labelled: false`), each
  /// found kept for an item that shows the same, or rendered: `render`
  /// gets the `item-row` values of every row not found, in one call, and
  /// the list's id as their parent's `list.id`. And the list's reset
  /// sentence, found kept for the same rule or made by `summarize`. When a
  /// row or the sentence was made, the page's rows are kept anew: those
  /// shown, no others.
  func rows(
    of page: ChecklistPage, owner: Int, language: Language, zoneName: () -> String,
    labeller: inout RowLabeller,
    summarize: (ScheduledReset) -> (text: String, changesAt: Date?) = { _ in ("", nil) },
    render: (_ rows: [TemplateValue], _ parent: TemplateValue) throws -> (
      bytes: [UInt8], ends: [Int]
    )
  ) rethrows -> Rows {
    guard budget > 0 else {
      return try unkept(page, labeller: &labeller, summarize: summarize, render: render)
    }
    let now = labeller.now
    let reset = page.list.reset
    let showsDates =
      reset != nil || page.items.contains { $0.dueDate != nil || $0.lastDone != nil }
    let key = PageKey(
      owner: owner, language: language.rawValue, zone: showsDates ? zoneName() : "",
      list: page.list.id)
    let found = cache.withLock { $0.value(forKey: key) }
    if found == nil {
      let seenLately = seen.withLock { seen in
        if seen.value(forKey: key) != nil { return true }
        seen.setValue(true, forKey: key)
        return false
      }
      if !seenLately {
        return try unkept(page, labeller: &labeller, summarize: summarize, render: render)
      }
    }
    let kept = found ?? PageRows(byID: [:], summary: nil, cost: 0)
    var made = 0
    var summary: Summary?
    if let reset {
      if let found = kept.summary, found.reset == reset, found.changesAt.map({ now < $0 }) ?? true {
        summary = found
      } else {
        let (text, summaryChangesAt) = summarize(reset)
        summary = Summary(reset: reset, text: text, changesAt: summaryChangesAt)
        made += 1
      }
    }
    // The rows in the order shown: each found, or nil until rendered (its
    // values in `missing`, its place in `missingAt`).
    var fragments: [Fragment?] = []
    fragments.reserveCapacity(page.items.count)
    var missing: [TemplateValue] = []
    var missingAt: [Int] = []
    var missingChangesAt: [Date?] = []
    // Each item read in place through the buffer: `for item in page.items`
    // copied it (a retain and a release of each of its strings and arrays).
    page.items.withUnsafeBufferPointer { items in
      for index in items.indices {
        if let fragment = kept.byID[items[index].id],
          fragment.showsTheSameRow(as: items.baseAddress! + index),
          fragment.changesAt.map({ now < $0 }) ?? true
        {
          fragments.append(fragment)
        } else {
          let (worded, changesAt) = labeller.row(items[index])
          missing.append(.object(ChecklistScreen.rowValue(worded)))
          missingAt.append(fragments.count)
          missingChangesAt.append(changesAt)
          fragments.append(nil)
        }
      }
    }
    if !missing.isEmpty {
      let (bytes, ends) = try render(missing, ChecklistScreen.listContext(id: page.list.id))
      var start = 0
      for (number, end) in ends.enumerated() {
        let place = missingAt[number]
        fragments[place] = Fragment(
          item: page.items[place], html: Array(bytes[start..<end]),
          changesAt: missingChangesAt[number])
        start = end
      }
      made += missing.count
    }
    var changesAt = summary?.changesAt
    var html: [TemplateValue] = []
    html.reserveCapacity(fragments.count)
    for case let fragment? in fragments {
      if let end = fragment.changesAt { changesAt = min(changesAt ?? end, end) }
      html.append(.html(fragment.html))
    }
    if made > 0 || kept.byID.count != fragments.count {
      keep(fragments, summary: summary, for: key)
    }
    return Rows(html: html, summary: summary?.text, changesAt: changesAt, rendered: made)
  }

  /// Keeps a page's rows and sentence, made or found, in place of what was
  /// kept for it, when they fit the budget.
  private func keep(_ fragments: [Fragment?], summary: Summary?, for key: PageKey) {
    var cost = summary.map { $0.text.utf8.count + Self.rowOverhead } ?? 0
    for case let fragment? in fragments {
      cost +=
        fragment.html.count + fragment.item.text.utf8.count + fragment.item.notes.utf8.count
        + Self.rowOverhead
    }
    guard cost <= budget else { return }
    var rows = PageRows(
      byID: Dictionary(minimumCapacity: fragments.count), summary: summary, cost: cost)
    for case let fragment? in fragments { rows.byID[fragment.item.id] = fragment }
    cache.withLock { $0.setValue(rows, forKey: key, cost: cost) }
  }
}

extension RowFragments {
  /// The rows and sentence made, none kept (`--row-cache-size 0`): the
  /// rows rendered as one run of bytes, not cut into one array a row.
  fileprivate func unkept(
    _ page: ChecklistPage, labeller: inout RowLabeller,
    summarize: (ScheduledReset) -> (text: String, changesAt: Date?),
    render: (_ rows: [TemplateValue], _ parent: TemplateValue) throws -> (
      bytes: [UInt8], ends: [Int]
    )
  ) rethrows -> Rows {
    var changesAt: Date?
    var summary: String?
    if let reset = page.list.reset {
      let made = summarize(reset)
      summary = made.text
      changesAt = made.changesAt
    }
    var values: [TemplateValue] = []
    values.reserveCapacity(page.items.count)
    for item in page.items {
      let (worded, rowChangesAt) = labeller.row(item)
      values.append(.object(ChecklistScreen.rowValue(worded)))
      if let end = rowChangesAt { changesAt = min(changesAt ?? end, end) }
    }
    var html: [TemplateValue] = []
    if !values.isEmpty {
      html.append(.html(try render(values, ChecklistScreen.listContext(id: page.list.id)).bytes))
    }
    return Rows(
      html: html, summary: summary, changesAt: changesAt,
      rendered: page.items.count + (summary == nil ? 0 : 1))
  }
}

extension RowFragments.Fragment {
  /// Whether `other`'s row reads as this row's item: the same id, text,
  /// checkmark, due date, note, rule and last done. Not the reminder or
  /// what a calendar app wrote, which no row shows; and dates compared by
  /// their seconds (`Date`'s own `==` is called through a witness,
  /// ~500 instructions a row). A method of the fragment, which reads its
  /// item in place (`fragment.item` from outside is a copy of it); `other`
  /// by its address in the page's items, whose fields are read where they
  /// are: an item passed by value was copied first, all its strings and
  /// arrays retained (~4,800 instructions a 20-item page, callgrind).
  fileprivate func showsTheSameRow(as other: UnsafePointer<ChecklistItem>) -> Bool {
    item.id == other.pointee.id && item.checked == other.pointee.checked
      && item.text == other.pointee.text && item.notes == other.pointee.notes
      && item.dueDate?.timeIntervalSince1970 == other.pointee.dueDate?.timeIntervalSince1970
      && item.lastDone?.timeIntervalSince1970 == other.pointee.lastDone?.timeIntervalSince1970
      && Recurrence.sameText(item.recurrence, other.pointee.recurrence)
  }
}
