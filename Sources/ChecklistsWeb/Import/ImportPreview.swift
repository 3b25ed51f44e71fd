import ChecklistsModel
import Foundation
import HTMLTemplates
import Interchange
import Storage

/// The values of the import's preview (`import-preview`): what Confirm
/// adds, list by list, and the form that confirms exactly that.
enum ImportPreview {
  static func context(
    _ stored: PendingImports.Stored, refusal: String?, csrf: String, icons: IconLibrary,
    label: DueDateLabel, catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> TemplateValue {
    let pending = stored.pending
    var itemCount = 0
    let rows: [TemplateValue] = pending.lists.map { list in
      itemCount += list.items.count
      return row(list, icons: icons, catalogue: catalogue)
    }
    var values: [String: TemplateValue] = [
      "fileName": .string(pending.fileName),
      "format": .string(ImportFormat(rawValue: pending.format)?.name ?? pending.format),
      "uploaded": .string(label.text(pending.created)),
      "uploadedISO": .string(DueDateLabel.machineReadable(pending.created)),
      "summary": .string(
        summary(lists: pending.lists.count, items: itemCount, catalogue: catalogue)),
      "lists": .list(rows),
      "digest": .string(stored.digest),
      "csrf": .string(csrf),
    ]
    if let refusal { values["refusal"] = .string(refusal) }
    return .object(TemplateObject(values))
  }

  /// One list's row: its name, icon and what its items are.
  static func row(
    _ list: ImportedList, icons: IconLibrary,
    catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> TemplateValue {
    let checked = list.items.count(where: \.checked)
    let dated = list.items.count(where: { $0.dueDate != nil })
    return [
      // As it will be added (cleaned); as the file has it when it cannot be
      // (the preview then shows why).
      "name": .string((try? TextInput.clean(list.name)) ?? list.name),
      "icon": icons.value(for: list.icon),
      "items": .string(count(list.items.count, Self.items, catalogue)),
      "details": .string(
        details(checked: checked, dated: dated, of: list.items.count, catalogue: catalogue)),
      "byDueDate": .bool(list.sort == .dueDate),
    ]
  }

  /// "3 lists with 42 items", "1 list with 1 item".
  static func summary(
    lists: Int, items: Int, catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> String {
    catalogue.text(
      translatable("{{lists}} with {{items}}"),
      [
        (
          "lists",
          count(lists, translatable(one: "{{count}} list", other: "{{count}} lists"), catalogue)
        ),
        ("items", count(items, Self.items, catalogue)),
      ])
  }

  static let items = translatable(one: "{{count}} item", other: "{{count}} items")

  /// "2 checked, 1 with a due date"; "none checked" for a list with items
  /// and none of either; empty for an empty list.
  static func details(
    checked: Int, dated: Int, of total: Int,
    catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> String {
    guard total > 0 else { return "" }
    var parts = [
      checked == 0
        ? catalogue.text(translatable("none checked"))
        : checked == total
          ? catalogue.text(translatable("all checked"))
          : count(
            checked, translatable(one: "{{count}} checked", other: "{{count}} checked"), catalogue)
    ]
    if dated > 0 {
      parts.append(
        count(
          dated,
          translatable(one: "{{count}} with a due date", other: "{{count}} with due dates"),
          catalogue))
    }
    return parts.joined(separator: ", ")
  }

  /// "1 item", "5,000 items": the form by the number, its digits grouped.
  static func count(_ number: Int, _ phrase: CountedPhrase, _ catalogue: Catalogue) -> String {
    catalogue.text(phrase, count: number).replacingOccurrences(
      of: String(number), with: grouped(number, catalogue.language))
  }

  /// A count with a comma between its thousands: "12,500".
  static func grouped(_ number: Int, _ language: Language = .english) -> String {
    let digits = String(number.magnitude)
    let separator: Character =
      switch language {
      case .russian: "\u{00A0}"
      case .german: "."
      default: ","
      }
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(separator) }
      out.append(digit)
    }
    return number < 0 ? "-" + out : out
  }
}
