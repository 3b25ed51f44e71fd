// bench-store: the costs of ChecklistStore that a request pays.
//   swift build -c release --product bench-store && .build/release/bench-store
// Data goes to .build-bench/ in the current directory (a real disk, not
// tmpfs, so that fsync costs what it will cost in production).
import CBenchSupport
import ChecklistsModel
import FileSystem
import Foundation
import Logging
import Storage

#if canImport(Glibc)
  import Glibc
#endif

let root = FileManager.default.currentDirectoryPath + "/.build-bench/store"
try? FileManager.default.removeItem(atPath: root)
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
let logger = Logger(label: "bench-store")

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func format(_ nanoseconds: Double) -> String {
  nanoseconds < 10_000
    ? String(format: "%.0f ns", nanoseconds) : String(format: "%.3f ms", nanoseconds / 1e6)
}

func model(lists: Int, items: Int) -> DataModel {
  var model = DataModel()
  for l in 0..<lists {
    let id = try! model.addList(name: "List \(l)", icon: .groceries)
    for i in 0..<items { try! model.addItem(text: "Thing to do number \(i)", toList: id) }
  }
  return model
}

func seed(_ store: ChecklistStore, _ visitor: VisitorDirectory, _ value: DataModel) {
  _ = try! store.update(visitor, initial: { _ in value }, { _ in })
}

/// Times `body` once per sample; returns sorted nanoseconds.
func samples(_ count: Int, _ body: () -> Void) -> [Double] {
  var result: [Double] = []
  result.reserveCapacity(count)
  for _ in 0..<count {
    let start = now()
    body()
    result.append(Double(now() - start))
  }
  return result.sorted()
}

print("data directory: \(root)")

func heapInUse() -> Int { Int(bench_heap_in_use()) }

/// `--model-memory`: what a cached model takes in memory against its
/// file's length, for several shapes of a visitor's lists: the measure
/// behind `ChecklistStore.modelFootprint`. Only this, then exits.
func modelMemory() {
  let shapes = [(1, 5), (1, 20), (3, 20), (1, 200), (5, 100), (1, 1_000)]
  print("shape (lists × items): file bytes, heap bytes per cached model, ratio")
  for (lists, items) in shapes {
    let visitors = max(200, 400_000 / (lists * items * 10))
    let writer = ChecklistStore(
      configuration: .init(dataDirectory: root, cacheCapacity: 0, durable: false), logger: logger)
    let directories = (0..<visitors).map {
      VisitorDirectory(
        dataDirectory: root, visitorID: String(format: "m%d-%d-%026x", lists, items, $0))
    }
    for directory in directories { seed(writer, directory, model(lists: lists, items: items)) }
    let fileBytes =
      (try? FileManager.default.attributesOfItem(atPath: directories[0].checklistsPath)[.size])
      as? Int ?? 0
    let store = ChecklistStore(
      configuration: .init(dataDirectory: root, cacheCapacity: visitors), logger: logger)
    let before = heapInUse()
    for directory in directories { _ = try! store.load(directory) }
    let perModel = Double(heapInUse() - before) / Double(visitors)
    withExtendedLifetime(directories) {}
    print(
      String(
        format: "%d × %d: %d, %.0f, %.2f (estimate %d)", lists, items, fileBytes, perModel,
        perModel / Double(fileBytes),
        ChecklistStore.modelFootprint.bytes(storedBytes: Int64(fileBytes))))
  }
}
if CommandLine.arguments.contains("--model-memory") {
  modelMemory()
  exit(0)
}

// 1. A cached load: stat + cache lookup.
do {
  let store = ChecklistStore(configuration: .init(dataDirectory: root), logger: logger)
  let visitor = VisitorDirectory(dataDirectory: root, visitorID: "0123456789abcdef0123456789abcdef")
  seed(store, visitor, model(lists: 3, items: 20))
  let rounds = 200_000
  var lists = 0
  let start = now()
  for _ in 0..<rounds { lists &+= try! store.load(visitor)!.lists.count }
  let per = Double(now() - start) / Double(rounds)
  let statStart = now()
  for _ in 0..<rounds { lists &+= try! FileIdentity.of(visitor.checklistsPath) == nil ? 0 : 1 }
  let statPer = Double(now() - statStart) / Double(rounds)
  print(
    "cached load (3 lists × 20 items): \(format(per)) per load (goal ≤ 2 µs), of which stat(2) alone \(format(statPer)) [\(lists)]"
  )
}

// 2. Toggle + durable write, 20-item list.
func toggles(items: Int, rounds: Int, label: String, goal: String) {
  let store = ChecklistStore(configuration: .init(dataDirectory: root), logger: logger)
  let visitor = VisitorDirectory(dataDirectory: root, visitorID: "toggle-\(items)")
  seed(store, visitor, model(lists: 1, items: items))
  let list = try! store.load(visitor)!.lists[0]
  var n = 0
  let times = samples(rounds) {
    let item = list.items[n % items].id
    n += 1
    _ = try! store.update(
      visitor, initial: { $0! }, { try $0.toggleItem(id: item, inList: list.id) })
  }
  print(
    "\(label): median \(format(percentile(times, 0.5))), p99 \(format(percentile(times, 0.99)))\(goal)"
  )
}
toggles(
  items: 20, rounds: 1_000, label: "toggle + durable write, 20 items", goal: " (goal median ≤ 1 ms)"
)
toggles(items: 5_000, rounds: 50, label: "toggle + durable write, 5,000 items", goal: "")

// 3. A cold load (decode) of 5,000 items.
do {
  let visitor = VisitorDirectory(dataDirectory: root, visitorID: "toggle-5000")
  let times = samples(20) {
    let store = ChecklistStore(configuration: .init(dataDirectory: root), logger: logger)
    _ = try! store.load(visitor)
  }
  print("uncached load (decode), 5,000 items: median \(format(percentile(times, 0.5)))")
}

// 4. Memory of 10,000 cached visitors, 3 lists × 20 items each.
do {
  let visitors = 10_000
  let writer = ChecklistStore(
    configuration: .init(dataDirectory: root, cacheCapacity: 0, durable: false), logger: logger)
  let template = model(lists: 3, items: 20)
  let directories = (0..<visitors).map {
    VisitorDirectory(dataDirectory: root, visitorID: String(format: "%032x", $0))
  }
  for directory in directories { seed(writer, directory, template) }

  func residentBytes() -> Int {
    let fields =
      (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?
      .split(separator: " ").compactMap { Int($0) } ?? []
    return fields.count > 1 ? fields[1] * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
  }
  let store = ChecklistStore(
    configuration: .init(dataDirectory: root, cacheCapacity: visitors), logger: logger)
  let heapBefore = heapInUse()
  let rssBefore = residentBytes()
  for directory in directories { _ = try! store.load(directory) }
  let heapAfter = heapInUse()
  let rssAfter = residentBytes()
  precondition(store.cachedCount == visitors)
  // Alive past the count: freed after their last use (the loop above), the
  // directories' paths would be subtracted from what the cache holds.
  withExtendedLifetime(directories) {}
  print(
    String(
      format:
        "memory per cached visitor (3 × 20 items, %d visitors): %.2f KiB (mallinfo2 in-use delta), %.2f KiB (RSS delta) (goal ≤ 8 KiB)",
      visitors, Double(heapAfter - heapBefore) / Double(visitors) / 1024,
      Double(rssAfter - rssBefore) / Double(visitors) / 1024))
}
