import AppArchiveFixture
import ChecklistsModel
import Foundation
import Interchange
import PropertyList

/// The iOS app's `Checklists.plist` importer and our property list readers under it.
extension FuzzTargets {
  /// Reading never crashes and throws only `ImportFailure` (typed); what it reads stays
  /// within the model's limits and `AppArchiveImport.maximumItems`, with finite due dates;
  /// and the lists, written again as the app wrote them (by Foundation's NSKeyedArchiver
  /// or PropertyListEncoder, the form and format picked by the input's length), read back
  /// the same.
  static func appArchive(_ bytes: [UInt8]) {
    let lists: [ImportedList]
    do { lists = try AppArchiveImport.lists(from: bytes) } catch { return }
    check(lists.count <= Limits.maximumLists, "\(lists.count) lists")
    var itemsInAll = 0
    for list in lists {
      check(list.items.count <= Limits.maximumItemsPerList, "\(list.items.count) items")
      itemsInAll += list.items.count
      for item in list.items {
        check(item.dueDate.map { $0.timeIntervalSinceReferenceDate.isFinite } ?? true, "due date")
      }
    }
    check(itemsInAll <= AppArchiveImport.maximumItems, "\(itemsInAll) items in all")
    guard itemsInAll <= 200 else { return }
    let form: AppArchiveFixture.Form = bytes.count % 2 == 0 ? .keyedArchive : .codable
    // A Codable XML plist keeps a due date as a <date>: whole seconds (see PlistTree).
    let datesFitXML = lists.allSatisfy { list in
      list.items.allSatisfy { item in
        item.dueDate.map { PlistTree.dateSurvivesXML($0.timeIntervalSinceReferenceDate) } ?? true
      }
    }
    let description = AppArchiveFixture.Description(
      form: form,
      format: bytes.count % 4 < 2 || (form == .codable && !datesFitXML) ? .binary : .xml,
      classPrefix: bytes.count % 3 == 0 ? "Checklists" : nil,
      lists: lists.map { list in
        .init(
          name: list.name, icon: list.icon.displayName,
          items: list.items.map {
            .init(
              text: $0.text, checked: $0.checked,
              dueDate: $0.dueDate?.timeIntervalSince1970, shouldRemind: $0.shouldRemind)
          })
      })
    guard let again = try? AppArchiveImport.lists(from: AppArchiveFixture.bytes(description))
    else {
      check(
        false,
        "the lists read, written again (\(description.form) \(description.format)), failed to read")
      return
    }
    check(again.count == lists.count, "list count changed in a round trip")
    for (before, after) in zip(lists, again) {
      check(
        before.name == after.name && before.icon == after.icon
          && before.items.count == after.items.count, "a list changed in a round trip")
      for (one, other) in zip(before.items, after.items) {
        check(
          one.text == other.text && one.checked == other.checked
            && one.shouldRemind == other.shouldRemind && sameDate(one.dueDate, other.dueDate),
          "an item changed in a round trip: \(one) became \(other)")
      }
    }
  }

  /// Dates match to the microsecond: the fixture passes them as seconds since 1970, and
  /// an XML plist's `<date>` keeps whole seconds only.
  static func sameDate(_ one: Date?, _ other: Date?) -> Bool {
    guard let one, let other else { return one == nil && other == nil }
    let difference = abs(one.timeIntervalSinceReferenceDate - other.timeIntervalSinceReferenceDate)
    return difference <= 1 || difference <= abs(one.timeIntervalSinceReferenceDate) * 1e-12
  }

  /// Our property list reader never crashes; every reference it hands out names an
  /// object; and what it read, written by Foundation's `PropertyListSerialization` (binary
  /// always, XML when its dates and numbers survive XML), reads back the same.
  static func plistReader(_ bytes: [UInt8]) {
    guard let list = try? PropertyList(reading: bytes) else { return }
    check(list.top < list.objects.count, "top \(list.top) of \(list.objects.count)")
    for object in list.objects {
      switch object {
      case .array(let members):
        check(members.allSatisfy { $0 < list.objects.count }, "an array member out of range")
      case .dictionary(let entries):
        check(entries.values.allSatisfy { $0 < list.objects.count }, "a value out of range")
      default: continue
      }
    }
    var budget = 2_000
    guard let tree = PlistTree(list, list.top, budget: &budget) else { return }
    let formats: [PropertyListSerialization.PropertyListFormat] =
      tree.survivesXML ? [.binary, .xml] : [.binary]
    for format in formats {
      guard
        let data = try? PropertyListSerialization.data(
          fromPropertyList: tree.foundationObject, format: format, options: 0)
      else {
        check(false, "Foundation could not write what was read (\(format))")
        return
      }
      let again = try? PropertyList(reading: [UInt8](data))
      var budgetAgain = 4_000
      let treeAgain = again.flatMap { PlistTree($0, $0.top, budget: &budgetAgain) }
      check(treeAgain == tree, "round trip through Foundation (\(format)) changed \(tree)")
    }
  }
}

