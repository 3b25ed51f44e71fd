/// What a decoded document is taken to cost in memory, worked out from the
/// length of the stored version it stands for (`DocumentVersion.size`):
/// known without looking at the value, so keeping one costs nothing more,
/// and in step with it, since a value decoded from more bytes holds more
/// strings and items. A cache of decoded values (`VersionedFile`) is
/// bounded by these estimates.
package struct MemoryFootprint: Sendable {
  /// Bytes of memory per KiB stored (a factor in 1,024ths).
  package var perStoredKiB: Int
  /// Bytes of memory per entry besides: the cache's slot, the key, the
  /// value's fixed parts.
  package var perEntry: Int

  package init(perStoredKiB: Int, perEntry: Int) {
    self.perStoredKiB = perStoredKiB
    self.perEntry = perEntry
  }

  /// No cost: a cache bounded by its count alone.
  package static let uncounted = MemoryFootprint(perStoredKiB: 0, perEntry: 0)

  /// The estimate for a version of `storedBytes` bytes.
  @inlinable
  package func bytes(storedBytes: Int64) -> Int {
    let stored = Int(clamping: max(storedBytes, 0))
    return perEntry + stored / 1024 * perStoredKiB + stored % 1024 * perStoredKiB / 1024
  }
}
