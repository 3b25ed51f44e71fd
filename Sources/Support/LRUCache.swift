/// A bounded map that forgets the least recently used entry first.
///
/// Entries live in arrays linked by index (no per-entry class allocation),
/// which keeps 10,000 cached visitors within a few KiB each. Not
/// thread-safe: its users hold it in a `LockedValue`.
package struct LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  @usableFromInline struct Entry: Sendable {
    @usableFromInline var key: Key
    @usableFromInline var value: Value
    @usableFromInline var newer: Int  // -1: none
    @usableFromInline var older: Int

    @usableFromInline init(key: Key, value: Value, newer: Int, older: Int) {
      self.key = key
      self.value = value
      self.newer = newer
      self.older = older
    }
  }

  @usableFromInline let capacity: Int
  @usableFromInline var slots: [Key: Int] = [:]
  @usableFromInline var entries: [Entry] = []
  @usableFromInline var newest = -1
  @usableFromInline var oldest = -1

  @inlinable package init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  @inlinable package var count: Int { slots.count }

  /// The value for `key`, which becomes the most recently used.
  @inlinable package mutating func value(forKey key: Key) -> Value? {
    guard let slot = slots[key] else { return nil }
    moveToFront(slot)
    return entries[slot].value
  }

  @inlinable package mutating func setValue(_ value: Value, forKey key: Key) {
    guard capacity > 0 else { return }
    if let slot = slots[key] {
      entries[slot].value = value
      moveToFront(slot)
      return
    }
    let slot: Int
    if entries.count < capacity {
      slot = entries.count
      entries.append(Entry(key: key, value: value, newer: -1, older: -1))
    } else {
      slot = oldest  // reuse the least recently used entry's place
      unlink(slot)
      let evicted = entries[slot].key
      // A removed entry's key may live in another slot by now.
      if slots[evicted] == slot { slots[evicted] = nil }
      entries[slot] = Entry(key: key, value: value, newer: -1, older: -1)
    }
    slots[key] = slot
    pushFront(slot)
  }

  /// Forgets `key`; its place is reused by a later entry only once the
  /// cache is full, so a removal just unlinks it and marks it oldest.
  @inlinable package mutating func removeValue(forKey key: Key) {
    guard let slot = slots.removeValue(forKey: key) else { return }
    unlink(slot)
    // Keep the slot in the list as the oldest so that it is reused first.
    entries[slot].older = -1
    entries[slot].newer = oldest
    if oldest >= 0 { entries[oldest].older = slot }
    oldest = slot
    if newest < 0 { newest = slot }
  }

  @inlinable mutating func moveToFront(_ slot: Int) {
    guard slot != newest else { return }
    unlink(slot)
    pushFront(slot)
  }

  @inlinable mutating func unlink(_ slot: Int) {
    let newer = entries[slot].newer
    let older = entries[slot].older
    if newer >= 0 { entries[newer].older = older } else { newest = older }
    if older >= 0 { entries[older].newer = newer } else { oldest = newer }
    entries[slot].newer = -1
    entries[slot].older = -1
  }

  @inlinable mutating func pushFront(_ slot: Int) {
    entries[slot].older = newest
    entries[slot].newer = -1
    if newest >= 0 { entries[newest].newer = slot }
    newest = slot
    if oldest < 0 { oldest = slot }
  }
}
