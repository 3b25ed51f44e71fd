import ChecklistsWeb
import Dispatch
import FastCGI

// Per-request costs of the web layer's pure pieces, in release builds.
// Each figure is the median of 5 runs of a fixed number of iterations.

/// Runs `body` `iterations` times, 5 rounds, and returns the median
/// nanoseconds per iteration.
func measure(_ iterations: Int, _ body: () -> Void) -> Double {
  var rounds: [Double] = []
  for _ in 0..<5 {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { body() }
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    rounds.append(Double(elapsed) / Double(iterations))
  }
  return rounds.sorted()[2]
}

func report(_ name: String, _ nanoseconds: Double, goal: Double) {
  let verdict = nanoseconds <= goal ? "ok" : "OVER GOAL"
  let figure = (nanoseconds * 10).rounded() / 10
  print("\(name): \(figure) ns per call (goal ≤ \(Int(goal)) ns) \(verdict)")
}

var sink = 0

let paths = ["/", "/lists", "/lists/123/items/456/toggle", "/lists/%2e%2e", "/settings/reset"]
report(
  "Router.resolve (5 paths)",
  measure(200_000) {
    for path in paths {
      if case .route = Router.resolve(method: "POST", path: path) { sink &+= 1 }
    }
  }, goal: 5_000)

let csrf = CSRF(secret: .random())
let visitor = VisitorID()
let token = csrf.token(for: visitor)
let body = Array("csrf=\(token)&name=Groceries+for+the+week&icon=groceries".utf8)
report(
  "FormDecoder.decode (3 fields, 111 bytes)",
  measure(200_000) {
    if let form = try? FormDecoder.decode(body) { sink &+= form.fields.count }
  }, goal: 5_000)

report(
  "VisitorID(cookieValue:)",
  measure(500_000) {
    if VisitorID(cookieValue: visitor.hex) != nil { sink &+= 1 }
  }, goal: 1_000)

report(
  "CSRF.token(for:)",
  measure(100_000) { sink &+= csrf.token(for: visitor).utf8.count }, goal: 10_000)

let request = Request(
  method: "POST", path: "/lists",
  headers: [
    "host": "checklists.example", "origin": "https://checklists.example",
    "sec-fetch-site": "same-origin",
  ],
  isHTTPS: true)
report(
  "CSRF.verdict (origin + token)",
  measure(100_000) {
    if csrf.verdict(for: request, visitor: visitor, submittedToken: token).isAllowed { sink &+= 1 }
  }, goal: 10_000)

let page = Array(repeating: UInt8(ascii: "x"), count: 10 * 1024)
report(
  "ETag(body:) of a 10 KiB page",
  measure(20_000) { sink &+= ETag(body: page).value.utf8.count }, goal: 50_000)

let tag = ETag(body: page)
let ifNoneMatch = "W/\"0000000000000000-0\", \"1111111111111111-1\", " + tag.value
report(
  "ETag.matches (3-tag If-None-Match)",
  measure(500_000) { if tag.matches(ifNoneMatch: ifNoneMatch) { sink &+= 1 } }, goal: 2_000)

print("(checksum \(sink))")
