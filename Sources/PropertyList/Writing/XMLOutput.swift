/// Where `XMLPropertyListWriter` puts what it writes: the bytes of a document kept, or
/// only counted (`count`), up to a limit. Past the limit the output is full and the writer
/// stops at its next entry (a list, an item, a deletion), so measuring or writing a model
/// that does not fit costs no more than its first `limit` bytes.
///
/// One concrete type, not a protocol with a conformance per kind: the writer's parts live
/// in this module and the store's writer calls them from another, where generic parts ran
/// unspecialised, through witness tables, for every tag they wrote (callgrind, `bench-web
/// --profile N check-all`: 5.39 million instructions a Check all of 1,000 items, 5.40
/// million before; 4.89 million when the store wrote its file with its own writer, whose
/// one function per item the parts' calls cost the rest).
///
/// Its appends, and the writer's small parts, are `@inlinable`: the store's writer calls
/// them from its own module once per tag. The bytes are copied into room made ahead in
/// `storage` rather than appended to an array: `Array.append(contentsOf:)` and the call
/// around it cost about 100 instructions a tag, two fifths of writing the file (callgrind,
/// `bench-web --profile N check-all`: 5.20 → 4.24 million instructions a Check all of
/// 1,000 items; a toggle of a 20-item list 264,000 → 239,000).
package struct XMLOutput {
  /// Past this count, the output is full.
  package let limit: Int
  /// The bytes written so far, kept or not; once past `limit`, no longer all of them.
  package var count: Int { written }
  /// The bytes written so far, when they are kept; else empty.
  package var bytes: [UInt8] { keepsBytes ? Array(storage[..<written]) : [] }
  @usableFromInline var written = 0
  /// The bytes written, then room not written yet (zeros); empty when only counting.
  @usableFromInline var storage: [UInt8] = []
  @usableFromInline let keepsBytes: Bool

  /// An output that counts bytes without keeping them, full past `limit`.
  package init(countingUpTo limit: Int) {
    self.limit = limit
    keepsBytes = false
  }

  /// An output that keeps the bytes, full past `limit`, with `capacity` reserved.
  package init(keepingUpTo limit: Int = .max, reserving capacity: Int = 0) {
    self.limit = limit
    keepsBytes = true
    storage = [UInt8](repeating: 0, count: max(min(capacity, limit), 0))
  }

  @inlinable @inline(__always)
  package mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    let start = written
    written += bytes.count
    guard keepsBytes, let source = bytes.baseAddress, !bytes.isEmpty else { return }
    if written > storage.count { makeRoom(for: written) }
    storage.withUnsafeMutableBufferPointer { room in
      (room.baseAddress! + start).update(from: source, count: bytes.count)
    }
  }

  @inlinable @inline(__always)
  package mutating func append(_ byte: UInt8) {
    written += 1
    guard keepsBytes else { return }
    if written > storage.count { makeRoom(for: written) }
    storage[written - 1] = byte
  }

  @inlinable
  package mutating func append(repeating byte: UInt8, count: Int) {
    let start = written
    written += count
    guard keepsBytes, count > 0 else { return }
    if written > storage.count { makeRoom(for: written) }
    for index in start..<written { storage[index] = byte }
  }

  /// Grows `storage` to at least `needed` bytes, doubling it.
  @usableFromInline mutating func makeRoom(for needed: Int) {
    let size = max(needed, storage.count * 2, 256)
    storage.append(contentsOf: repeatElement(0, count: size - storage.count))
  }

  /// True once more than `limit` bytes were written.
  @inlinable
  package var isFull: Bool { written > limit }
}
