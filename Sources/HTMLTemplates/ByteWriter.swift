/// Where rendered bytes go: a growable buffer of our own, because `Array.append(contentsOf:)`
/// costs tens of instructions per call in uniqueness and capacity checks, and a page makes
/// about fifty appends per list row (measured: 20% of a 20-item page's instructions). The
/// caller's array receives the whole page in one copy at the end.
///
/// Memory comes from Swift's allocator rather than C's `malloc`/`realloc`, so that no module
/// but FastCGI, FileSystem and QRCode calls C. A page rarely outgrows the capacity its
/// renderer asks for; when it does, growth doubles and copies once per doubling.
struct ByteWriter: ~Copyable {
  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    append(source, count: bytes.count)
  }

  @inline(__always)
  mutating func append(_ source: UnsafePointer<UInt8>, count length: Int) {
    if count + length > capacity { grow(to: count + length) }
    (base + count).initialize(from: source, count: length)
    count += length
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
    let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    memory.moveInitialize(from: base, count: count)
    base.deallocate()
    base = memory
    capacity = newCapacity
  }
}
