import ChecklistsWeb
import FastCGI
import Foundation
import HTTPTypes

/// What gzip costs on the list page: zlib at the cheapest, the default and
/// the smallest level (the memo compresses a kept page once at the
/// smallest; nginx compresses any other page at the cheapest), and a kept
/// page sent gzipped from the memo.
@MainActor
func benchmarkCompression(_ application: Application, _ get: Request) {
  let plain = application.respond(to: get)
  for level: Int32 in [1, 6, 9] {
    let size = Gzip.compress(plain.body, level: level).count
    report(
      "Gzip.compress level \(level) (list page, \(plain.body.count) → \(size) bytes)",
      measureCPU(2_000) { sink &+= Gzip.compress(plain.body, level: level).count },
      goal: 200_000)
  }
  var gzipGet = get
  gzipGet.head.headerFields[.acceptEncoding] = "gzip, deflate, br, zstd"
  let gzipped = application.respond(to: gzipGet)
  precondition(gzipped.headerFields[.contentEncoding] == "gzip")
  report(
    "GET /lists/2 kept, gzipped (\(gzipped.body.count) bytes)",
    measureCPU(20_000) { sink &+= application.respond(to: gzipGet).body.count }, goal: 5_000)
}

/// `bench-web --memo-memory N`: the resident memory one kept list page
/// takes, plain and gzipped, against what the memo counts for it
/// (`ResponseMemo.cost`): N keys (the same visitor's cookie with one more
/// cookie each) asked for twice, plainly then with gzip.
@MainActor
func measureMemoMemory(_ application: Application, _ get: Request, keys: Int) {
  func residentBytes() -> Int {
    let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?
      .split(separator: " ")
    return (fields.flatMap { Int($0[1]) } ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
  let cookie = get.headerFields[.cookie] ?? ""
  let requests = (0..<keys).map { number in
    var request = get
    request.head.headerFields[.cookie] = cookie + "; n=\(number)"
    return request
  }
  // Once before measuring, so that what the first pages allocate for good
  // (caches, the templates' buffers) is not counted against the memo.
  for request in requests.prefix(100) { sink &+= application.respond(to: request).body.count }
  let before = residentBytes()
  let counted = application.memoUsage.bytes
  for request in requests.dropFirst(100) {
    sink &+= application.respond(to: request).body.count
    var gzipped = request
    gzipped.head.headerFields[.acceptEncoding] = "gzip"
    sink &+= application.respond(to: gzipped).body.count
  }
  let after = residentBytes()
  let usage = application.memoUsage
  let perPage = Double(after - before) / Double(keys - 100)
  let countedPerPage = Double(usage.bytes - counted) / Double(keys - 100)
  print(
    "memo: \(usage.answers) pages kept, counted \(usage.bytes) bytes; resident per kept page "
      + "(plain and gzipped) \(Int(perPage)) bytes, counted \(Int(countedPerPage)) bytes")
}
