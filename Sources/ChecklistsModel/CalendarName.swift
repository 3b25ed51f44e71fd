/// The name a calendar app gives a collection it makes (`MKCALENDAR`), the
/// last segment of the address it then uses (`/dav/lists/<name>/`): what
/// apps choose there (a UUID, a slug), and nothing that could be read as
/// something else: 1 to 64 of `A`-`Z`, `a`-`z`, `0`-`9` and `-._~` (so no
/// `/`, no escape, nothing to decode), not dots alone (`.` and `..` are
/// a path's own, `...` looks like them), and not digits alone (those are
/// a list's id).
package enum CalendarName {
  package static let maximumLength = 64

  package static func isValid(_ name: String) -> Bool {
    let bytes = name.utf8
    return !bytes.isEmpty && bytes.count <= maximumLength && bytes.allSatisfy(isAllowed)
      && !bytes.allSatisfy { $0 == UInt8(ascii: ".") }
      && !bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  private static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }
}

extension DataModel {
  /// The list a calendar app addresses by `segment`: the one it named so,
  /// else the one of that id.
  package func checklist(calendarSegment segment: String) -> Checklist? {
    if let named = lists.first(where: { $0.calendarName == segment }) { return named }
    guard let first = segment.utf8.first, first != UInt8(ascii: "0"), segment.utf8.count <= 18,
      segment.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let id = Int(segment)
    else { return nil }
    return checklist(id: id)
  }

  /// Whether a list goes by the calendar name `name`. One in Recently
  /// Deleted does not hold it: restored after another took it, it is
  /// reached by its id alone (`restore(deletion:)`).
  package func calendarNameIsTaken(_ name: String) -> Bool {
    lists.contains { $0.calendarName == name }
  }

  /// Adds a list a calendar app made under `calendarName` (a
  /// `CalendarName` no list goes by: the caller's to check), within the
  /// web's limits (the list count, the name as a typed one).
  ///
  /// - Returns: the new list's id.
  @discardableResult
  package mutating func addList(name: String, calendarName: String) throws(ChecklistsError)
    -> Int
  {
    precondition(CalendarName.isValid(calendarName) && !calendarNameIsTaken(calendarName))
    let id = try addList(name: name, icon: .newList)
    lists[lists.firstIndex { $0.id == id }!].calendarName = calendarName
    return id
  }
}
