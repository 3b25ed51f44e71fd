/// One line of a checklist: its text and its checkmark.
package struct ChecklistItem: Sendable, Equatable, Codable {
  /// Stable within the visitor's data and never reused, even after deletion.
  package let id: Int
  /// Cleaned text (see `TextInput.clean`).
  package var text: String
  /// Whether the item is done.
  package var checked: Bool

  package init(id: Int, text: String, checked: Bool = false) {
    self.id = id
    self.text = text
    self.checked = checked
  }
}
