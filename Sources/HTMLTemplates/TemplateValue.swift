/// The data a template is rendered against: the JSON-like values Mustache knows.
///
/// Build contexts with literals:
/// `let context: TemplateValue = ["title": "x", "items": [["text": "a", "checked": true]]]`.
package enum TemplateValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case list([TemplateValue])
  case object(TemplateObject)
  /// UTF-8 a renderer made (`TemplateLibrary.renderEach`), written again as it is by a
  /// triple-mustache tag (escaped by a double one, as a string would be). Kept as bytes: a
  /// String made of them validates every byte again, ~7 instructions a byte for text that is
  /// not all ASCII.
  case html([UInt8])

  /// Whether a section shows (and an inverted section hides).
  ///
  /// The spec leaves falsiness to the language; ours: `null`, `false`, the empty list and
  /// the empty string are falsey, so a handler can pass `""` for "no error message".
  /// Numbers, including 0, and every object are truthy.
  @inlinable package var isTruthy: Bool {
    switch self {
    case .null: return false
    case .bool(let value): return value
    case .string(let value): return !value.isEmpty
    case .list(let values): return !values.isEmpty
    case .html(let bytes): return !bytes.isEmpty
    case .int, .double, .object: return true
    }
  }

  /// The renderer's look-up: a method, so that `self` is borrowed where it lies in the
  /// context stack instead of copied (a copy is a retain and a release per look-up).
  func field(hash: Int, name: String) -> (value: TemplateValue, plain: Bool)? {
    if case .object(let object) = self { return object.field(hash: hash, name: name) }
    return nil
  }

  /// The value of `key` when this is an object, else nil.
  package subscript(key: String) -> TemplateValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }
}

extension TemplateValue: ExpressibleByStringLiteral {
  package init(stringLiteral value: String) { self = .string(value) }
}

extension TemplateValue: ExpressibleByIntegerLiteral {
  package init(integerLiteral value: Int) { self = .int(value) }
}

extension TemplateValue: ExpressibleByFloatLiteral {
  package init(floatLiteral value: Double) { self = .double(value) }
}

extension TemplateValue: ExpressibleByBooleanLiteral {
  package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension TemplateValue: ExpressibleByNilLiteral {
  package init(nilLiteral: ()) { self = .null }
}

extension TemplateValue: ExpressibleByArrayLiteral {
  package init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
}

extension TemplateValue: ExpressibleByDictionaryLiteral {
  /// A repeated key keeps its last value.
  package init(dictionaryLiteral elements: (String, TemplateValue)...) {
    self = .object(TemplateObject(pairs: elements))
  }
}
