import ChecklistsModel
import Crypto
import Documents
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

  /// A list's collection: under the name a client gave it when it made
  /// the list, else under its id (either reaches it).
  static func collection(_ list: Checklist) -> String {
    "\(home)\(list.calendarName ?? String(list.id))/"
  }

  static func item(_ name: String, in list: Checklist) -> String {
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
struct DAVTodo: Sendable {
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
    item.resourceName
  }

  /// 128 bits of SHA-256 in hex.
  static func digest(_ bytes: [UInt8]) -> String {
    String(Hex.encode(contiguous: SHA256.hash(data: bytes)).prefix(32))
  }
}

/// A list as a calendar collection: its to-dos, and a tag that changes
/// whenever any of them or its name does (`getctag`).
struct DAVCollection: Sendable {
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

}

/// What `PROPFIND` and a `sync-collection` with nothing changed need of a
/// collection: its members' names and tags, and its own tag. Working them
/// out writes every to-do (~3 ms for 1,000 in release), so they are kept
/// per owner, list, zone and version of the owner's file
/// (`DAVCollectionTags.Cache`): a version changes with every write, as the
/// cached model's does.
struct DAVCollectionTags: Sendable {
  let tag: String
  let members: [(name: String, etag: String)]
  let syncToken: DAVSyncToken

  init(_ collection: DAVCollection, zone: TimeZone) {
    tag = collection.tag
    members = collection.todos.map { ($0.name, $0.etag) }
    syncToken = DAVSyncToken(
      revision: collection.list.changes.revision, zone: DAVSyncToken.digest(of: zone),
      tag: String(tag.dropFirst().dropLast()))
  }

  /// The last collections' tags, bounded: 32 lists of 5,000 items keep
  /// about 16 MB at most, a list of 1,000 about 100 KB. One entry per
  /// owner, list and zone, holding the version it was made of: as
  /// `VersionedFile` keeps only the version it read last, a file that comes
  /// back to an identity seen before is never taken for that one.
  final class Cache: Sendable {
    struct Key: Hashable {
      let owner: String
      let list: Int
      let zone: String
    }
    private let entries = LockedValue(
      LRUCache<Key, (version: DocumentVersion?, tags: DAVCollectionTags)>(capacity: 32))

    /// The tags of the list `key` names at `version`, worked out by `make`
    /// when the entry is of another version or missing.
    func tags(_ key: Key, version: DocumentVersion?, _ make: () -> DAVCollectionTags)
      -> DAVCollectionTags
    {
      if let kept = entries.withLock({ $0.value(forKey: key) }), kept.version == version {
        return kept.tags
      }
      let made = make()
      entries.withLock { $0.setValue((version, made), forKey: key) }
      return made
    }
  }
}

/// A collection's sync token (RFC 6578), a URI: the list's revision (its
/// `ChangeLog`'s), a digest of the owner's zone (which dates without a zone
/// are read in, so a change of it changes what every such to-do reads) and
/// the collection's tag. A token of an earlier revision in the same zone is
/// answered from the list's change log; one of the same revision only when
/// the tag is the same too, since what changed without a revision (the
/// server's own mapping, after an upgrade) is not in the log.
struct DAVSyncToken: Sendable, Equatable {
  let revision: Int
  let zone: String
  let tag: String

  static let prefix = "urn:checklists:sync:"

  init(revision: Int, zone: String, tag: String) {
    self.revision = revision
    self.zone = zone
    self.tag = tag
  }

  /// A token as a client sends it back, or nil for one this server did not
  /// give (an older form included).
  init?(_ text: String) {
    guard text.hasPrefix(Self.prefix) else { return nil }
    let parts = text.dropFirst(Self.prefix.count).split(
      separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, let revision = Int(parts[0]), revision >= 0 else { return nil }
    self.init(revision: revision, zone: String(parts[1]), tag: String(parts[2]))
  }

  var text: String { "\(Self.prefix)\(revision)-\(zone)-\(tag)" }

  /// 32 bits of SHA-256 of the zone's name, in hex.
  static func digest(of zone: TimeZone) -> String {
    String(DAVTodo.digest(Array(zone.identifier.utf8)).prefix(8))
  }
}
