import CFastCGI

#if canImport(Glibc)
  import Glibc  // iovec, for the pieces of an answer's one write (`Syscalls.writeAll`)
#endif

// Every libfcgi call of the product lives in this file, so that no C type or
// pointer leaks above the FastCGI module.

/// Process-wide libfcgi set-up.
enum LibFCGI {
  /// Initialises the library once. The corresponding C function is `FCGX_Init`.
  ///
  /// `FCGX_Init` installs handlers for SIGTERM, SIGUSR1 and SIGPIPE where
  /// they are still the default. The first two only set a flag, after which
  /// every accept on the listening socket fails while the process lives on.
  /// The server therefore ignores SIGUSR1 and SIGPIPE afterwards, and blocks
  /// SIGTERM/SIGINT in every thread and takes them with `sigwait`.
  static func initialise() throws(ServerError) {
    guard FCGX_Init() == 0 else { throw .libraryInit }
  }

  /// Opens a listening socket on `host:port` (a Unix socket is opened by
  /// `Syscalls.listenOnUnixSocket`, which can set its file's mode before
  /// `bind`). The corresponding C function is `FCGX_OpenSocket`.
  static func openSocket(_ address: String, backlog: Int32) -> Int32 {
    FCGX_OpenSocket(address, backlog)
  }
}

/// One reusable libfcgi request, owned by one worker thread.
///
/// The `FCGX_Request` is heap-allocated and never moves: its streams point
/// back into it, so a copy on the Swift stack would leave them dangling.
final class LibFCGIRequest {
  private let raw: UnsafeMutablePointer<FCGX_Request>

  /// - Parameter listenSocket: the socket libfcgi accepts on when no
  ///   connection is open, or -1 when the caller accepts every connection
  ///   itself and hands it over with `adopt`: libfcgi's accept then fails
  ///   instead of taking a connection no one checked.
  init(listenSocket: Int32) {
    raw = .allocate(capacity: 1)
    FCGX_InitRequest(raw, listenSocket, 0)
  }

  /// Makes `connection`, accepted by the caller, the one the next `accept`
  /// reads its request from, as it does a kept connection's (marked kept, so
  /// that the finish which starts `FCGX_Accept_r` leaves it open).
  func adopt(_ connection: Int32) {
    raw.pointee.ipcFd = connection
    raw.pointee.keepConnection = 1
  }

  deinit {
    FCGX_Free(raw, 1)
    raw.deallocate()
  }

  /// Waits for the next request, on the kept connection if nginx kept one
  /// open, else on the listening socket. Returns false when the socket was
  /// shut down or failed. The corresponding C function is `FCGX_Accept_r`.
  func accept() -> Bool {
    FCGX_Accept_r(raw) >= 0
  }

  /// The connection kept from the last request, or -1: the next `accept`
  /// reads from it instead of accepting on the listening socket.
  var connection: Int32 { raw.pointee.ipcFd }

  /// Closes the kept connection at once (the next `accept` takes a new one
  /// from the listening socket). Shut down first, so that libfcgi's close,
  /// which otherwise waits up to two seconds for the peer to close its end,
  /// returns at once.
  func closeConnection() {
    guard raw.pointee.ipcFd >= 0 else { return }
    Syscalls.shutdown(raw.pointee.ipcFd)
    raw.pointee.keepConnection = 0
    FCGX_Finish_r(raw)
  }

  /// Ends the request, flushing the output. With `keepConnection` false the
  /// connection is closed even if nginx asked to keep it.
  /// The corresponding C function is `FCGX_Finish_r`.
  func finish(keepConnection: Bool) {
    if !keepConnection { raw.pointee.keepConnection = 0 }
    FCGX_Finish_r(raw)
  }

  /// Calls `body` with each `NAME=value` parameter as raw bytes.
  func forEachParameter(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    guard var entry = raw.pointee.envp else { return }
    while let cString = entry.pointee {
      let length = Syscalls.length(ofCString: cString)
      cString.withMemoryRebound(to: UInt8.self, capacity: length) {
        body(UnsafeBufferPointer(start: $0, count: length))
      }
      entry += 1
    }
  }

