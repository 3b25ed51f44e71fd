import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension FastCGITestClient {
  /// Connects to `host:port` over TCP from the local address `source`
  /// (any address of 127.0.0.0/8 is this host's), so a test can be a peer
  /// the server's allow-list does or does not name.
  init(host: String, port: Int, from source: String, timeout: Double = 2) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    setTimeout(timeout)
    func connectOrBind(_ address: String, _ port: Int, bind: Bool) -> Int32 {
      var socketAddress = sockaddr_in()
      socketAddress.sin_family = sa_family_t(AF_INET)
      socketAddress.sin_port = UInt16(port).bigEndian
      inet_pton(AF_INET, address, &socketAddress.sin_addr)
      return withUnsafePointer(to: &socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          let size = socklen_t(MemoryLayout<sockaddr_in>.size)
          return bind ? Glibc.bind(fd, $0, size) : connect(fd, $0, size)
        }
      }
    }
    guard connectOrBind(source, 0, bind: true) == 0, connectOrBind(host, port, bind: false) == 0
    else {
      let code = errno
      _ = Glibc.close(fd)
      throw Failure.connect(code)
    }
  }

  /// A TCP port of 127.0.0.1 that was free a moment ago (the system's pick).
  static func unusedLoopbackPort() -> Int {
    let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { _ = Glibc.close(probe) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        _ = Glibc.bind(probe, $0, length)
        _ = getsockname(probe, $0, &length)
      }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
