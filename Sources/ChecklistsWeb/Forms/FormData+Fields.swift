import ChecklistsModel

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
