import ChecklistsWeb
import FastCGI
import Foundation
import HTTPTypes
import Storage

/// Returning visitors the server has not seen since it started, or not
/// for long enough that every cache has let them go: what each page of
/// `scripts/bench`'s 20,000 rotating visitors costs, in process. Each is
/// `owner`'s directory copied under a new visitor id, asking for the same
/// list with its own cookie.
struct ColdVisitors {
  let requests: [Request]

  init(data: String, owner: String, path: String, count: Int, cookieDay: Int) throws {
    let source = VisitorDirectory(dataDirectory: data, visitorID: owner).path
    var requests: [Request] = []
    requests.reserveCapacity(count)
    for _ in 0..<count {
      let visitor = VisitorID()
      let target = VisitorDirectory(dataDirectory: data, visitorID: visitor.hex).path
      try FileManager.default.createDirectory(
        atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try FileManager.default.copyItem(atPath: source, toPath: target)
      requests.append(
        Request(
          method: .get, path: path,
          headerFields: [.cookie: "visitor=\(visitor.hex).\(cookieDay); ChecklistIndex=0"]))
    }
    self.requests = requests
  }
}

/// `bench-web --cold-only`: the list page for 20,000 visitors in turn on
/// an application with the default caches, after one round through them
/// (so the caches are full and every page evicts another visitor's), as
/// wall and CPU time per page, and the resident memory after.
@MainActor
func benchmarkColdVisitors(_ application: Application, _ visitors: ColdVisitors) {
  var turn = 0
  func next() -> Int {
    turn = turn == visitors.requests.count - 1 ? 0 : turn + 1
    return application.respond(to: visitors.requests[turn]).body.count
  }
  for _ in visitors.requests { sink &+= next() }
  let count = visitors.requests.count
  report(
    "GET /lists/2, \(count) visitors in turn (every cache missed)",
    measure(count / 5) { sink &+= next() }, goal: 30_000)
  report(
    "GET /lists/2, \(count) visitors in turn (every cache missed), CPU time",
    measureCPU(count / 5) { sink &+= next() }, goal: 30_000)
  let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
  let resident = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? "VmRSS: ?"
  print("  (resident memory after: \(resident.dropFirst(6).trimmingCharacters(in: .whitespaces)))")
  for cache in application.cacheUsage {
    print(
      "  (\(cache.cache): \(cache.entries) entries, \(cache.bytes / 1024) of \(cache.budget / 1024) KiB)"
    )
  }
}
