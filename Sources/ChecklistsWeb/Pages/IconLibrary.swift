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
      markup[icon] = try String(contentsOfFile: path, encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    self.markup = markup
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
