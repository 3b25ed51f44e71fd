/// An IPv4 address, as a TCP peer or an allow-list entry.
package struct IPv4Address: Hashable, Sendable, CustomStringConvertible {
  /// The four octets, the first in the highest byte.
  package let value: UInt32

  package init(value: UInt32) { self.value = value }

  /// Dotted decimal, exactly four octets (`10.0.0.11`); nil otherwise.
  package init?<Text: StringProtocol>(_ text: Text) {
    let octets = text.split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4 else { return nil }
    var value: UInt32 = 0
    for octet in octets {
      guard octet.allSatisfy(\.isASCII), let byte = UInt8(octet) else { return nil }
      value = value << 8 | UInt32(byte)
    }
    self.value = value
  }

  /// 127.0.0.0/8: only this host can reach an address in it.
  package var isLoopback: Bool { value >> 24 == 127 }

  package var description: String {
    [24, 16, 8, 0].map { String(value >> $0 & 0xff) }.joined(separator: ".")
  }
}

/// The peers allowed to connect to a TCP listening socket.
///
/// A FastCGI backend trusts what its peer says (the client's address, the
/// scheme, the host), so on an address other machines can reach it must
/// answer only the balancing nginx. The list has the form of libfcgi's
/// `FCGI_WEB_SERVER_ADDRS` (IPv4 addresses separated by commas).
package struct PeerAllowList: Sendable, Equatable, CustomStringConvertible {
  package let addresses: Set<IPv4Address>

  /// Addresses separated by commas, spaces around them ignored; nil when
  /// one is not an IPv4 address or there is none (libfcgi would silently
  /// never match such an entry).
  package init?(parsing text: String) {
    var addresses: Set<IPv4Address> = []
    for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let address = IPv4Address(entry.trimmingSpaces) else { return nil }
      addresses.insert(address)
    }
    guard !addresses.isEmpty else { return nil }
    self.addresses = addresses
  }

  package func allows(_ peer: IPv4Address) -> Bool { addresses.contains(peer) }

  package var description: String {
    addresses.sorted { $0.value < $1.value }.map(\.description).joined(separator: ",")
  }
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    let start = drop { $0 == " " }
    let spacesAtEnd = start.reversed().prefix { $0 == " " }.count
    return start.dropLast(spacesAtEnd)
  }
}
