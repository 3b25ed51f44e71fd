import ChecklistsModel
import ChecklistsWeb
import FastCGI
import Foundation
import HTTPTypes
import Logging
import Storage

// A CalDAV client reading a 1,000-item list, whole requests through
// `Application.respond` (sign-in, the cached model, every to-do's document
// and tag, the multistatus), in milliseconds: `calendar-multiget` of every
// to-do (goal ≤ 20 ms), `PROPFIND` of the collection at depth 1 (the tags
// a client compares), `calendar-query` of every to-do, `GET` of one, a
// `sync-collection` with the current token (goal ≤ 0.5 ms), and one with
// the token from before ten to-dos were checked on the web (the list's
// change log names them: ten to-dos written, not 1,000).
// `bench-web --caldav-only` runs these alone.

@MainActor
func benchmarkCalDAV() throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  let data = FileManager.default.temporaryDirectory
    .appendingPathComponent("bench-caldav-\(getpid())").path
  defer { try? FileManager.default.removeItem(atPath: data) }
  let application = try Application(
    configuration: ApplicationConfiguration(
      dataDirectory: data, templatesDirectory: "\(root)/Templates",
      publicDirectory: "\(root)/Public", durable: false),
    logger: Logger(label: "bench"))
  let token = VisitorID().hex
  let owner = VisitorDirectory(dataDirectory: data, visitorID: token)
  let store = ChecklistStore(
    configuration: .init(dataDirectory: data, durable: false), logger: Logger(label: "bench"))
  let due = Date(timeIntervalSince1970: 1_740_000_000)
  let addToDos: (inout DataModel) throws -> Void = { model in
    for number in 0..<1_000 {
      let text = "To-do \(number): call the garage, ask about the tyres; then book"
      let id = try model.addItem(text: text, toList: 1)
      if number % 2 == 0 {
        try model.editItem(
          id: id, inList: 1, text: text, dueDate: due + Double(number) * 3_600,
          shouldRemind: number % 4 == 0)
      }
    }
  }
  try store.update(owner, initial: { $0 ?? .firstRun() }, addToDos)
  let (password, app) = try DeviceStore(dataDirectory: data, durable: false).createApp(
    for: owner, token: token, name: "bench", now: Date())
  let authorization =
    "Basic " + Data("\(app.userName):\(password.canonical)".utf8).base64EncodedString()

  func request(_ method: String, _ path: String, _ body: String) -> Request {
    Request(
      method: HTTPRequest.Method(method)!, path: path,
      headerFields: [.authorization: authorization, HTTPField.Name("Depth")!: "1"],
      body: Array(body.utf8))
  }
  let hrefs = (1...1_000).map { "<d:href>/dav/lists/1/\($0).ics</d:href>" }.joined()
  let multiget = request(
    "REPORT", "/dav/lists/1/",
    """
    <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
    <d:prop><d:getetag/><c:calendar-data/></d:prop>\(hrefs)</c:calendar-multiget>
    """)
  let query = request(
    "REPORT", "/dav/lists/1/",
    """
    <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
    <d:prop><d:getetag/></d:prop><c:filter><c:comp-filter name="VCALENDAR">
    <c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>
    """)
  let propfind = request(
    "PROPFIND", "/dav/lists/1/",
    #"<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>"#)
  let get = request("GET", "/dav/lists/1/500.ics", "")
  func sync(_ token: String) -> Request {
    request(
      "REPORT", "/dav/lists/1/",
      """
      <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(token)</d:sync-token>
      <d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
      """)
  }
  let first = String(decoding: application.respond(to: sync("")).body, as: UTF8.self)
  let current = first.components(separatedBy: "<d:sync-token>").last!
    .components(separatedBy: "</d:sync-token>")[0]
  for (name, request, expected) in [
    ("calendar-multiget of 1,000 to-dos", multiget, 207),
    ("PROPFIND Depth: 1 of a 1,000-item collection", propfind, 207),
    ("calendar-query of 1,000 to-dos (etags)", query, 207), ("GET of one to-do", get, 200),
    ("sync-collection of 1,000 to-dos, nothing changed", sync(current), 207),
  ] {
    let answer = application.respond(to: request)
    precondition(answer.status.code == expected, "\(name): \(answer.status)")
    let wall = measure(10) { sink &+= application.respond(to: request).body.count }
    let cpu = measureCPU(10) { sink &+= application.respond(to: request).body.count }
    let goal =
      name.hasPrefix("calendar-multiget")
      ? " (goal ≤ 20 ms)" : name.hasPrefix("sync-collection") ? " (goal ≤ 0.5 ms)" : ""
    print(
      "CalDAV \(name): \(String(format: "%.2f", wall / 1e6)) ms wall, "
        + "\(String(format: "%.2f", cpu / 1e6)) ms CPU, \(answer.body.count) bytes\(goal)")
  }

  let checkTen: (inout DataModel) throws -> Void = { model in
    for id in 1...10 { _ = try model.toggleItem(id: id, inList: 1) }
  }
  try store.update(owner, initial: { $0 ?? .firstRun() }, checkTen)
  let incremental = sync(current)
  let answer = application.respond(to: incremental)
  let responses =
    String(decoding: answer.body, as: UTF8.self)
    .components(separatedBy: "<d:response>").count - 1
  precondition(answer.status.code == 207 && responses == 10, "incremental sync: \(responses)")
  let wall = measure(10) { sink &+= application.respond(to: incremental).body.count }
  let cpu = measureCPU(10) { sink &+= application.respond(to: incremental).body.count }
  print(
    "CalDAV sync-collection of 1,000 to-dos, 10 changed since the token: "
      + "\(String(format: "%.2f", wall / 1e6)) ms wall, "
      + "\(String(format: "%.2f", cpu / 1e6)) ms CPU, \(answer.body.count) bytes")
}
