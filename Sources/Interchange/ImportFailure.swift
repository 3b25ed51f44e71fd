/// Why a file cannot be read for import: what the import page tells the
/// visitor. Nothing is changed and the file is not kept.
package struct ImportFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// A sentence for the visitor, saying what is wrong and where when known.
  package let message: String

  package init(_ message: String) {
    self.message = message
  }

  package var description: String { message }
}
