import ChecklistsModel
import Crypto
import Foundation
import Interchange
import Storage
import Support

/// Where a CalDAV client finds things: the principal (the owner), the
/// calendar home (every list), a collection per list and a resource per item.
enum DAVAddress {
  static let root = "/dav/"
  static let principal = "/dav/principal/"
  static let home = "/dav/lists/"

  static func collection(_ list: Int) -> String { "\(home)\(list)/" }

  static func item(_ name: String, inList list: Int) -> String {
    collection(list) + percentEncoded(name)
  }

  /// A resource name as a path segment: letters, digits and `-._~@` as
  /// they are, every other byte percent-encoded.
  static func percentEncoded(_ name: String) -> String {
    var result = ""
    for byte in name.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"):
        result.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        result +=
          "%" + String(byte >> 4, radix: 16, uppercase: true)
          + String(byte & 0xF, radix: 16, uppercase: true)
      }
    }
    return result
  }
}

/// An item as a CalDAV resource: its name in its list's collection, its
/// iCalendar document (`CalendarTodo`, the one mapping) and a strong ETag
/// of those bytes, so the tag changes exactly when what a client reads does.
struct DAVTodo {
  let name: String
  let document: [UInt8]
  let etag: String

  /// `DTSTAMP` of an item no client wrote: a constant, so that an unchanged
  /// item's bytes and tag stay the same (the model keeps no time of change).
  static let stamp = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z

  /// The resource of `item`, the `position`th of its list.
  init(_ item: ChecklistItem, position: Int, salt: String, zone: TimeZone) {
    name = Self.name(of: item)
    document = CalendarTodo.document(
      item, uid: CalendarUID.uid(of: item, salt: salt), stamp: Self.stamp, sortOrder: position,
      zone: zone)
    etag = "\"\(Self.digest(document))\""
  }

  /// Its name: where a client put it, else `<id>.ics`.
  static func name(of item: ChecklistItem) -> String {
    item.calendar?.resource ?? "\(item.id).ics"
  }

  /// 128 bits of SHA-256 in hex.
  static func digest(_ bytes: [UInt8]) -> String {
    String(Hex.encode(contiguous: SHA256.hash(data: bytes)).prefix(32))
  }
}

/// A list as a calendar collection: its to-dos, and a tag that changes
/// whenever any of them or its name does (`getctag`).
struct DAVCollection {
  let list: Checklist
  let todos: [DAVTodo]
  let tag: String

  init(_ list: Checklist, salt: String, zone: TimeZone) {
    self.list = list
    todos = list.items.enumerated().map { position, item in
      DAVTodo(item, position: position, salt: salt, zone: zone)
    }
    var summary = Array((list.name + "\n").utf8)
    for todo in todos { summary.append(contentsOf: todo.etag.utf8) }
    tag = "\"\(DAVTodo.digest(summary))\""
  }

  /// The collection's sync token (RFC 6578): a URI naming its tag, so it
  /// changes exactly when the tag does.
  var syncToken: String { "urn:checklists:sync:" + tag.dropFirst().dropLast() }
}
