import Testing

@testable import Support

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

@Suite struct LRUCacheBudgetTests {
  @Test func forgetsTheOldestUntilANewValueFits() {
    var cache = LRUCache<String, Int>(budget: 100)
    cache.setValue(1, forKey: "a", cost: 40)
    cache.setValue(2, forKey: "b", cost: 40)
    #expect(cache.totalCost == 80)
    _ = cache.value(forKey: "a")  // b is now the oldest
    cache.setValue(3, forKey: "c", cost: 30)  // 110 > 100: b goes
    #expect(cache.value(forKey: "b") == nil)
    #expect(cache.totalCost == 70)
    cache.setValue(4, forKey: "d", cost: 100)  // a and c both go
    #expect(cache.count == 1)
    #expect(cache.totalCost == 100)
    #expect(cache.value(forKey: "a") == nil && cache.value(forKey: "c") == nil)
    #expect(cache.value(forKey: "d") == 4)
  }

  @Test func aValueLargerThanTheBudgetIsNotKeptAndTakesTheOldOneAway() {
    var cache = LRUCache<String, Int>(budget: 100)
    cache.setValue(1, forKey: "a", cost: 10)
    cache.setValue(2, forKey: "b", cost: 10)
    cache.setValue(3, forKey: "a", cost: 101)
    #expect(cache.value(forKey: "a") == nil, "never the value it replaced")
    #expect(cache.value(forKey: "b") == 2)
    #expect(cache.totalCost == 10)
  }

  @Test func replacingAValueCountsOnlyItsNewCost() {
    var cache = LRUCache<String, Int>(budget: 100)
    cache.setValue(1, forKey: "a", cost: 60)
    cache.setValue(2, forKey: "a", cost: 70)
    #expect(cache.count == 1)
    #expect(cache.totalCost == 70)
    cache.removeValue(forKey: "a")
    #expect(cache.totalCost == 0)
    #expect(cache.count == 0)
  }

  @Test func aCountAndABudgetTogether() {
    var cache = LRUCache<Int, Int>(capacity: 3, budget: 1_000)
    for key in 0..<10 { cache.setValue(key, forKey: key, cost: 1) }
    #expect(cache.count == 3)
    #expect(cache.totalCost == 3)
    #expect((7..<10).allSatisfy { cache.value(forKey: $0) == $0 })
  }

  /// Many keeps through a small budget: what is kept is always the newest
  /// values that fit, and the places are reused (the arrays stop growing).
  @Test func placesAreReusedAndTheCostStaysWithinTheBudget() {
    var cache = LRUCache<Int, [UInt8]>(budget: 10_000)
    for key in 0..<5_000 {
      let size = 100 + (key * 37) % 900
      cache.setValue([UInt8](repeating: 1, count: size), forKey: key, cost: size)
      #expect(cache.totalCost <= 10_000)
    }
    var newestFirst = 0
    var key = 4_999
    while let value = cache.value(forKey: key) {
      newestFirst += value.count
      key -= 1
    }
    #expect(newestFirst == cache.totalCost, "the kept ones are exactly the newest")
    #expect(newestFirst + 100 + ((key * 37) % 900) > 10_000, "and the next older did not fit")
    #expect(cache.entries.count < 200)
  }
}
