/// Where `ChecklistsXMLWriter` puts what it writes.
protocol XMLOutput {
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
  mutating func append(_ byte: UInt8)
  mutating func append(repeating byte: UInt8, count: Int)
  /// True once the output wants no more: the writer then stops at the next list, item or
  /// deletion.
  var isFull: Bool { get }
}

extension [UInt8]: XMLOutput {
  mutating func append(repeating byte: UInt8, count: Int) {
    append(contentsOf: repeatElement(byte, count: count))
  }

  var isFull: Bool { false }
}

/// The bytes a document would have, counted without being kept, up to a limit: past it
/// the count is full and the writer stops, so measuring a model costs no more than its
/// first `limit` bytes (and the list, item or deletion that passes it).
struct ByteCount: XMLOutput {
  /// Past this count, the output is full.
  let limit: Int
  /// The bytes written so far; once past `limit`, no longer all of them.
  private(set) var count = 0

  init(limit: Int) {
    self.limit = limit
  }

  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    count += bytes.count
  }

  mutating func append(_ byte: UInt8) {
    count += 1
  }

  mutating func append(repeating byte: UInt8, count: Int) {
    self.count += count
  }

  var isFull: Bool { count > limit }
}

/// The bytes of a document, kept up to a limit: past it the output is full and the writer
/// stops, so a model that does not fit costs no more than its first `limit` bytes.
struct BoundedBytes: XMLOutput {
  /// Past this count, the output is full.
  let limit: Int
  /// The bytes written so far; once past `limit`, no longer all of them.
  private(set) var bytes: [UInt8] = []

  init(limit: Int, reserving capacity: Int) {
    self.limit = limit
    bytes.reserveCapacity(min(capacity, limit))
  }

  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes.append(contentsOf: bytes)
  }

  mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  mutating func append(repeating byte: UInt8, count: Int) {
    bytes.append(contentsOf: repeatElement(byte, count: count))
  }

  var isFull: Bool { bytes.count > limit }
}
