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
  profile("kept-gzip") { sink &+= application.respond(to: gzipGet).body.count }
  report(
    "GET /lists/2 kept, gzipped (\(gzipped.body.count) bytes)",
    measureCPU(20_000) { sink &+= application.respond(to: gzipGet).body.count }, goal: 5_000)
}

/// `bench-web --memo-memory N`: the resident memory one kept list page
/// takes against what the memo counts for it (`ResponseMemo.cost`), for
/// N keys (the same visitor's cookie with one more cookie each), kept as a
/// browser's request keeps it (gzipped alone), then for N others asked for
/// plainly and then with gzip (both forms kept).
@MainActor
func measureMemoMemory(_ application: Application, _ get: Request, keys: Int) {
  func residentBytes() -> Int {
    let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?
      .split(separator: " ")
    return (fields.flatMap { Int($0[1]) } ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
  let cookie = get.headerFields[.cookie] ?? ""
  func requests(_ name: String, encoding: String?) -> [Request] {
    (0..<keys).map { number in
      var request = get
      request.head.headerFields[.cookie] = cookie + "; \(name)=\(number)"
      if let encoding { request.head.headerFields[.acceptEncoding] = encoding }
      return request
    }
  }
  // Once before measuring, so that what the first pages allocate for good
  // (caches, the templates' buffers) is not counted against the memo.
  for request in requests("w", encoding: nil).prefix(100) {
    sink &+= application.respond(to: request).body.count
  }
  func measure(_ label: String, _ passes: [[Request]]) {
    let before = residentBytes()
    let counted = application.memoUsage
    for index in 0..<keys {
      for pass in passes { sink &+= application.respond(to: pass[index]).body.count }
    }
    let after = residentBytes()
    let usage = application.memoUsage
    let kept = usage.answers - counted.answers
    print(
      "memo, \(label): \(kept) pages kept; resident per kept page "
        + "\(Int(Double(after - before) / Double(kept))) bytes, counted "
        + "\(Int(Double(usage.bytes - counted.bytes) / Double(kept))) bytes")
  }
  measure("gzipped alone (a browser's)", [requests("b", encoding: "gzip, deflate, br, zstd")])
  measure(
    "plain and gzipped", [requests("p", encoding: nil), requests("p", encoding: "gzip")])
}
