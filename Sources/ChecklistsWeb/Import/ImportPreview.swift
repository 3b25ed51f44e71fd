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
    label: DueDateLabel
  ) -> TemplateValue {
    let pending = stored.pending
    var itemCount = 0
    let rows: [TemplateValue] = pending.lists.map { list in
      itemCount += list.items.count
      return row(list, icons: icons)
    }
    var values: [String: TemplateValue] = [
      "fileName": .string(pending.fileName),
      "format": .string(ImportFormat(rawValue: pending.format)?.name ?? pending.format),
      "uploaded": .string(label.text(pending.created)),
      "uploadedISO": .string(DueDateLabel.machineReadable(pending.created)),
      "summary": .string(summary(lists: pending.lists.count, items: itemCount)),
      "lists": .list(rows),
      "digest": .string(stored.digest),
      "csrf": .string(csrf),
    ]
    if let refusal { values["refusal"] = .string(refusal) }
    return .object(TemplateObject(values))
  }

  /// One list's row: its name, icon and what its items are.
  static func row(_ list: ImportedList, icons: IconLibrary) -> TemplateValue {
    let checked = list.items.count(where: \.checked)
    let dated = list.items.count(where: { $0.dueDate != nil })
    return [
      // As it will be added (cleaned); as the file has it when it cannot be
      // (the preview then shows why).
      "name": .string((try? TextInput.clean(list.name)) ?? list.name),
      "icon": icons.value(for: list.icon),
      "items": .string(count(list.items.count, "item", "items")),
      "details": .string(details(checked: checked, dated: dated, of: list.items.count)),
      "byDueDate": .bool(list.sort == .dueDate),
    ]
  }

  /// "3 lists with 42 items", "1 list with 1 item".
  static func summary(lists: Int, items: Int) -> String {
    "\(count(lists, "list", "lists")) with \(count(items, "item", "items"))"
  }

  /// "2 checked, 1 with a due date"; "none checked" for a list with items
  /// and none of either; empty for an empty list.
  static func details(checked: Int, dated: Int, of total: Int) -> String {
    guard total > 0 else { return "" }
    var parts = [
      checked == 0 ? "none checked" : checked == total ? "all checked" : "\(checked) checked"
    ]
    if dated > 0 { parts.append(dated == 1 ? "1 with a due date" : "\(dated) with due dates") }
    return parts.joined(separator: ", ")
  }

  /// "1 item", "5,000 items".
  static func count(_ number: Int, _ one: String, _ many: String) -> String {
    number == 1 ? "1 \(one)" : "\(grouped(number)) \(many)"
  }

  /// A count with a comma between its thousands: "12,500".
  static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return number < 0 ? "-" + out : out
  }
}
