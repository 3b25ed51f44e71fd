import ChecklistsModel

/// The cap on one visitor's stored checklists (`Limits.maximumStoredBytes`),
/// checked on the encoded bytes before they are written, so that it is
/// exact whatever the texts hold (XML escapes `&` as five bytes).
///
/// The size is counted as if every item were checked: `<false/>` is one
/// byte longer than `<true/>`, and unchecking an item of a full visitor must
/// not be refused. A change is refused only when it makes that count both
/// larger than the cap and larger than it was, so deleting, toggling and
/// shortening always pass, even for a file written before the cap existed.
enum StoredSize {
  /// The size of `encoded` bytes of `model`, every item counted as checked.
  static func counted(encoded: Int, model: DataModel) -> Int {
    encoded - model.lists.reduce(0) { $0 + $1.uncheckedCount }
  }

  /// Throws `.storageFull` when the change from `stored` (its file `storedBytes`
  /// long) to `model` (`encoded` bytes) grows past the cap.
  static func check(
    encoded: Int, model: DataModel, storedBytes: Int64?, stored: DataModel?
  ) throws(ChecklistsError) {
    if isRefused(encoded: encoded, model: model, storedBytes: storedBytes, stored: stored) {
      throw .storageFull(limit: Limits.maximumStoredBytes)
    }
  }

  /// True when `check` would throw.
  static func isRefused(
    encoded: Int, model: DataModel, storedBytes: Int64?, stored: DataModel?
  ) -> Bool {
    let limit = Limits.maximumStoredBytes
    guard encoded > limit else { return false }
    let after = counted(encoded: encoded, model: model)
    guard after > limit else { return false }
    let before = stored.map { counted(encoded: Int(storedBytes ?? 0), model: $0) } ?? 0
    return after > before
  }
}
