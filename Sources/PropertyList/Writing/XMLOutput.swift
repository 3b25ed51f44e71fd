/// Where `XMLPropertyListWriter` puts what it writes.
package protocol XMLOutput {
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
  mutating func append(_ byte: UInt8)
  mutating func append(repeating byte: UInt8, count: Int)
  /// True once the output wants no more: a writer then stops at its next entry (a list,
  /// an item, a deletion).
  var isFull: Bool { get }
}

extension [UInt8]: XMLOutput {
  package mutating func append(repeating byte: UInt8, count: Int) {
    append(contentsOf: repeatElement(byte, count: count))
  }

  package var isFull: Bool { false }
}

/// The bytes a document would have, counted without being kept, up to a limit: past it
/// the count is full and the writer stops, so measuring a model costs no more than its
/// first `limit` bytes (and the list, item or deletion that passes it).
package struct ByteCount: XMLOutput {
  /// Past this count, the output is full.
  package let limit: Int
  /// The bytes written so far; once past `limit`, no longer all of them.
  package private(set) var count = 0

  package init(limit: Int) {
    self.limit = limit
  }

  package mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    count += bytes.count
  }

  package mutating func append(_ byte: UInt8) {
    count += 1
  }

  package mutating func append(repeating byte: UInt8, count: Int) {
    self.count += count
  }

  package var isFull: Bool { count > limit }
}

/// The bytes of a document, kept up to a limit: past it the output is full and the writer
/// stops, so a model that does not fit costs no more than its first `limit` bytes.
package struct BoundedBytes: XMLOutput {
  /// Past this count, the output is full.
  package let limit: Int
  /// The bytes written so far; once past `limit`, no longer all of them.
  package private(set) var bytes: [UInt8] = []

  package init(limit: Int, reserving capacity: Int) {
    self.limit = limit
    bytes.reserveCapacity(min(capacity, limit))
  }

  package mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes.append(contentsOf: bytes)
  }

  package mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  package mutating func append(repeating byte: UInt8, count: Int) {
    bytes.append(contentsOf: repeatElement(byte, count: count))
  }

  package var isFull: Bool { bytes.count > limit }
}
