import Foundation
import QRCode
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The elements of an XML document and their attributes, in order, as
/// Foundation's parser read them.
final class ElementCollector: NSObject, XMLParserDelegate {
  var elements: [(name: String, attributes: [String: String])] = []

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    elements.append((name, attributes))
  }

  /// Parses `xml`; nil when it is not well-formed.
  static func parse(_ xml: String) -> [(name: String, attributes: [String: String])]? {
    let parser = XMLParser(data: Data(xml.utf8))
    let collector = ElementCollector()
    parser.delegate = collector
    return parser.parse() ? collector.elements : nil
  }
}

@Suite struct QRCodeSVGTests {
  let code: QRCode

  init() throws {
    code = try QRCode(text: "http://127.0.0.1:8080/link/K7Q2-M9XD-4FHT-8WNB-3R6P-Y1ZC-V5")
  }

  /// The modules the path's `M x y hN v1 h-N z` runs paint, quiet zone
  /// included; nil when the path has anything else in it, paints a module
  /// twice, or has two runs of a row that touch (they would be one).
  func paintedCells(_ path: String, side: Int) -> [[Bool]]? {
    var cells = Array(repeating: Array(repeating: false, count: side), count: side)
    let run = /M(\d+) (\d+)h(\d+)v1h-(\d+)z/
    var rest = Substring(path)
    var previousEnd = (row: -1, column: -1)
    while !rest.isEmpty {
      guard let match = rest.prefixMatch(of: run), match.3 == match.4,
        let x = Int(match.1), let y = Int(match.2), let length = Int(match.3),
        length > 0, y < side, x + length <= side, previousEnd != (y, x)
      else { return nil }
      previousEnd = (y, x + length)
      for column in x..<(x + length) {
        if cells[y][column] { return nil }  // painted twice
        cells[y][column] = true
      }
      rest = rest[match.range.upperBound...]
    }
    return cells
  }

  @Test func theSVGIsWellFormedAndItsPathPaintsExactlyTheDarkModules() throws {
    let svg = code.svg(label: "QR code of the link", moduleSize: 5)
    let elements = try #require(ElementCollector.parse(svg), "not well-formed XML: \(svg)")
    #expect(elements.map(\.name) == ["svg", "rect", "path"])
    let side = code.size + 8
    let root = elements[0].attributes
    #expect(root["xmlns"] == "http://www.w3.org/2000/svg")
    #expect(root["viewBox"] == "0 0 \(side) \(side)")
    #expect(root["width"] == "\(side * 5)" && root["height"] == "\(side * 5)")
    #expect(root["role"] == "img")
    #expect(root["aria-label"] == "QR code of the link")
    #expect(root["shape-rendering"] == "crispEdges")
    // A white background over the whole view box, quiet zone included.
    #expect(elements[1].attributes == ["width": "\(side)", "height": "\(side)", "fill": "#fff"])
    #expect(elements[2].attributes["fill"] == "#000")
    let path = try #require(elements[2].attributes["d"])
    let cells = try #require(paintedCells(path, side: side), "unexpected path: \(path)")
    for row in 0..<side {
      for column in 0..<side {
        let inSymbol = (4..<(4 + code.size)).contains(row) && (4..<(4 + code.size)).contains(column)
        let dark = inSymbol && code.isDark(row: row - 4, column: column - 4)
        #expect(cells[row][column] == dark, "module (\(row), \(column)) of the view box")
      }
    }
  }

  @Test func theSVGHasNoStyleAttributeNorScript() {
    let svg = code.svg(label: "QR code")
    #expect(!svg.contains("style"))
    #expect(!svg.contains("<script"))
    #expect(!svg.hasPrefix("<?xml"))  // placed in a page as it is
  }

  @Test func aWiderQuietZoneWidensTheViewBoxAndMovesThePath() throws {
    let svg = code.svg(label: "QR code", moduleSize: 1, quietZone: 6)
    let elements = try #require(ElementCollector.parse(svg))
    let side = code.size + 12
    #expect(elements[0].attributes["viewBox"] == "0 0 \(side) \(side)")
    #expect(elements[0].attributes["width"] == "\(side)")
    // The top-left finder pattern's first row: seven dark modules from (6, 6).
    #expect(elements[2].attributes["d"]?.hasPrefix("M6 6h7v1h-7z") == true)
  }

  @Test(arguments: [
    "Link <this> browser & \"that\" one's",
    "Tab\there, line\nbreak, return\r",
    "A control \u{1}\u{8}\u{1F} and \u{FFFE} character",
    "Étiquette ✓ 📱",
  ])
  func theLabelIsEscapedAndReadsBackAsGiven(label: String) throws {
    let svg = code.svg(label: label)
    let elements = try #require(ElementCollector.parse(svg), "not well-formed XML: \(svg)")
    let expected = String(
      String.UnicodeScalarView(
        label.unicodeScalars.map { scalar in
          switch scalar {
          case "\t", "\n", "\r": scalar
          case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": "\u{FFFD}"
          default: scalar
          }
        }))
    #expect(elements[0].attributes["aria-label"] == expected)
  }
}
