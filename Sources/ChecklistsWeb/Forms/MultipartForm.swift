import FastCGI
import Foundation
import MultipartKit

/// A `multipart/form-data` body (RFC 7578): what the import page's form
/// posts, a file and the CSRF token. The only file that uses multipart-kit.
///
/// The parts are split by multipart-kit's `MultipartParser`; this type
/// reads the `Content-Type`'s boundary and each part's
/// `Content-Disposition` itself (quoted strings with `;` or `=` inside
/// included, which the package's own `name` look-up splits wrongly), and
/// refuses what the parser lets pass: a body without its closing
/// delimiter (cut short), a part without a name, more parts or header
/// fields than a form of ours sends. And it keeps from the parser the one
/// input the fuzzer found that stops the process: a header name with a
/// byte past ASCII (`hasHeaderNameOutsideASCII`).
///
/// Why a package at all: the parser is maintained and used by every Vapor
/// server. What it costs, measured on this shared 2-core machine
/// (load average 4-7): swift-nio and swift-collections, which it pulls,
/// took 106 s (117 s of CPU) to build from clean in debug and 322 s (202 s
/// of CPU) in release, once: incremental builds do not rebuild them.
/// Parsing (release, `bench-transfer`): a 5,000-item JSON export of 530 KB
/// about 1 ms, a 1 MiB Markdown file with a line break every 29 bytes about
/// 17 ms (the parser copies the bytes between two CRs into a buffer of
/// their own), against the import's bar of 100 ms. Neither is a reason to
/// write a parser of our own, nor is the crash, which one look at the
/// header sections before parsing keeps out (148,000 fuzzed inputs in 3
/// minutes since, none stopping it).
package struct MultipartForm: Sendable, Equatable {
  /// One part of the form.
  package struct Part: Sendable, Equatable {
    /// The field's name (`Content-Disposition`'s `name`).
    package var name: String
    /// The file's name for a file field (empty when no file was chosen),
    /// as the browser sent it; nil for any other field.
    package var fileName: String?
    /// The part's own `Content-Type`, if it had one.
    package var contentType: String?
    package var body: [UInt8]

    package init(name: String, fileName: String? = nil, contentType: String? = nil, body: [UInt8]) {
      self.name = name
      self.fileName = fileName
      self.contentType = contentType
      self.body = body
    }
  }

  /// Why a body is not a form this site reads.
  package enum Failure: Error, Sendable, Equatable {
    /// The request's `Content-Type` is not `multipart/form-data`.
    case notMultipart
    /// It is, but without a usable `boundary` parameter.
    case noBoundary
    /// The body does not follow the format, or ends before its closing
    /// delimiter.
    case malformed
    /// More parts than `partLimit`.
    case tooManyParts(limit: Int)
  }

  /// The media type accepted.
  package static let mediaType = "multipart/form-data"
  /// The import form sends two parts (`csrf`, `file`); a few more are
  /// refused by the page's handler by name, a flood here.
  package static let defaultPartLimit = 8
  /// Header fields per part: a browser sends two.
  static let headerLimit = 8

  /// The parts, in the order they were sent.
  package var parts: [Part]

  package init(parts: [Part]) {
    self.parts = parts
  }

  /// The first part named `name`.
  package func part(named name: String) -> Part? {
    parts.first { $0.name == name }
  }

  /// The first part named `name` that is not a file, as UTF-8 text; nil
  /// when there is none or its bytes are not UTF-8.
  package func text(_ name: String) -> String? {
    guard let part = parts.first(where: { $0.name == name && $0.fileName == nil }) else {
      return nil
    }
    return String(validating: part.body, as: UTF8.self)
  }

  /// The form of a request: its `Content-Type`'s boundary, then its body.
  package static func decode(_ request: Request, partLimit: Int = defaultPartLimit)
    throws(Failure) -> MultipartForm
  {
    let boundary = try boundary(contentType: request.headerFields.value(of: .contentType))
    return try decode(request.body, boundary: boundary, partLimit: partLimit)
  }

  /// The boundary a `Content-Type` value names: `multipart/form-data` (any
  /// letter case) with a `boundary` parameter of 1 to 70 of RFC 2046's
  /// characters, as a token or a quoted string.
  package static func boundary(contentType: String?) throws(Failure) -> String {
    guard let contentType else { throw .notMultipart }
    let fields = HeaderValue(contentType)
    guard fields.value.lowercased() == mediaType else { throw .notMultipart }
    guard let boundary = fields.parameters["boundary"], isBoundary(boundary) else {
      throw .noBoundary
    }
    return boundary
  }

  /// RFC 2046's `boundary`: 1 to 70 characters of `bchars`, not ending in
  /// a space.
  static func isBoundary(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard (1...70).contains(bytes.count), bytes.last != UInt8(ascii: " ") else { return false }
    return bytes.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "A")...UInt8(ascii: "Z"):
        true
      default: "'()+_,-./:=? ".utf8.contains(byte)
      }
    }
  }

  /// The parts of `body`, delimited by `boundary`.
  package static func decode(
    _ body: [UInt8], boundary: String, partLimit: Int = defaultPartLimit
  ) throws(Failure) -> MultipartForm {
    guard isBoundary(boundary), contains(body, closingDelimiterOf: boundary),
      !hasHeaderNameOutsideASCII(body, boundary: boundary)
    else {
      throw .malformed
    }
    let collector = Collector(partLimit: partLimit)
    let parser = MultipartParser(boundary: boundary)
    parser.onHeader = collector.header
    parser.onBody = collector.body
    parser.onPartComplete = collector.complete
    do {
      try parser.execute(body)
    } catch {
      throw .malformed
    }
    if let failure = collector.failure { throw failure }
    // A part begun after the last delimiter was cut short.
    guard !collector.partBegun else { throw .malformed }
    return MultipartForm(parts: collector.parts)
  }

  /// True when `body` holds the closing delimiter `--boundary--`, at its
  /// start or after a line break: the parser takes the end of the body for
  /// the end of the last part, so a body cut short would otherwise pass.
  static func contains(_ body: [UInt8], closingDelimiterOf boundary: String) -> Bool {
    let closing = Array("--\(boundary)--".utf8)
    if body.starts(with: closing) { return true }
    let needle = [13, 10] + closing
    return body.withUnsafeBufferPointer { haystack in
      var start = 0
      while let found = haystack[start...].firstIndex(of: 13) {
        if haystack.count - found < needle.count { return false }
        if haystack[found..<found + needle.count].elementsEqual(needle) { return true }
        start = found + 1
      }
      return false
    }
  }

  /// True when a part's header name holds a byte outside ASCII. Such a
  /// byte stops the process in multipart-kit 4.7.1's parser, which looks
  /// each byte of a name up in a table of 128 entries
  /// (`isAllowedHeaderFieldNameCharacter`; found by the `multipart` fuzz
  /// target, one request of 280 bytes), so such a body never reaches it.
  ///
  /// The parser reads headers only right after a whole delimiter (`--`,
  /// the boundary) and a CR, so every place that follows `--boundary` and
  /// a CR is looked at: after its LF, line by line up to an empty one,
  /// each line's bytes before its first `:` or CR. That is every byte the
  /// parser may take for a name, and some it would not reach (it stops at
  /// the first other byte a name may not hold): those refuse only bodies
  /// out of shape anyway.
  static func hasHeaderNameOutsideASCII(_ body: [UInt8], boundary: String) -> Bool {
    let opening = Array("--\(boundary)".utf8)
    let carriageReturn: UInt8 = 13
    let lineFeed: UInt8 = 10
    guard body.count > opening.count else { return false }
    return body.withUnsafeBufferPointer { bytes in
      var search = opening.count
      while let cr = bytes[search...].firstIndex(of: carriageReturn) {
        search = cr + 1
        guard bytes[(cr - opening.count)..<cr].elementsEqual(opening),
          cr + 1 < bytes.count, bytes[cr + 1] == lineFeed
        else { continue }
        var position = cr + 2
        // Each header line: a name up to `:` or CR, then the rest up to CR LF.
        while position < bytes.count, bytes[position] != carriageReturn {
          while position < bytes.count, bytes[position] != UInt8(ascii: ":"),
            bytes[position] != carriageReturn
          {
            if bytes[position] >= 0x80 { return true }
            position += 1
          }
          guard let end = bytes[position...].firstIndex(of: carriageReturn),
            end + 1 < bytes.count, bytes[end + 1] == lineFeed
          else { break }
          position = end + 2
        }
      }
      return false
    }
  }

  /// Gathers the parser's callbacks into parts.
  private final class Collector {
    let partLimit: Int
    var parts: [Part] = []
    var headers: [(name: String, value: String)] = []
    var content: [UInt8] = []
    /// A header or body byte arrived since the last part was complete.
    var partBegun = false
    var failure: Failure?

    init(partLimit: Int) {
      self.partLimit = partLimit
    }

    func header(_ name: String, _ value: String) {
      partBegun = true
      if headers.count >= MultipartForm.headerLimit { failure = failure ?? .malformed }
      guard failure == nil else { return }
      headers.append((name, value))
    }

    func body(_ buffer: inout ByteBuffer) {
      partBegun = true
      guard failure == nil else { return }
      content.append(contentsOf: buffer.readableBytesView)
    }

    func complete() {
      defer {
        headers = []
        content = []
        partBegun = false
      }
      guard failure == nil else { return }
      guard parts.count < partLimit else {
        failure = .tooManyParts(limit: partLimit)
        return
      }
      let disposition = headers.first { $0.name.lowercased() == "content-disposition" }
        .map { HeaderValue($0.value) }
      guard let disposition, disposition.value.lowercased() == "form-data",
        let name = disposition.parameters["name"], !name.isEmpty
      else {
        failure = .malformed
        return
      }
      let contentType = headers.first { $0.name.lowercased() == "content-type" }?.value
      parts.append(
        Part(
          name: name, fileName: disposition.parameters["filename"], contentType: contentType,
          body: content))
    }
  }
}

