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

extension ChecklistStore {
  /// The refusal `update` would give for replacing `stored` with `model`
  /// because of the cap (after Recently Deleted made what room it can, as
  /// `update` does), or nil when it fits: what an import's preview shows
  /// before the visitor confirms. Encodes `stored` only when `model` is
  /// over the cap.
  package static func sizeRefusal(_ model: DataModel, replacing stored: DataModel?)
    -> ChecklistsError?
  {
    var model = model
    var encoded = ChecklistsXMLWriter.document(model).count
    guard encoded > Limits.maximumStoredBytes else { return nil }
    let storedBytes = stored.map { Int64(ChecklistsXMLWriter.document($0).count) }
    while StoredSize.isRefused(
      encoded: encoded, model: model, storedBytes: storedBytes, stored: stored),
      model.forgetOldestDeletion()
    {
      encoded = ChecklistsXMLWriter.document(model).count
    }
    let refused = StoredSize.isRefused(
      encoded: encoded, model: model, storedBytes: storedBytes, stored: stored)
    return refused ? .storageFull(limit: Limits.maximumStoredBytes) : nil
  }
}
