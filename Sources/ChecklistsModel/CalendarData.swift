/// What a calendar app gave an item over CalDAV that the item itself does
/// not hold, kept with the item so the app gets it back unchanged and an
/// edit on the web loses none of it.
///
/// Only an item a client wrote has one; an item made on the web is sent
/// with a `UID` and a resource name derived from its id (Interchange's
/// `CalendarUID`) until a client writes it.
package struct CalendarData: Sendable, Equatable, Codable {
  /// The to-do's `UID`, as the client chose it.
  package var uid: String
  /// The resource's name in its list's collection (`<something>.ics`), where
  /// the client put it.
  package var resource: String
  /// The client's content lines the item does not map, unfolded, one a
  /// line (`\n` between them): Interchange's `CalendarTodo` reads and
  /// writes them. They count towards the owner's stored size as the text
  /// does.
  package var kept: String

  package init(uid: String, resource: String, kept: String) {
    self.uid = uid
    self.resource = resource
    self.kept = kept
  }
}

extension ChecklistItem {
  /// The item's resource name in its list's calendar collection: where a
  /// client put it, else `<id>.ics`.
  package var resourceName: String {
    calendar?.resource ?? "\(id).ics"
  }
}

extension CalendarData {
  /// The kept lines without the to-do's own properties named `name` (its
  /// components', an alarm's `DESCRIPTION`, stay): what an edit on the web
  /// of the field that property maps to leaves, so that the app gets the
  /// item's new value, not the one it once wrote.
  package func droppingProperty(named name: String) -> CalendarData {
    var depth = 0
    var lines: [Substring] = []
    for line in kept.split(separator: "\n", omittingEmptySubsequences: false) {
      let lineName = line.prefix { $0 != ":" && $0 != ";" }.uppercased()
      if lineName == "BEGIN" { depth += 1 }
      if depth == 0 && lineName == name { continue }
      if lineName == "END" { depth = max(depth - 1, 0) }
      lines.append(line)
    }
    return CalendarData(uid: uid, resource: resource, kept: lines.joined(separator: "\n"))
  }
}
