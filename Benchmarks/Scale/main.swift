import ChecklistsModel
import ChecklistsWeb
import Dispatch
import FastCGI
import Foundation
import HTTPTypes
import Logging
import Storage

// Scale: many visitors on disk, a walk over all of them with a bounded
// cache, and long lists. Everything in-process through
// Application.respond(to:), so the figures are the backend's own.
//
//   bench-scale [visitors]      (default 100,000; data under .build-bench/scale)

let visitorCount = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1])! : 100_000
let cacheCapacity = 1_000
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().path
let data = "\(root)/.build-bench/scale-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: data) }
try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Resident memory of this process, from /proc/self/statm.
func residentBytes() -> Int {
  let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
  return (Int(text.split(separator: " ")[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }

let application = try Application(
  configuration: ApplicationConfiguration(
    dataDirectory: data, templatesDirectory: "\(root)/Templates",
    publicDirectory: "\(root)/Public", durable: false, cacheCapacity: cacheCapacity,
    modelCacheCapacity: cacheCapacity),
  logger: Logger(label: "bench-scale"))
let writer = ChecklistStore(
  configuration: .init(dataDirectory: data, cacheCapacity: 1, durable: false),
  logger: Logger(label: "bench-scale"))

/// A visitor with one list of `items` items, written straight to the store.
func makeVisitor(items: Int) throws -> (VisitorID, listID: Int) {
  let visitor = VisitorID()
  let directory = VisitorDirectory(dataDirectory: data, visitorID: visitor.hex)
  let fill: (inout DataModel) throws -> Int = { model in
    let list = try model.addList(name: "Groceries", icon: .groceries)
    for number in 0..<items { try model.addItem(text: "item number \(number)", toList: list) }
    _ = try model.addList(name: "Chores", icon: .chores)
    _ = try model.addList(name: "Trips", icon: .trips)
    return list
  }
  let listID = try writer.update(directory, initial: { _ in DataModel() }, fill)
  return (visitor, listID)
}

/// A returning browser's request: its visitor cookie as renewed today (a
/// cookie from an earlier day would be renewed on every request), without
/// `ChecklistIndex` unless given, so that the answer sets it and is
/// computed (not a kept answer) each time.
func page(_ visitor: VisitorID, _ listID: Int, checklistIndex: Int? = nil) -> Request {
  var cookie = "visitor=\(visitor.hex).\(time(nil) / 86_400)"
  if let checklistIndex { cookie += "; ChecklistIndex=\(checklistIndex)" }
  return Request(method: .get, path: "/lists/\(listID)", headerFields: [.cookie: cookie])
}

/// Median nanoseconds of `body` over `rounds` rounds of `iterations` calls.
func median(rounds: Int = 7, iterations: Int, _ body: () -> Void) -> Double {
  var results: [Double] = []
  for _ in 0..<rounds {
    let start = now()
    for _ in 0..<iterations { body() }
    results.append(Double(now() - start) / Double(iterations))
  }
  return results.sorted()[rounds / 2]
}

// 1. One visitor's page, alone on disk.
let (probe, probeList) = try makeVisitor(items: 20)
let probeRequest = page(probe, probeList)
precondition(application.respond(to: probeRequest).status == 200)
let alone = median(iterations: 2_000) { _ = application.respond(to: probeRequest) }

// 2. The same page with `visitorCount` visitors beside it.
let filling = now()
var visitors: [(VisitorID, Int)] = []
visitors.reserveCapacity(visitorCount)
for _ in 0..<visitorCount { visitors.append(try makeVisitor(items: 3)) }
let fillSeconds = Double(now() - filling) / 1e9
let crowded = median(iterations: 2_000) { _ = application.respond(to: probeRequest) }
print(
  "visitors on disk: \(visitorCount) written in \(String(format: "%.1f", fillSeconds)) s")
print(
  "GET /lists/\(probeList) (20 items): \(Int(alone)) ns alone, \(Int(crowded)) ns beside \(visitorCount) visitors"
)

// 3. A walk over every visitor with a cache of `cacheCapacity`: memory plateaus.
let before = residentBytes()
var checkpoints: [String] = []
let walking = now()
for (index, (visitor, listID)) in visitors.enumerated() {
  let response = application.respond(to: page(visitor, listID))
  precondition(response.status == 200, "status \(response.status)")
  if [1_000, 10_000, visitorCount / 2, visitorCount].contains(index + 1) {
    checkpoints.append("\(index + 1): \(mib(residentBytes()))")
  }
}
let walkSeconds = Double(now() - walking) / 1e9
print(
  "walk over \(visitorCount) visitors (cache capacity \(cacheCapacity)): RSS before \(mib(before)); after "
    + checkpoints.joined(separator: ", ")
    + String(format: "; %.0f µs per uncached page", walkSeconds * 1e6 / Double(visitorCount)))

// 4. Long lists: a page of 5,000 items, and the cost per item.
for items in [100, 1_000, 5_000] {
  let (visitor, listID) = try makeVisitor(items: items)
  let request = page(visitor, listID)
  let size = application.respond(to: request).body.count
  let nanoseconds = median(iterations: items >= 5_000 ? 20 : 200) {
    _ = application.respond(to: request)
  }
  print(
    String(
      format: "GET of a %d-item list: %.2f ms (%d bytes), %.0f ns per item%@", items,
      nanoseconds / 1e6, size, nanoseconds / Double(items),
      items == 5_000 ? (nanoseconds <= 5e6 ? "  (goal ≤ 5 ms: ok)" : "  (goal ≤ 5 ms: OVER)") : ""
    ))
}

func storedOrEmpty(_ stored: DataModel?) -> DataModel { stored ?? DataModel() }

// 5. The largest page one visitor can make under the 2 MiB cap
// (`Limits.maximumStoredBytes`): one list of 1,000-character items of `"`,
// which HTML escapes to six bytes, printed three times a row. Pages over
// 16 KiB are kept by neither cache, so every GET, HEAD and revalidation
// renders it whole.
do {
  let visitor = VisitorID()
  let directory = VisitorDirectory(dataDirectory: data, visitorID: visitor.hex)
  let text = String(repeating: "\"", count: Limits.maximumTextLength)
  var listID = 0
  var full = false
  while !full {
    do {
      try writer.update(directory, initial: storedOrEmpty) { model in
        if listID == 0 { listID = try model.addList(name: "Quotes", icon: .folder) }
        for _ in 0..<50 { try model.addItem(text: text, toList: listID) }
      }
    } catch ChecklistsError.storageFull { full = true }
  }
  // The browser has this list open (its only one: row 0), so the page
  // sets no cookie and may be kept: too large to keep whole, as headers and tag.
  let request = page(visitor, listID, checklistIndex: 0)
  let whole = application.respond(to: request)
  var headOnly = request
  headOnly.head.method = .head
  var revalidation = request
  revalidation.head.headerFields[.ifNoneMatch] = whole.headerFields[.eTag]
  for (name, request) in [
    ("GET", request), ("HEAD", headOnly), ("revalidated GET (304)", revalidation),
  ] {
    let nanoseconds = median(rounds: 5, iterations: 3) { _ = application.respond(to: request) }
    print(
      String(
        format: "%@ of the largest page under the cap (%d items, %d bytes): %.1f ms", name,
        try writer.load(directory)?.checklist(id: listID)?.items.count ?? 0, whole.body.count,
        nanoseconds / 1e6))
  }
}
