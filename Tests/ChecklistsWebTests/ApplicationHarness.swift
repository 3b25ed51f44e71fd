import ChecklistsWeb
import FastCGI
import Foundation
import Logging

/// A browser without JavaScript, talking to an `Application` directly (no
/// sockets): it keeps the cookies it is sent and reads CSRF tokens from forms.
final class ApplicationHarness {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  let data: String
  let application: Application
  var cookies: [String: String] = [:]

  init(data: String? = nil) throws {
    let directory =
      data
      ?? FileManager.default.temporaryDirectory
      .appendingPathComponent("checklists-app-\(UUID().uuidString)").path
    self.data = directory
    application = try Application(
      configuration: ApplicationConfiguration(
        dataDirectory: directory,
        templatesDirectory: Self.root.appendingPathComponent("Templates").path,
        publicDirectory: Self.root.appendingPathComponent("Public").path, durable: false),
      logger: Logger(label: "test"))
  }

  /// Another browser on the same server (the same data and secret).
  func anotherBrowser() throws -> ApplicationHarness { try ApplicationHarness(data: data) }

  deinit { try? FileManager.default.removeItem(atPath: data) }

  var cookieHeader: String {
    cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
  }

  @discardableResult
  func send(_ request: Request) -> Response {
    var request = request
    if request.headers["cookie"] == nil, !cookies.isEmpty {
      request.headers["cookie"] = cookieHeader
    }
    let response = application.respond(to: request)
    for header in response.headers(named: "Set-Cookie") {
      let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
      let name = String(pair[0])
      let value = pair.count > 1 ? String(pair[1]) : ""
      if header.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
    }
    return response
  }

  @discardableResult
  func get(_ target: String, headers: [String: String] = [:], method: String = "GET") -> Response {
    let parts = target.split(separator: "?", maxSplits: 1)
    return send(
      Request(
        method: method, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "",
        headers: headers))
  }

  /// The visitor's token, read from a form the way a browser gets it.
  func csrf() -> String {
    let page = text(get("/lists/new"))
    guard let range = page.range(of: #"name="csrf" value="[0-9a-f]+""#, options: .regularExpression)
    else { return "" }
    return String(page[range].dropFirst(#"name="csrf" value=""#.count).dropLast())
  }

  @discardableResult
  func post(
    _ path: String, _ fields: [(String, String)] = [], token: String? = nil, withToken: Bool = true,
    contentType: String = "application/x-www-form-urlencoded", headers: [String: String] = [:]
  ) -> Response {
    var fields = fields
    if withToken { fields.append(("csrf", token ?? csrf())) }
    let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
    var headers = headers
    headers["content-type"] = contentType
    return send(Request(method: "POST", path: path, headers: headers, body: Array(body.utf8)))
  }

  func text(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

  static func encode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._*")
    return text.addingPercentEncoding(withAllowedCharacters: allowed)!
  }

  /// Every file under the data directory except the server secret.
  func storedFiles() -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: data) else { return files }
    for case let path as String in walker where path != "secret" {
      var isDirectory: ObjCBool = false
      let full = "\(data)/\(path)"
      if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
        !isDirectory.boolValue,
        !path.hasSuffix(".lock")
      {
        files[path] = FileManager.default.contents(atPath: full)
      }
    }
    return files
  }
}
