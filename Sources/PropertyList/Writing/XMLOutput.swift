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
package struct XMLOutput {
  /// Past this count, the output is full.
  package let limit: Int
  /// The bytes written so far, kept or not; once past `limit`, no longer all of them.
  package private(set) var count = 0
  /// The bytes written so far, when they are kept; else empty.
  package private(set) var bytes: [UInt8] = []
  private let keepsBytes: Bool

  /// An output that counts bytes without keeping them, full past `limit`.
  package init(countingUpTo limit: Int) {
    self.limit = limit
    keepsBytes = false
  }

  /// An output that keeps the bytes, full past `limit`, with `capacity` reserved.
  package init(keepingUpTo limit: Int = .max, reserving capacity: Int = 0) {
    self.limit = limit
    keepsBytes = true
    bytes.reserveCapacity(min(capacity, limit))
  }

  package mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    count += bytes.count
    if keepsBytes { self.bytes.append(contentsOf: bytes) }
  }

  package mutating func append(_ byte: UInt8) {
    count += 1
    if keepsBytes { bytes.append(byte) }
  }

  package mutating func append(repeating byte: UInt8, count: Int) {
    self.count += count
    if keepsBytes { bytes.append(contentsOf: repeatElement(byte, count: count)) }
  }

  /// True once more than `limit` bytes were written.
  package var isFull: Bool { count > limit }
}
