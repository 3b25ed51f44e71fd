extension QRCode {
  /// The light margin the standard asks for around a symbol, in modules.
  package static let standardQuietZone = 4

  /// The symbol as a compact SVG element, to be sent as a file or placed in
  /// a page as it is (it carries its own `xmlns`).
  ///
  /// A white rectangle covers the whole `viewBox` (the symbol and its quiet
  /// zone) and one black `<path>` draws each row's runs of dark modules, so
  /// the code stays dark on white in a dark colour scheme too; colours are
  /// `fill` attributes, as the Content-Security-Policy forbids `style`
  /// attributes (a stylesheet rule on `rect` or `path` fill would override
  /// them). The `viewBox` is in modules, so the picture scales without
  /// blurring; `shape-rendering="crispEdges"` keeps adjacent runs from
  /// showing hairline seams.
  ///
  /// - Parameters:
  ///   - label: the accessible name (`aria-label`; the element has
  ///     `role="img"`), escaped here.
  ///   - moduleSize: the width and height of one module in CSS pixels, for
  ///     the element's `width` and `height`; at least 1.
  ///   - quietZone: the margin in modules; at least `standardQuietZone`.
  package func svg(label: String, moduleSize: Int = 4, quietZone: Int = standardQuietZone)
    -> String
  {
    precondition(moduleSize >= 1, "a module is at least 1 pixel")
    precondition(quietZone >= Self.standardQuietZone, "the quiet zone is at least 4 modules")
    let side = size + 2 * quietZone
    let pixels = side * moduleSize
    let head = """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" \
      width="\(pixels)" height="\(pixels)" role="img" aria-label="\(XMLEscaping.attribute(label))" \
      shape-rendering="crispEdges">\
      <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="
      """
    // Written as bytes: a string interpolation per run took about four
    // times as long (~100 µs against ~26 µs for a 37-module symbol).
    var svg = Array(head.utf8)
    svg.reserveCapacity(svg.count + size * size * 3 + 16)
    for row in 0..<size {
      var column = 0
      while column < size {
        guard modules[row * size + column] else {
          column += 1
          continue
        }
        let start = column
        while column < size && modules[row * size + column] { column += 1 }
        let run = column - start
        svg.append(UInt8(ascii: "M"))
        svg.appendDecimal(start + quietZone)
        svg.append(UInt8(ascii: " "))
        svg.appendDecimal(row + quietZone)
        svg.append(UInt8(ascii: "h"))
        svg.appendDecimal(run)
        svg.append(contentsOf: "v1h-".utf8)
        svg.appendDecimal(run)
        svg.append(UInt8(ascii: "z"))
      }
    }
    svg.append(contentsOf: "\"/></svg>".utf8)
    return String(decoding: svg, as: UTF8.self)
  }
}

extension [UInt8] {
  /// Appends the decimal digits of `number` (≥ 0).
  fileprivate mutating func appendDecimal(_ number: Int) {
    if number >= 10 { appendDecimal(number / 10) }
    append(UInt8(ascii: "0") + UInt8(number % 10))
  }
}

/// Text inside a double-quoted XML attribute.
enum XMLEscaping {
  /// `text` with `&`, `<`, `>` and `"` as entities, tab and line breaks as
  /// character references (an XML parser would turn them into spaces), and
  /// each character XML 1.0 cannot carry at all (other C0 controls, U+FFFE,
  /// U+FFFF) as U+FFFD.
  static func attribute(_ text: String) -> String {
    var escaped = ""
    escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "\t": escaped += "&#9;"
      case "\n": escaped += "&#10;"
      case "\r": escaped += "&#13;"
      case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": escaped.unicodeScalars.append("\u{FFFD}")
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