/// A header field's value and its parameters: `form-data; name="file";
/// filename="a; b.json"`, `multipart/form-data; boundary=xyz`. A quoted
/// string may hold `;`, `=` and escaped characters (`\"`); parameter
/// names are compared in lower case; the first of a repeated name counts.
struct HeaderValue {
  var value: String
  var parameters: [String: String] = [:]

  init(_ text: String) {
    var bytes = Array(text.utf8)[...]
    value = Self.trimmed(Self.take(&bytes, upTo: UInt8(ascii: ";")))
    while !bytes.isEmpty {
      bytes = bytes.dropFirst()  // the `;`
      let name = Self.trimmed(Self.take(&bytes, upTo: UInt8(ascii: "="), orTo: UInt8(ascii: ";")))
        .lowercased()
      guard bytes.first == UInt8(ascii: "=") else { continue }
      bytes = bytes.dropFirst()
      while bytes.first == UInt8(ascii: " ") || bytes.first == UInt8(ascii: "\t") {
        bytes = bytes.dropFirst()
      }
      let parameter: String
      if bytes.first == UInt8(ascii: "\"") {
        parameter = Self.quoted(&bytes)
        _ = Self.take(&bytes, upTo: UInt8(ascii: ";"))  // anything after the closing quote
      } else {
        parameter = Self.trimmed(Self.take(&bytes, upTo: UInt8(ascii: ";")))
      }
      if !name.isEmpty, parameters[name] == nil { parameters[name] = parameter }
    }
  }

  /// The bytes before the first `stop` (or `other`), removed from `bytes`.
  private static func take(
    _ bytes: inout ArraySlice<UInt8>, upTo stop: UInt8, orTo other: UInt8? = nil
  ) -> ArraySlice<UInt8> {
    let end = bytes.firstIndex { $0 == stop || $0 == other } ?? bytes.endIndex
    defer { bytes = bytes[end...] }
    return bytes[..<end]
  }

  /// A quoted string at the start of `bytes` (removed), without its quotes
  /// and with its `\` escapes undone; to the end when it is not closed.
  private static func quoted(_ bytes: inout ArraySlice<UInt8>) -> String {
    var result: [UInt8] = []
    var index = bytes.index(after: bytes.startIndex)
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index = bytes.index(after: index)
        break
      }
      if byte == UInt8(ascii: "\\"), bytes.index(after: index) < bytes.endIndex {
        index = bytes.index(after: index)
      }
      result.append(bytes[index])
      index = bytes.index(after: index)
    }
    bytes = bytes[index...]
    return String(decoding: result, as: UTF8.self)
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = bytes.lastIndex(where: { !isSpace($0) })!
    return String(decoding: bytes[first...last], as: UTF8.self)
  }
}
