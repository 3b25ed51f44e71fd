import ChecklistsModel
import Foundation

/// The fields whose values our pages send from a fixed set: anything else
/// did not come from one of them and is refused with `400`.
extension FormData {
  /// An optional non-negative integer field (the add form's `nonce`): nil
  /// when absent, `400` when it is something our pages never send.
  func nonNegativeInteger(_ name: String) throws(WebError) -> Int? {
    guard let value = self[name] else { return nil }
    guard let number = Int(value), number >= 0 else {
      throw WebError.badRequest(
        translatable("The form’s {{field}} is malformed."), [("field", name)])
    }
    return number
  }

  /// A repeating row's toggle's `due`: the due date the row showed
  /// (seconds since 1970), which makes a re-sent check of it a no-op once
  /// the item has moved on. The row's button names it in its address
  /// (`toggle?due=…`: the button's own value is the checkmark), a script
  /// may send it as a field. Nil without it, `400` when malformed.
  func shownDue(query: String) throws(WebError) -> Date? {
    var due = try nonNegativeInteger("due")
    if due == nil, !query.isEmpty, let fields = try? FormDecoder.decode(Array(query.utf8)) {
      due = try fields.nonNegativeInteger("due")
    }
    return due.map { Date(timeIntervalSince1970: Double($0)) }
  }

  /// The toggle's `check` field: `1` checks, `0` unchecks, absent flips;
  /// `400` otherwise.
  func wantedCheck() throws(WebError) -> Bool? {
    switch self["check"] {
    case nil: return nil
    case "1": return true
    case "0": return false
    default:
      throw WebError.badRequest(
        translatable("The form’s {{field}} is neither {{one}} nor {{zero}}."),
        [("field", "check"), ("one", "1"), ("zero", "0")])
    }
  }

  /// The `icon` field: Folder when absent (a new list gets Folder), `400`
  /// when it names no icon.
  func icon() throws(WebError) -> ChecklistIcon {
    guard let value = self["icon"] else { return .folder }
    guard let icon = ChecklistIcon(rawValue: value) else {
      throw WebError.badRequest(
        translatable("The icon “{{typed}}” does not exist."), [("typed", String(value.prefix(40)))])
    }
    return icon
  }
}
