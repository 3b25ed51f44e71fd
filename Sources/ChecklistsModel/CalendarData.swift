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
