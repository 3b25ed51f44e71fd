import FileSystem
// bench-preferences: what a request pays for preferences.
//
//   swift build -c release --product bench-preferences
//   .build/release/bench-preferences
//
// Prints the cost of a cached typed read (goal: at most 1 µs) and of a
// request scope's durable commit that changed one key (goal: median at most
// 1 ms), with its p99. The files go to a directory under the current one:
// durability needs a real disk, and /tmp may be a tmpfs.
import Foundation
import Logging
import Preferences

#if canImport(Glibc)
  import Glibc
#endif

func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

var logger = Logger(label: "bench-preferences")
logger.logLevel = .error
let root = FileManager.default.currentDirectoryPath + "/.bench-preferences-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: root) }
let directory = root + "/visitor"

let defaults = Defaults(logger: logger, durable: true)
defaults.register(defaults: ["ChecklistIndex": -1, "FirstTime": true, "OpenLastList": true])
defaults.declareCookieBacked("ChecklistIndex", as: .integer)
let cookies = ["ChecklistIndex": "2"]

// A visitor with a realistic handful of keys.
let setup = defaults.visitor(directory: directory, cookieValues: cookies)
setup.set(false, forKey: "FirstTime")
setup.set(true, forKey: "HideCheckedItems")
setup.set("Groceries", forKey: "LastListName")
_ = try setup.commit()

// Cached typed reads: one scope, many reads of each kind.
let scope = defaults.visitor(directory: directory, cookieValues: cookies)
_ = scope.bool(forKey: "FirstTime")  // loads the domain once
let reads = 1_000_000
var sink = 0
let readStart = now()
for index in 0..<reads {
  switch index & 3 {
  case 0: sink &+= scope.integer(forKey: "ChecklistIndex")
  case 1: sink &+= scope.bool(forKey: "OpenLastList") ? 1 : 0
  case 2: sink &+= scope.bool(forKey: "HideCheckedItems") ? 1 : 0
  default: sink &+= scope.string(forKey: "LastListName")?.utf8.count ?? 0
  }
}
let readNanoseconds = Double(now() - readStart) / Double(reads)

// Opening a scope and its first read (stat + cache look-up).
let opens = 100_000
let openStart = now()
for _ in 0..<opens {
  let fresh = defaults.visitor(directory: directory, cookieValues: cookies)
  sink &+= fresh.bool(forKey: "FirstTime") ? 1 : 0
}
let openNanoseconds = Double(now() - openStart) / Double(opens)

// Durable commits of one changed key each.
let commits = 2_000
var samples: [Double] = []
samples.reserveCapacity(commits)
for index in 0..<commits {
  let request = defaults.visitor(directory: directory, cookieValues: cookies)
  let start = now()
  request.set(index, forKey: "Counter")
  _ = try request.commit()
  samples.append(Double(now() - start) / 1_000)
}
samples.sort()

// The same commits without fsync: what the module itself costs.
let quick = Defaults(logger: logger, durable: false)
var quickSamples: [Double] = []
for index in 0..<commits {
  let request = quick.visitor(directory: directory, cookieValues: cookies)
  let start = now()
  request.set(index + commits, forKey: "Counter")
  _ = try request.commit()
  quickSamples.append(Double(now() - start) / 1_000)
}
quickSamples.sort()

// The disk's floor: FileSystem's durable atomic write of a file this size.
let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/Preferences.plist"))
var floorSamples: [Double] = []
for _ in 0..<200 {
  let start = now()
  try AtomicFile.write(bytes, to: root + "/floor.plist", durable: true)
  floorSamples.append(Double(now() - start) / 1_000)
}
floorSamples.sort()

print("cached typed read:        \(String(format: "%.1f", readNanoseconds)) ns (goal <= 1000 ns)")
print("open scope + first read:  \(String(format: "%.2f", openNanoseconds / 1000)) µs")
print(
  "durable commit, one key:  median \(String(format: "%.0f", percentile(samples, 0.5))) µs, "
    + "p99 \(String(format: "%.0f", percentile(samples, 0.99))) µs over \(commits) "
    + "(goal: median <= 1000 µs)")
print(
  "commit without fsync:     median \(String(format: "%.0f", percentile(quickSamples, 0.5))) µs, "
    + "p99 \(String(format: "%.0f", percentile(quickSamples, 0.99))) µs")
print(
  "disk floor (AtomicFile.write durable, \(bytes.count) B): median "
    + "\(String(format: "%.0f", percentile(floorSamples, 0.5))) µs, "
    + "p99 \(String(format: "%.0f", percentile(floorSamples, 0.99))) µs")
if sink == 42 { print("") }  // keeps the reads from being optimised away