/// A property list as a tree, for comparing: a UID and a dictionary whose one key is
/// `CF$UID` with a 32-bit value are the same (that is how Foundation writes a UID it is
/// handed as a dictionary), and reals compare as equal when both are NaN.
indirect enum PlistTree: Equatable {
  case dictionary([String: PlistTree])
  case array([PlistTree])
  case string(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  case date(Double)
  case data([UInt8])
  case uid(UInt64)

  /// nil when the tree would hold more than `budget` nodes (shared objects are counted
  /// each time) or a UID beyond 32 bits.
  init?(_ list: PropertyList, _ index: Int, budget: inout Int) {
    budget -= 1
    guard budget >= 0 else { return nil }
    switch list[index] {
    case .dictionary(let entries):
      var members: [String: PlistTree] = [:]
      for (key, value) in entries {
        guard let member = PlistTree(list, value, budget: &budget) else { return nil }
        members[key] = member
      }
      if members.count == 1, case .integer(let number)? = members["CF$UID"], number >= 0,
        number <= Int64(UInt32.max)
      {
        self = .uid(UInt64(number))
      } else {
        self = .dictionary(members)
      }
    case .array(let members):
      var trees: [PlistTree] = []
      for member in members {
        guard let tree = PlistTree(list, member, budget: &budget) else { return nil }
        trees.append(tree)
      }
      self = .array(trees)
    case .string(let text): self = .string(text)
    case .integer(let number): self = .integer(number)
    case .real(let number): self = .real(number)
    case .bool(let flag): self = .bool(flag)
    case .date(let seconds): self = .date(seconds)
    case .data(let bytes): self = .data(bytes)
    case .uid(let number):
      guard number <= UInt64(UInt32.max) else { return nil }
      self = .uid(number)
    }
  }

  static func == (lhs: PlistTree, rhs: PlistTree) -> Bool {
    switch (lhs, rhs) {
    case (.dictionary(let one), .dictionary(let other)): one == other
    case (.array(let one), .array(let other)): one == other
    case (.string(let one), .string(let other)): one == other
    case (.integer(let one), .integer(let other)): one == other
    case (.real(let one), .real(let other)): one == other || (one.isNaN && other.isNaN)
    case (.bool(let one), .bool(let other)): one == other
    case (.date(let one), .date(let other)): one == other || (one.isNaN && other.isNaN)
    case (.data(let one), .data(let other)): one == other
    case (.uid(let one), .uid(let other)): one == other
    default: false
    }
  }

  /// The tree as Foundation's plist objects; a UID as its `CF$UID` dictionary.
  var foundationObject: Any {
    switch self {
    case .dictionary(let members): members.mapValues(\.foundationObject)
    case .array(let members): members.map(\.foundationObject)
    case .string(let text): text
    case .integer(let number): number
    case .real(let number): number
    case .bool(let flag): flag
    case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
    case .data(let bytes): Data(bytes)
    case .uid(let number): ["CF$UID": Int64(number)]
    }
  }

  /// Whether XML keeps every value: finite reals, and dates that `dateSurvivesXML`.
  var survivesXML: Bool {
    switch self {
    case .dictionary(let members): members.values.allSatisfy(\.survivesXML)
    case .array(let members): members.allSatisfy(\.survivesXML)
    case .real(let number): number.isFinite
    case .date(let seconds): Self.dateSurvivesXML(seconds)
    default: true
    }
  }

  /// An XML `<date>` holds whole seconds of the years up to 9999; and Foundation on Linux
  /// writes a date before the Gregorian reform of 1582 in the Julian calendar (days apart
  /// from the proleptic Gregorian calendar that CoreFoundation, `plistlib` and our reader
  /// use), so only dates from 1600 on are compared through XML. A due date is never
  /// before 1970.
  static func dateSurvivesXML(_ seconds: Double) -> Bool {
    seconds.rounded() == seconds && seconds >= -12_654_403_200 && seconds <= 252_423_993_599
  }
}
