/// What a share link lets its holder do with the list: look at it, or
/// also change its items. The two links of a list are independent: each
/// has its own token, made and revoked on its own, and neither can be
/// worked out from the other.
package enum ShareKind: String, Codable, Sendable, CaseIterable {
  /// The list and its items, no forms; every change refused (`403`).
  case readOnly = "read"
  /// Also add, edit, check and delete items; never rename or delete the
  /// list, and nothing else of the owner's.
  case edit

  /// True when the link may change the list's items.
  package var allowsChanges: Bool { self == .edit }
}
