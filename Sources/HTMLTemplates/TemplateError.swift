/// Why a template could not be parsed, linked or rendered: the template, the line and what is wrong.
package struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The template's name ("" for a template parsed without one).
  package var template: String
  /// The 1-based line of the tag at fault, or 0 when the error is not about one tag.
  package var line: Int
  /// What is wrong, e.g. "unclosed section items".
  package var message: String

  package init(template: String, line: Int, message: String) {
    self.template = template
    self.line = line
    self.message = message
  }

  package var description: String {
    line > 0 ? "\(template):\(line): \(message)" : "\(template): \(message)"
  }
}
