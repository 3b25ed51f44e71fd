import ChecklistsModel
import ChecklistsWeb
import Dispatch
import FastCGI
import Foundation
import HTTPTypes
import Interchange
import Logging
import Storage
import TestSupport
import WebTestSupport

// Settings → Import and Export as the backend spends on them, in-process
// (no sockets, release build), on a durable data directory as in
// production: the import of a file of 5,000 items (the upload: its
// multipart and format parsing, the trial on a copy and the pending
// import's write; the preview page; the Confirm's one write) and the JSON
// export of the same 5,000 items. Each figure is the median of 5 rounds;
// each round imports into a visitor of its own, since a visitor's lists
// would soon be full.

/// The median milliseconds of `body` over 5 rounds (each given its round).
func measure(_ body: (Int) throws -> Void) rethrows -> Double {
  var rounds: [Double] = []
  for round in 0..<5 {
    let start = DispatchTime.now().uptimeNanoseconds
    try body(round)
    rounds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
  }
  return rounds.sorted()[2]
}

func report(_ name: String, _ milliseconds: Double, goal: Double? = nil) {
  let figure = (milliseconds * 100).rounded() / 100
  if let goal {
    print(
      "\(name): \(figure) ms (goal ≤ \(Int(goal)) ms) \(milliseconds <= goal ? "ok" : "OVER GOAL")")
  } else {
    print("  \(name): \(figure) ms")
  }
}

// The application is the tests' (`ApplicationHarness`), durable here.
let harness = try ApplicationHarness(directory: TemporaryDirectory("bench-transfer")) {
  $0.durable = true
}
let application = harness.application
let data = harness.data
let csrf = CSRF(secret: try ServerSecret.loadOrCreate(inDirectory: data))
let today = Int(Date().timeIntervalSince1970 / 86_400)

/// A visitor with a cookie of today and their token.
struct Visitor {
  let id = VisitorID()
  var cookie: String { "visitor=\(id.hex).\(today)" }
  var token: String { csrf.token(for: id) }

  func post(_ path: String, _ fields: String) -> Response {
    application.respond(
      to: Request(
        method: .post, path: path,
        headerFields: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"],
        body: Array("csrf=\(token)&\(fields)".utf8)))
  }

  func get(_ path: String) -> Response {
    application.respond(to: Request(method: .get, path: path, headerFields: [.cookie: cookie]))
  }
}

// The file: one list of 5,000 items, every second checked, every third
// with a due date (and Remind me on), as this site exports it.
var model = DataModel()
let listID = try model.addList(name: "Packing", icon: .trips)
for number in 0..<Limits.maximumItemsPerList {
  let item = try model.addItem(text: "Pack item number \(number)", toList: listID)
  if number % 2 == 0 { _ = try model.toggleItem(id: item, inList: listID) }
  if number % 3 == 0 {
    try model.editItem(
      id: item, inList: listID, text: "Pack item number \(number)",
      dueDate: Date(timeIntervalSince1970: 1_900_000_000 + Double(number) * 3_600),
      shouldRemind: true)
  }
}
let file = JSONExport.document(model, exportedAt: Date())
let boundary = "----BenchBoundary7MA4YWxkTrZu0gW"
func multipart(_ file: [UInt8], name: String, token: String) -> [UInt8] {
  Array(
    ("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(token)\r\n"
      + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\n"
      + "Content-Type: application/json\r\n\r\n").utf8) + file
    + Array("\r\n--\(boundary)--\r\n".utf8)
}
print("The import of a 5,000-item file (\(file.count) bytes of JSON), durable writes:")

// The pieces, each alone.
let body = multipart(file, name: "checklists.json", token: String(repeating: "0", count: 64))
var form: MultipartForm?
report(
  "multipart/form-data parse",
  try measure { _ in
    form = try MultipartForm.decode(body, boundary: boundary)
  })
precondition(form?.part(named: "file")?.body == file)
var read: ImportFile.Read?
report(
  "format parse (JSON, 5,000 items)",
  try measure { _ in
    read = try ImportFile.read(file, fileName: "checklists.json")
  })
