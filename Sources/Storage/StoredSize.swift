import ChecklistsModel
import PropertyList

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

extension StoredSize {
  /// What `model` counts (its XML as `ChecklistsXMLWriter` writes it, every
  /// list item as checked), or nil when it counts more than `limit`: the
  /// count stops there, so a model of 257 MB costs what its first 2 MiB do.
  static func count(_ model: DataModel, upTo limit: Int) -> Int? {
    let counted = tally(model, upTo: limit).count - uncheckedItems(model)
    return counted <= limit ? counted : nil
  }

  /// The bytes of `model` counted until they pass `limit` (as checked),
  /// with its unchecked items' one byte more each: what `count` reads.
  static func tally(_ model: DataModel, upTo limit: Int) -> XMLOutput {
    let unchecked = uncheckedItems(model)
    var tally = XMLOutput(countingUpTo: limit > Int.max - unchecked ? Int.max : limit + unchecked)
    ChecklistsXMLWriter.write(model, to: &tally)
    return tally
  }

  /// The most `model` may count to replace `stored` (whose file is
  /// `storedBytes` long, when known): the cap, or what `stored` counted when
  /// that was more (a file from before the cap, which may still shrink).
  static func ceiling(replacing stored: DataModel?, storedBytes: Int64?) -> Int {
    guard let stored else { return Limits.maximumStoredBytes }
    let before =
      storedBytes.map { counted(encoded: Int($0), model: stored) }
      ?? count(stored, upTo: .max) ?? .max
    return max(Limits.maximumStoredBytes, before)
  }

  /// Makes `model` count at most `ceiling` by forgetting its oldest
  /// deletions of those `forgettable` selects, as few as it takes: what
  /// `forgetOldestDeletion(among:)` one at a time until the model fits
  /// would leave, found by counting each deletion once. The document
  /// writes its deletions first, so the rest is counted without the
  /// forgettable ones (stopping at the ceiling), then those newest first
  /// while they fit: no encoding at all, where forgetting one and
  /// measuring the whole model again took up to 101 encodings of it.
  ///
  /// - Returns: the bytes counted on the way (tests hold it to the ceiling's
  ///   order, not the model's size times its deletions).
  /// - Throws: `.storageFull` when even without any forgettable deletion
  ///   the model counts more than `ceiling` (then `model` is left as it was).
  @discardableResult
  static func makeRoom(
    in model: inout DataModel, ceiling: Int,
    forgetting forgettable: (Deletion) -> Bool = { _ in true }
  ) throws(ChecklistsError) -> Int {
    let whole = tally(model, upTo: ceiling)
    if whole.count - uncheckedItems(model) <= ceiling { return whole.count }
    var rest = model
    rest.forgetOldestDeletions(.max, among: forgettable)
    let restTally = tally(rest, upTo: ceiling)
    var counted = whole.count + restTally.count
    guard let restCount = count(rest, tallied: restTally), restCount <= ceiling else {
      throw .storageFull(limit: Limits.maximumStoredBytes)
    }
    var room = ceiling - restCount - (rest.deletions.isEmpty ? deletedArrayFrame : 0)
    var kept = 0
    for deletion in model.deletions.reversed() where forgettable(deletion) {
      var size = XMLOutput(countingUpTo: max(room, 0))
      ChecklistsXMLWriter.write(deletion, depth: 2, into: &size)
      counted += size.count
      guard size.count <= room else { break }
      room -= size.count
      kept += 1
    }
    let forgettableCount = model.deletions.reduce(0) { $0 + (forgettable($1) ? 1 : 0) }
    model.forgetOldestDeletions(forgettableCount - kept, among: forgettable)
    return counted
  }

  /// `count` of a model from its tally.
  private static func count(_ model: DataModel, tallied tally: XMLOutput) -> Int? {
    tally.isFull ? nil : tally.count - uncheckedItems(model)
  }

  /// What a `deleted` array with members takes beyond an empty one
  /// (`<array>` and `</array>` for `<array/>`), its members aside.
  static let deletedArrayFrame: Int = {
    var empty = XMLOutput(countingUpTo: .max)
    XMLPropertyListWriter.appendArray(key: "deleted", [Void](), depth: 1, to: &empty) { _, _, _ in }
    var framed = XMLOutput(countingUpTo: .max)
    XMLPropertyListWriter.appendArray(key: "deleted", [()], depth: 1, to: &framed) { _, _, _ in }
    return framed.count - empty.count
  }()

  private static func uncheckedItems(_ model: DataModel) -> Int {
    model.lists.reduce(0) { $0 + $1.uncheckedCount }
  }
}

extension ChecklistStore {
  /// The refusal `update` would give for replacing `stored` with `model`
  /// because of the cap (after Recently Deleted made what room it can, as
  /// `update` does), or nil when it fits: what an import's preview shows
  /// before the visitor confirms. Counts, never encodes, and stops at the
  /// cap; `stored` is counted only when `model` is over it.
  package static func sizeRefusal(_ model: DataModel, replacing stored: DataModel?)
    -> ChecklistsError?
  {
    if StoredSize.count(model, upTo: Limits.maximumStoredBytes) != nil { return nil }
    var model = model
    do throws(ChecklistsError) {
      try StoredSize.makeRoom(
        in: &model, ceiling: StoredSize.ceiling(replacing: stored, storedBytes: nil))
    } catch {
      return error
    }
    return nil
  }
}
