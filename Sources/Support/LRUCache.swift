/// A bounded map that forgets the least recently used entry first.
///
/// Bounded by a count (`capacity`), by a budget of what its entries cost
/// (`budget`, in whatever unit the caller gives each entry's `cost`: the
/// response memo counts bytes), or both. Keeping a value forgets the
/// oldest entries until it fits; each entry is forgotten at most once, so
/// a keep costs O(1) amortised. A value that costs more than the whole
/// budget is not kept.
///
/// Entries live in arrays linked by index (no per-entry class allocation),
/// which keeps 10,000 cached visitors within a few KiB each; a forgotten
/// entry's value is dropped at once, its place reused by the next one. Not
/// thread-safe: its users hold it in a `LockedValue`.
///
/// `@usableFromInline` as well as `package`: without it, Swift 6.3 does not
/// specialise a `package` generic type's `@inlinable` methods in another
/// module, and every look-up ran the generic code, instantiating metadata.
@usableFromInline package struct LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  @usableFromInline struct Entry: Sendable {
    @usableFromInline var key: Key
    /// Nil once the entry is forgotten (its place is then free).
    @usableFromInline var value: Value?
    @usableFromInline var cost: Int
    @usableFromInline var newer: Int  // -1: none
    @usableFromInline var older: Int

    @usableFromInline init(key: Key, value: Value, cost: Int) {
      self.key = key
      self.value = value
      self.cost = cost
      self.newer = -1
      self.older = -1
    }
  }

  @usableFromInline let capacity: Int
  @usableFromInline let budget: Int
  @usableFromInline var slots: [Key: Int] = [:]
  @usableFromInline var entries: [Entry] = []
  /// Places of forgotten entries, reused before the arrays grow.
  @usableFromInline var free: [Int] = []
  @usableFromInline var newest = -1
  @usableFromInline var oldest = -1
  /// What the kept entries cost together, at most `budget`.
  @usableFromInline package private(set) var totalCost = 0

  /// At most `capacity` entries, whose costs add up to at most `budget`.
  @inlinable package init(capacity: Int = .max, budget: Int = .max) {
    self.capacity = max(0, capacity)
    self.budget = max(0, budget)
  }

  @inlinable package var count: Int { slots.count }

  /// The value for `key`, which becomes the most recently used.
  @inlinable package mutating func value(forKey key: Key) -> Value? {
    guard let slot = slots[key] else { return nil }
    moveToFront(slot)
    return entries[slot].value
  }

  /// Keeps `value` for `key` as the most recently used, forgetting the
  /// least recently used entries until it fits; a value costing more than
  /// the whole budget is not kept (and any older value of `key` is
  /// forgotten, never left standing for it).
  @inlinable package mutating func setValue(_ value: Value, forKey key: Key, cost: Int = 0) {
    removeValue(forKey: key)
    guard capacity > 0, cost <= budget else { return }
    while oldest >= 0, slots.count >= capacity || totalCost + cost > budget {
      removeValue(forKey: entries[oldest].key)
    }
    let entry = Entry(key: key, value: value, cost: cost)
    let slot: Int
    if let reused = free.popLast() {
      slot = reused
      entries[slot] = entry
    } else {
      slot = entries.count
      entries.append(entry)
    }
    slots[key] = slot
    totalCost += cost
    pushFront(slot)
  }

  /// Forgets `key`: its value is dropped now and its place reused.
  @inlinable package mutating func removeValue(forKey key: Key) {
    guard let slot = slots.removeValue(forKey: key) else { return }
    unlink(slot)
    totalCost -= entries[slot].cost
    entries[slot].value = nil
    entries[slot].cost = 0
    free.append(slot)
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
