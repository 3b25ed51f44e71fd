import ChecklistsWeb
import FastCGI
import Foundation
import HTTPTypes
import Logging
import ServiceMetrics
import TestSupport

/// A browser without JavaScript, talking to an `Application` directly (no
/// sockets): it keeps the cookies it is sent and reads CSRF tokens from forms.
/// The web layer's tests drive the application through it, and the
/// in-process benchmarks (`bench-web`, `bench-transfer`) make theirs with it.
package final class ApplicationHarness {
  /// The data directory, shared with every other browser on the same server
  /// and removed when the last of them goes.
  package let directory: TemporaryDirectory
  package var data: String { directory.path }
  package let application: Application
  package var cookies: [String: String] = [:]

  /// An application on `directory` with the package's templates and
  /// public files, not durable (no `fsync`) unless `configure` says so.
  package init(
    directory: TemporaryDirectory = TemporaryDirectory("checklists-app"),
    publicOrigin: PublicOrigin? = nil, requestMetrics: RequestMetrics? = nil,
    configure: (inout ApplicationConfiguration) -> Void = { _ in }
  ) throws {
    self.directory = directory
    var configuration = ApplicationConfiguration(
      dataDirectory: directory.path,
      templatesDirectory: BuiltTool.packageRoot + "/Templates",
      publicDirectory: BuiltTool.packageRoot + "/Public", durable: false,
      publicOrigin: publicOrigin)
    configuration.requestMetrics = requestMetrics
    configure(&configuration)
    application = try Application(configuration: configuration, logger: Logger(label: "test"))
  }

  /// Another browser on the same server (the same data and secret).
  package func anotherBrowser() throws -> ApplicationHarness {
    try ApplicationHarness(directory: directory)
  }

  private init(directory: TemporaryDirectory, application: Application) {
    self.directory = directory
    self.application = application
  }

  /// Another cookie jar on this very application (its caches and memo
  /// shared), holding `cookies`.
  package func anotherCookieJar(_ cookies: [String: String] = [:]) -> ApplicationHarness {
    let jar = ApplicationHarness(directory: directory, application: application)
    jar.cookies = cookies
    return jar
  }

  package var cookieHeader: String {
    cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
  }

  @discardableResult
  package func send(_ request: Request) -> Response {
    var request = request
    if !request.headerFields.contains(.cookie), !cookies.isEmpty {
      request.head.headerFields[.cookie] = cookieHeader
    }
    let response = application.respond(to: request)
    for header in response.setCookies {
      let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
      let name = String(pair[0])
      let value = pair.count > 1 ? String(pair[1]) : ""
      if header.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
    }
    return response
  }

  @discardableResult
  package func get(
    _ target: String, headerFields: HTTPFields = [:], method: HTTPRequest.Method = .get
  ) -> Response {
    let parts = target.split(separator: "?", maxSplits: 1)
    return send(
      Request(
        method: method, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "",
        headerFields: headerFields))
  }

  /// The visitor's token, read from a form the way a browser gets it.
  package func csrf() -> String {
    let page = text(get("/lists/new"))
    guard let range = page.range(of: #"name="csrf" value="[0-9a-f]+""#, options: .regularExpression)
    else { return "" }
    return String(page[range].dropFirst(#"name="csrf" value=""#.count).dropLast())
  }

  @discardableResult
  package func post(
    _ path: String, _ fields: [(String, String)] = [], token: String? = nil, withToken: Bool = true,
    contentType: String = "application/x-www-form-urlencoded", authority: String? = nil,
    headerFields: HTTPFields = [:]
  ) -> Response {
    var fields = fields
    if withToken { fields.append(("csrf", token ?? csrf())) }
    let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
    var headerFields = headerFields
    headerFields[.contentType] = contentType
    return send(
      Request(
        method: .post, path: path, authority: authority, headerFields: headerFields,
        body: Array(body.utf8)))
  }

  /// A `multipart/form-data` post as a browser sends the import form:
  /// the `csrf` field first (unless `withToken` is false), then `file`
  /// (name and bytes; nil for no part at all), then `extra` text fields.
  @discardableResult
  package func postMultipart(
    _ path: String = "/settings/import", file: (name: String, bytes: [UInt8])?,
    token: String? = nil, withToken: Bool = true, extra: [(String, String)] = [],
    fileType: String = "application/octet-stream", headerFields: HTTPFields = [:]
  ) -> Response {
    let boundary = "----ChecklistsTestBoundary5c1a9e"
    var body: [UInt8] = []
    func part(_ disposition: String, _ type: String?, _ bytes: [UInt8]) {
      body += Array("--\(boundary)\r\nContent-Disposition: form-data; \(disposition)\r\n".utf8)
      if let type { body += Array("Content-Type: \(type)\r\n".utf8) }
      body += Array("\r\n".utf8) + bytes + Array("\r\n".utf8)
    }
    if withToken { part("name=\"csrf\"", nil, Array((token ?? csrf()).utf8)) }
    if let file { part("name=\"file\"; filename=\"\(file.name)\"", fileType, file.bytes) }
    for (name, value) in extra { part("name=\"\(name)\"", nil, Array(value.utf8)) }
    body += Array("--\(boundary)--\r\n".utf8)
    var headerFields = headerFields
    if headerFields[.contentType] == nil {
      headerFields[.contentType] = "multipart/form-data; boundary=\(boundary)"
    }
    return send(Request(method: .post, path: path, headerFields: headerFields, body: body))
  }

  package func text(_ response: Response) -> String {
    String(decoding: response.body, as: UTF8.self)
  }

  package static func encode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._*")
    return text.addingPercentEncoding(withAllowedCharacters: allowed)!
  }

  /// Every file under the data directory except the server secret.
  package func storedFiles() -> [String: Data] {
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
