import Foundation

/// Where rendered bytes go: a growable buffer of our own, because `Array.append(contentsOf:)`
/// costs tens of instructions per call in uniqueness and capacity checks, and a page makes
/// about fifty appends per list row (measured: 20% of a 20-item page's instructions). The
/// caller's array receives the whole page in one copy at the end.
///
/// Growth uses C's `realloc`, which moves a large block by remapping its pages, not copying
/// them; Swift's allocator has no such call, and allocating and copying on each doubling cost
/// 9.5% more instructions for a 5,000-item page (callgrind, `bench-templates --profile 20
/// --items 5000`: 43.0M → 47.1M per page). So this is the one use of C outside FastCGI,
/// FileSystem and QRCode.
struct ByteWriter: ~Copyable {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = max(capacity, 64)
    guard let memory = malloc(self.capacity) else { fatalError("out of memory") }
    base = memory.assumingMemoryBound(to: UInt8.self)
  }

  deinit { free(base) }

  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    append(source, count: bytes.count)
  }

  @inline(__always)
  mutating func append(_ source: UnsafePointer<UInt8>, count length: Int) {
    if count + length > capacity { grow(to: count + length) }
    let target = UnsafeMutableRawPointer(base + count)
    let from = UnsafeRawPointer(source)
    if length >= 8 && length <= 16 {
      // Most runs between tags and most values are this short: two overlapping word copies
      // instead of a call to memcpy (a 20-item page makes ~600 such appends).
      let head = from.loadUnaligned(as: UInt64.self)
      let tail = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
      target.storeBytes(of: head, as: UInt64.self)
      target.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
    } else if length < 8 {
      var index = 0
      while index < length {
        let byte = from.load(fromByteOffset: index, as: UInt8.self)
        target.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
        index += 1
      }
    } else {
      target.copyMemory(from: from, byteCount: length)
    }
    count += length
  }

  /// Appends `number` in decimal, written in place from its last digit.
  mutating func appendDecimal(_ number: Int) {
    if number < 0 { append(UInt8(ascii: "-")) }
    var magnitude = number.magnitude
    var digits = 1
    var limit: UInt = 10
    while digits < 20, magnitude >= limit {
      digits += 1
      limit = limit &* 10
    }
    if count + digits > capacity { grow(to: count + digits) }
    var position = count + digits
    repeat {
      position -= 1
      base[position] = 0x30 &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
    count += digits
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if count == capacity { grow(to: count + 1) }
    base[count] = byte
    count += 1
  }

  /// Drops the bytes from `mark` on.
  mutating func truncate(to mark: Int) {
    count = min(count, mark)
  }

  private mutating func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    guard let memory = realloc(base, newCapacity) else { fatalError("out of memory") }
    base = memory.assumingMemoryBound(to: UInt8.self)
    capacity = newCapacity
  }
}
