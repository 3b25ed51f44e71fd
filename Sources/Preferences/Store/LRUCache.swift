/// A bounded map that forgets the least recently used entry first.
/// Not thread-safe: `Defaults` guards it with its lock.
struct LRUCache<Value> {
  private final class Node {
    let key: String
    var value: Value
    var older: Node?
    weak var newer: Node?
    init(key: String, value: Value) {
      self.key = key
      self.value = value
    }
  }

  let capacity: Int
  private var nodes: [String: Node] = [:]
  private var newest: Node?
  private var oldest: Node?

  init(capacity: Int) { self.capacity = max(1, capacity) }

  var count: Int { nodes.count }

  mutating func value(forKey key: String) -> Value? {
    guard let node = nodes[key] else { return nil }
    moveToFront(node)
    return node.value
  }

  mutating func setValue(_ value: Value, forKey key: String) {
    if let node = nodes[key] {
      node.value = value
      moveToFront(node)
      return
    }
    let node = Node(key: key, value: value)
    nodes[key] = node
    link(node)
    if nodes.count > capacity, let victim = oldest {
      unlink(victim)
      nodes[victim.key] = nil
    }
  }

  mutating func removeValue(forKey key: String) {
    guard let node = nodes.removeValue(forKey: key) else { return }
    unlink(node)
  }

  private mutating func moveToFront(_ node: Node) {
    guard newest !== node else { return }
    unlink(node)
    link(node)
  }

  private mutating func link(_ node: Node) {
    node.older = newest
    node.newer = nil
    newest?.newer = node
    newest = node
    if oldest == nil { oldest = node }
  }

  private mutating func unlink(_ node: Node) {
    let older = node.older
    let newer = node.newer
    older?.newer = newer
    newer?.older = older
    if newest === node { newest = older }
    if oldest === node { oldest = newer }
    node.older = nil
    node.newer = nil
  }
}