  /// Reads up to `count` bytes of the request body into `buffer`, appending.
  /// Returns the number of bytes read; fewer than asked means the body ended.
  /// The corresponding C function is `FCGX_GetStr`.
  func readBody(into buffer: inout [UInt8], count: Int) -> Int {
    guard count > 0 else { return 0 }
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: count))
    var total = 0
    buffer.withUnsafeMutableBufferPointer { bytes in
      while total < count {
        let pointer = UnsafeMutableRawPointer(bytes.baseAddress! + start + total)
          .assumingMemoryBound(to: CChar.self)
        let read = FCGX_GetStr(pointer, Int32(min(count - total, Int(Int32.max))), raw.pointee.in)
        if read <= 0 { break }
        total += Int(read)
      }
    }
    buffer.removeLast(count - total)
    return total
  }

  /// Reads and drops what is left of the body, up to its end: the empty
  /// `FCGI_STDIN` record, which may arrive after the last declared byte.
  /// True when the end came within `limit` bytes and nothing failed, that is
  /// when the connection is clean for nginx's next request.
  /// The corresponding C function is `FCGX_GetChar`.
  func skipToEndOfBody(atMost limit: Int) -> Bool {
    let endOfFile: Int32 = -1
    var skipped = 0
    while FCGX_GetChar(raw.pointee.in) != endOfFile {
      skipped += 1
      if skipped > limit { return false }
    }
    return FCGX_GetError(raw.pointee.in) == 0
  }

  /// The most content one record carries here: the protocol's 65,535,
  /// rounded down to a multiple of 8 so that no record needs padding.
  static let recordContent = 65_528

  /// Sends the whole answer, `head` then `body`, and ends the request, in
  /// one `writev`: `FCGI_STDOUT` records, the empty one that ends the
  /// stream, and `FCGI_END_REQUEST`. libfcgi's output stream, never
  /// written to, is then marked closed, so that `FCGX_Finish_r` (`finish`)
  /// writes nothing more and only keeps or closes the connection.
  ///
  /// Written through `FCGX_PutStr`, an answer of more than libfcgi's 8 KB
  /// stream buffer went out in two writes, which nginx read twice: `strace`
  /// over a `scripts/bench` run counted 3.1 writes and 3.4 reads a request
  /// for the 9,786-byte repeating list page and the 8,257-byte Russian one,
  /// 2.1 and 2.3 for the 7,520-byte English page (wrk's own included).
  /// False once the peer has gone away.
  func respond(head: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer) -> Bool {
    let total = head.count + body.count
    let records = (total + Self.recordContent - 1) / Self.recordContent
    let id = UInt16(truncatingIfNeeded: raw.pointee.requestId)
    // Each record's header, then the stream's end and the end of the request;
    // and the pieces of the write: a header, the head's part, the body's
    // part for each record, then the last 24 bytes. Both on the stack for
    // an answer of a few records, so an answer allocates nothing.
    let sent = withUnsafeTemporaryAllocation(byteCount: 8 * records + 24, alignment: 8) {
      headers -> Bool in
      withUnsafeTemporaryAllocation(of: iovec.self, capacity: 3 * records + 1) { pieces in
        headers.initializeMemory(as: UInt8.self, repeating: 0)
        func header(at offset: Int, type: UInt8, length: Int) {
          headers[offset] = 1  // FCGI_VERSION_1
          headers[offset + 1] = type
          headers[offset + 2] = UInt8(id >> 8)
          headers[offset + 3] = UInt8(id & 0xFF)
          headers[offset + 4] = UInt8(length >> 8)
          headers[offset + 5] = UInt8(length & 0xFF)
        }
        var count = 0
        func add(_ base: UnsafeRawPointer?, _ length: Int) {
          guard let base, length > 0 else { return }
          pieces[count] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base), iov_len: length)
          count += 1
        }
        let stdout: UInt8 = 6
        let endRequest: UInt8 = 3
        var position = 0
        for record in 0..<records {
          let length = min(Self.recordContent, total - position)
          header(at: 8 * record, type: stdout, length: length)
          add(headers.baseAddress! + 8 * record, 8)
          let end = position + length
          if position < head.count {
            add(head.baseAddress.map { $0 + position }, min(end, head.count) - position)
          }
          if end > head.count {
            let start = max(position, head.count) - head.count
            add(body.baseAddress.map { $0 + start }, end - head.count - start)
          }
          position = end
        }
        let tail = 8 * records
        header(at: tail, type: stdout, length: 0)
        // The end of the request: appStatus 0, FCGI_REQUEST_COMPLETE (0).
        header(at: tail + 8, type: endRequest, length: 8)
        add(headers.baseAddress! + tail, 24)
        return Syscalls.writeAll(
          raw.pointee.ipcFd, UnsafeMutableBufferPointer(rebasing: pieces[..<count]))
      }
    }
    raw.pointee.out.pointee.wasFCloseCalled = 1
    raw.pointee.out.pointee.isClosed = 1
    return sent
  }
}