precondition(read?.lists.first?.items.count == Limits.maximumItemsPerList)
let lists = read!.lists
report(
  "trial: addImported on a copy",
  try measure { _ in
    var copy = DataModel.firstRun()
    try copy.addImported(lists)
  })
var trial = DataModel.firstRun()
try trial.addImported(lists)
report(
  "trial: the 2 MiB cap",
  measure { _ in
    precondition(ChecklistStore.sizeRefusal(trial, replacing: nil) == nil)
  })
// The lists as the upload keeps them: cleaned by the trial.
let cleaned = trial.lists.filter { $0.name == "Packing" }.map { list in
  ImportedList(
    name: list.name, icon: list.icon, sort: list.sort,
    items: list.items.map {
      ImportedItem(
        text: $0.text, checked: $0.checked, dueDate: $0.dueDate, shouldRemind: $0.shouldRemind)
    })
}
let pending = PendingImport(
  created: Date(), fileName: "checklists.json", format: "json", lists: cleaned)
var encoded: [UInt8] = []
report("pending import: encode", try measure { _ in encoded = try PendingImports.encode(pending) })
report(
  "pending import: decode (only when not cached: another process's, or after a restart)",
  try measure { _ in _ = try PendingImports.decode(Data(encoded)) })

// Whole requests through Application.respond(to:): the upload (both parses,
// the trial on a copy of the visitor's lists, the pending import written
// and flushed), the preview page (the pending import read, the trial
// again, the page), the Confirm (one durable write of Checklists.plist,
// the pending import removed).
let visitors = (0..<5).map { _ in Visitor() }
for visitor in visitors {
  precondition(visitor.post("/lists/1/items", "text=milk").status == .seeOther)
}
let upload = try measure { round in
  let visitor = visitors[round]
  let response = application.respond(
    to: Request(
      method: .post, path: "/settings/import",
      headerFields: [
        .cookie: visitor.cookie, .contentType: "multipart/form-data; boundary=\(boundary)",
      ],
      body: multipart(file, name: "checklists.json", token: visitor.token)))
  precondition(response.status == .seeOther, "upload answered \(response.status)")
}
var digests: [String] = []
let preview = measure { round in
  let page = visitors[round].get("/settings/import/preview")
  precondition(page.status == .ok)
  let text = String(decoding: page.body, as: UTF8.self)
  let digest = text.firstMatch(of: #/name="digest" value="([0-9a-f]{64})"/#)!.1
  digests.append(String(digest))
}
let confirm = measure { round in
  let response = visitors[round].post("/settings/import/confirm", "digest=\(digests[round])")
  precondition(response.status == .seeOther)
  precondition(response.headerFields[.location]!.hasPrefix("/lists?imported=1&items=5000"))
}
report("POST /settings/import (upload: both parses, the trial, the pending import's write)", upload)
report("GET /settings/import/preview", preview)
report("POST /settings/import/confirm (the Confirm's one durable write)", confirm)
report(
  "backend time of the import: upload, preview and Confirm", upload + preview + confirm, goal: 100)

// The JSON export of the same 5,000 items: the document alone, and the
// whole download.
print("The JSON export of 5,000 items:")
var exported = 0
report(
  "JSONExport.document",
  measure { _ in
    exported &+= JSONExport.document(model, exportedAt: Date()).count
  })
let download = measure { round in
  let response = visitors[round].get("/settings/export/checklists.json")
  precondition(response.status == .ok)
  exported &+= response.body.count
}
report(
  "GET /settings/export/checklists.json (5,001 items: the 5,000 imported and milk)", download,
  goal: 20)

// What the multipart parser costs on the largest upload taken: 1 MiB.
let megabyte = Array(repeating: Array("- [ ] a task of some length\r\n".utf8), count: 36_000)
  .joined().prefix((1 << 20) - 400)
let largest = multipart(Array(megabyte), name: "big.md", token: String(repeating: "0", count: 64))
report(
  "multipart/form-data parse of a 1 MiB upload (\(largest.count) bytes)",
  try measure { _ in
    form = try MultipartForm.decode(largest, boundary: boundary)
  })
print("(checksum \(exported &+ (form?.parts.count ?? 0)))")
