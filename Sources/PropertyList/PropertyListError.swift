/// Why bytes are not a property list this module reads: a sentence that names what is
/// damaged and where, fit to show a visitor (the import page shows it as it is).
package struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
  package let message: String

  package init(_ message: String) {
    self.message = message
  }

  package var description: String { message }
}
