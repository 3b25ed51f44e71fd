import ChecklistsModel
import Foundation
import HTMLTemplates

/// The markup of the ten icons, read once from `Public/icons/*.svg` so a
/// page inlines them (no extra request per row).
struct IconLibrary: Sendable {
  private let markup: [ChecklistIcon: String]

  init(publicDirectory: String) throws {
    var markup: [ChecklistIcon: String] = [:]
    for icon in ChecklistIcon.allCases {
      let path = "\(publicDirectory)/icons/\(icon.fileName).svg"
      markup[icon] = Self.inline(
        try String(contentsOfFile: path, encoding: .utf8)
          .trimmingCharacters(in: .whitespacesAndNewlines))
    }
    self.markup = markup
  }

  /// The file's markup made for a page: the root element keeps only its
  /// `viewBox` and `aria-hidden` (the stylesheet gives size, stroke and
  /// fill), so each row carries fewer bytes and the page is valid HTML.
  static func inline(_ file: String) -> String {
    guard file.hasPrefix("<svg"), let end = file.firstIndex(of: ">") else { return file }
    let root = file[..<end]
    let viewBox =
      root.range(of: #"viewBox="[^"]*""#, options: .regularExpression).map { String(root[$0]) }
      ?? #"viewBox="0 0 24 24""#
    return "<svg \(viewBox) aria-hidden=\"true\"" + file[end...]
  }

  /// The icon's SVG, for the icon picker (every icon, No Icon included).
  func svg(_ icon: ChecklistIcon) -> String { markup[icon] ?? "" }

  /// The icon shown beside a list's name: nothing for No Icon.
  func listSVG(_ icon: ChecklistIcon) -> String { icon == .none ? "" : svg(icon) }

  /// `{svg: …}`, the shape the templates' `icon.svg` expects.
  func value(for icon: ChecklistIcon) -> TemplateValue {
    ["svg": .string(listSVG(icon))]
  }
}
