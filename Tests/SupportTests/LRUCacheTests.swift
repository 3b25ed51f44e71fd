import Support
import Testing

@Suite struct LRUCacheTests {
  @Test func evictsTheLeastRecentlyUsed() {
    var cache = LRUCache<String, Int>(capacity: 2)
    cache.setValue(1, forKey: "a")
    cache.setValue(2, forKey: "b")
    #expect(cache.value(forKey: "a") == 1)
    cache.setValue(3, forKey: "c")  // evicts b
    #expect(cache.value(forKey: "b") == nil)
    cache.removeValue(forKey: "a")
    cache.setValue(4, forKey: "a")
    cache.setValue(5, forKey: "d")
    #expect(cache.count == 2)
    #expect(cache.value(forKey: "a") == 4)
    #expect(cache.value(forKey: "d") == 5)
    #expect(cache.value(forKey: "c") == nil)
  }
}
