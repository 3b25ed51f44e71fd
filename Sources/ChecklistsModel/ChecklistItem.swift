/// One line of a checklist: its text and its checkmark.
public struct ChecklistItem: Sendable, Equatable, Codable {
  /// Stable within the visitor's data and never reused, even after deletion.
  public let id: Int
  /// Cleaned text (see `TextInput.clean`).
  public var text: String
  /// Whether the item is done.
  public var checked: Bool

  public init(id: Int, text: String, checked: Bool = false) {
    self.id = id
    self.text = text
    self.checked = checked
  }
}
