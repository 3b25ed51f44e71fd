import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal FastCGI client, speaking the protocol as nginx does, so the
/// tests reach the server through libfcgi and a real socket.
struct FastCGITestClient {
  /// What came back: the CGI-style head and body, split.
  struct Reply {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    func values(_ name: String) -> [String] {
      headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }
  }

  enum Failure: Error, Equatable {
    case connect(Int32)
    case write, closedEarly, malformed, timedOut
  }

  let fd: Int32

  /// A read that waits longer than `seconds` throws `timedOut`.
  func setTimeout(_ seconds: Double) {
    var limit = timeval(
      tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Connects to `socketPath`. With `timeout`, a read that waits longer
  /// throws `timedOut`, so that a server that stopped accepting fails a test
  /// instead of hanging it.
  init(socketPath: String, timeout: Double? = nil) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    if let timeout { setTimeout(timeout) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      let code = errno
      _ = Glibc.close(fd)
      throw Failure.connect(code)
    }
  }

  func close() { _ = Glibc.close(fd) }

  /// Sends one request on this connection and reads its reply.
  ///
  /// With `closeAfterSending` it only sends (the caller may read the reply
  /// later with `readReply`). With `endOfBodyDelay`, the empty `FCGI_STDIN`
  /// record that ends the body goes out in a write of its own after that
  /// many seconds, as a web server streaming a body may send it.
  func send(
    parameters: [(String, String)], body: [UInt8] = [], keepConnection: Bool = false,
    requestID: UInt16 = 1, closeAfterSending: Bool = false, endOfBodyDelay: Double? = nil
  ) throws -> Reply? {
    var out = Self.head(
      parameters: parameters, keepConnection: keepConnection, requestID: requestID)
    Self.stream(type: 5, id: requestID, bytes: body, into: &out)
    if let endOfBodyDelay {
      let endOfBody = Array(out.suffix(8))
      try writeAll(Array(out.dropLast(8)))
      usleep(useconds_t(endOfBodyDelay * 1_000_000))
      try writeAll(endOfBody)
    } else {
      try writeAll(out)
    }
    if closeAfterSending {
      return nil
    }
    return try readReply()
  }

  /// How many bytes a request sends before the first byte of its body: the
  /// begin record, the parameters stream and the first `FCGI_STDIN` header.
  static func bytesBeforeBody(
    parameters: [(String, String)], keepConnection: Bool = false, requestID: UInt16 = 1
  ) -> Int {
    head(parameters: parameters, keepConnection: keepConnection, requestID: requestID).count + 8
  }

  /// The begin record and the whole parameters stream.
  private static func head(
    parameters: [(String, String)], keepConnection: Bool, requestID: UInt16
  ) -> [UInt8] {
    var out: [UInt8] = []
    record(
      type: 1, id: requestID, content: [0, 1, keepConnection ? 1 : 0, 0, 0, 0, 0, 0], into: &out)
    var encoded: [UInt8] = []
    for (name, value) in parameters {
      length(name.utf8.count, into: &encoded)
      length(value.utf8.count, into: &encoded)
      encoded += Array(name.utf8) + Array(value.utf8)
    }
    stream(type: 4, id: requestID, bytes: encoded, into: &out)
    return out
  }

  private func writeAll(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        write(fd, $0.baseAddress! + offset, bytes.count - offset)
      }
      guard written > 0 else { throw Failure.write }
      offset += written
    }
  }

  private func readExactly(_ count: Int) throws -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    var offset = 0
    while offset < count {
      let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, count - offset) }
      if got < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw Failure.timedOut }
      guard got > 0 else { throw Failure.closedEarly }
      offset += got
    }
    return buffer
  }

  /// Reads the reply to a request sent before.
  func readReply() throws -> Reply {
    var stdout: [UInt8] = []
    while true {
      let header = try readExactly(8)
      let type = header[1]
      let length = Int(header[4]) << 8 | Int(header[5])
      let content = try readExactly(length + Int(header[6]))
      if type == 6 { stdout += content[0..<length] }
      if type == 3 { break }
    }
    guard let split = Self.find([13, 10, 13, 10], in: stdout) else { throw Failure.malformed }
    let head = String(decoding: stdout[..<split], as: UTF8.self)
    var status = 200
    var headers: [(String, String)] = []
    for line in head.components(separatedBy: "\r\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = String(line[..<colon])
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if name == "Status" {
        status = Int(value.prefix(3)) ?? 0
      } else {
        headers.append((name, value))
      }
    }
    return Reply(status: status, headers: headers, body: Array(stdout[(split + 4)...]))
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where Array(haystack[start..<start + needle.count]) == needle {
      return start
    }
    return nil
  }

  private static func length(_ value: Int, into bytes: inout [UInt8]) {
    if value < 128 {
      bytes.append(UInt8(value))
    } else {
      bytes += [
        UInt8(0x80 | (value >> 24) & 0x7f), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff),
        UInt8(value & 0xff),
      ]
    }
  }

  /// A stream's records, then its empty end record.
  private static func stream(type: UInt8, id: UInt16, bytes: [UInt8], into out: inout [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let end = min(offset + 65535, bytes.count)
      record(type: type, id: id, content: Array(bytes[offset..<end]), into: &out)
      offset = end
    }
    record(type: type, id: id, content: [], into: &out)
  }

  private static func record(type: UInt8, id: UInt16, content: [UInt8], into out: inout [UInt8]) {
    let padding = (8 - content.count % 8) % 8
    out += [
      1, type, UInt8(id >> 8), UInt8(id & 0xff), UInt8(content.count >> 8),
      UInt8(content.count & 0xff), UInt8(padding), 0,
    ]
    out += content
    out += [UInt8](repeating: 0, count: padding)
  }
}
