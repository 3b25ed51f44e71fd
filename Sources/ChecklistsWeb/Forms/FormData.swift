/// The fields of a submitted form, in the order they were sent.
///
/// A name may repeat (as checkboxes with one name do); `subscript(_:)`
/// returns the first value so a second, smuggled copy of a field (`csrf`,
/// `text`) never overrides the one the page sent.
package struct FormData: Sendable, Hashable {
  /// One decoded `name=value` pair.
  package struct Field: Sendable, Hashable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// Every field, in order.
  package var fields: [Field]

  package init(fields: [Field] = []) {
    self.fields = fields
  }

  /// The first value sent under `name`, or nil when there is none.
  package subscript(name: String) -> String? {
    fields.first { $0.name == name }?.value
  }

  /// Every value sent under `name`, in order.
  package func values(named name: String) -> [String] {
    fields.filter { $0.name == name }.map(\.value)
  }

  /// True when a field named `name` was sent, whatever its value (an HTML
  /// checkbox is sent only when it is checked).
  package func contains(_ name: String) -> Bool {
    fields.contains { $0.name == name }
  }
}
