/// The path of a route, such as `/lists/{list}/items/{item}/toggle`:
/// literal segments and stable ids, matched against a request's raw path.
///
/// A literal matches its own bytes only, so a percent-encoded spelling
/// (`%6cists`) never matches. `{name}` matches a stable id and records it
/// under `name` (see `PathParameter`). `{secret}`, alone in its segment
/// (`/s/{secret}`) or followed by an extension (`{secret}.ics`), matches a
/// secret token (see `secretToken(_:)`) and that suffix, and records the
/// token: an address whose path is its key, such as a calendar's or a
/// shared list's.
package struct RoutePattern: Sendable, Hashable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  enum Segment: Sendable, Hashable {
    /// The segment's bytes.
    case literal([UInt8])
    case id(PathParameter)
    /// A secret token, then these bytes (none for a token alone).
    case secret(suffix: [UInt8])
    /// A resource's name as a client chose it (`{resource}`, the last
    /// segment of a CalDAV item's address), percent-decoded.
    case resource
    /// A calendar collection's segment (`{collection}`): a list's id or
    /// the name a client gave the list, percent-decoded as a resource's
    /// name is; which list it is, the handler finds in the owner's lists.
    case collection
  }

  /// How a segment that carries a resource's name is written in the table.
  static let resourcePlaceholder = "{resource}"

  /// How a segment that carries a collection's id or name is written.
  static let collectionPlaceholder = "{collection}"

  /// How a segment that carries a secret token starts in the table.
  static let secretPlaceholder = "{secret}"

  let segments: [Segment]
  /// The path parameters, in the order the pattern names them.
  let parameterNames: [PathParameter]
  package let description: String

  /// Parses a pattern written in the route table. A malformed one is a
  /// mistake in the table, caught when the table is built at start-up.
  init(_ text: String) {
    precondition(text.hasPrefix("/"), "a route's path starts with /: \(text)")
    description = text
    let parts = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    segments =
      text == "/"
      ? []
      : parts.indices.map {
        // A collection's address ends with `/`: its last segment is empty.
        parts[$0].isEmpty && $0 == parts.count - 1 && $0 > 0
          ? .literal([]) : Self.segment(parts[$0], of: text)
      }
    parameterNames = segments.compactMap { if case .id(let name) = $0 { name } else { nil } }
    precondition(
      Set(parameterNames).count == parameterNames.count, "a parameter named twice in \(text)")
  }

  package init(stringLiteral text: String) { self.init(text) }

  private static func segment(_ text: Substring, of pattern: String) -> Segment {
    if text == resourcePlaceholder { return .resource }
    if text == collectionPlaceholder { return .collection }
    if text.hasPrefix(secretPlaceholder) {
      let suffix = text.dropFirst(secretPlaceholder.count)
      precondition(
        suffix.isEmpty
          || (suffix.hasPrefix(".") && suffix.utf8.count > 1
            && suffix.utf8.dropFirst().allSatisfy { isTokenByte($0) }),
        "a secret stands alone in its segment or is followed by an extension such as .ics in \(pattern)"
      )
      return .secret(suffix: Array(suffix.utf8))
    }
    if text.hasPrefix("{") && text.hasSuffix("}") {
      guard let name = PathParameter(rawValue: String(text.dropFirst().dropLast())) else {
        preconditionFailure("no path parameter named \(text) in \(pattern)")
      }
      return .id(name)
    }
    // A literal of digits alone could also be an id, and `{`, `}`, `%` or
    // a byte outside ASCII would never match a path as the product spells it.
    precondition(
      !text.isEmpty && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        && !text.contains(where: { "{}%".contains($0) })
        && !text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") },
      "malformed segment \(text.debugDescription) in \(pattern)")
    return .literal(Array(text.utf8))
  }

  /// The literals in order, nil for an id, the suffix after a nil for a
  /// secret: two patterns of the same shape match the same paths, whatever
  /// their ids are named. A secret alone in its segment is a nil, as an id
  /// is: both match a run of digits, so the table refuses the two at the
  /// same place as it refuses two ids.
  var shape: [[UInt8]?] {
    segments.flatMap { segment -> [[UInt8]?] in
      switch segment {
      case .literal(let literal): [literal]
      case .id, .resource, .collection: [nil]
      case .secret(let suffix): suffix.isEmpty ? [nil] : [nil, suffix]
      }
    }
  }

  /// True when the pattern has a `{secret}` segment.
  var carriesSecret: Bool {
    segments.contains { if case .secret = $0 { true } else { false } }
  }

  /// True when the pattern has a `{resource}` or `{collection}` segment.
  var carriesName: Bool {
    segments.contains {
      switch $0 {
      case .resource, .collection: true
      default: false
      }
    }
  }

  /// What a path carries: the ids in the order of `parameterNames`, the
  /// secret token of a `{secret}` segment, the name of a `{resource}` one,
  /// the id or name of a `{collection}` one.
  struct Captured {
    var ids: [Int]
    var secret: String?
    var resource: String? = nil
    var collection: String? = nil
  }

  /// The ids and the secret in `path`, or nil when it does not match.
  /// `path` is a raw path of as many segments as the pattern, none of them
  /// empty but maybe the last (see `RouteTable.segmentCount(of:)`). The literals are compared
  /// first, so a path of another shape costs no id parsing.
  func match(_ path: UnsafeBufferPointer<UInt8>) -> Captured? {
    var start = 1
    for segment in segments {
      let end = Self.end(ofSegmentAt: start, in: path)
      switch segment {
      case .literal(let literal):
        if !literal.elementsEqual(path[start..<end]) { return nil }
      case .secret(let suffix):
        if end - start <= suffix.count || !suffix.elementsEqual(path[(end - suffix.count)..<end]) {
          return nil
        }
      case .id, .resource, .collection:
        break
      }
      start = end + 1
    }
    if parameterNames.isEmpty && !carriesSecret && !carriesName {
      return Captured(ids: [], secret: nil)
    }
    var captured = Captured(ids: [], secret: nil)
    captured.ids.reserveCapacity(parameterNames.count)
    start = 1
    for segment in segments {
      let end = Self.end(ofSegmentAt: start, in: path)
      switch segment {
      case .id:
        guard let id = Self.identifier(path[start..<end]) else { return nil }
        captured.ids.append(id)
      case .secret(let suffix):
        guard let token = Self.secretToken(path[start..<(end - suffix.count)]) else { return nil }
        captured.secret = token
      case .resource:
        guard let name = Self.resourceName(path[start..<end]) else { return nil }
        captured.resource = name
      case .collection:
        guard let name = Self.resourceName(path[start..<end]) else { return nil }
        captured.collection = name
      case .literal:
        break
      }
      start = end + 1
    }
    return captured
  }

  /// The index of the `/` after the segment that starts at `start`, or the
  /// path's end.
  private static func end(ofSegmentAt start: Int, in path: UnsafeBufferPointer<UInt8>) -> Int {
    var end = start
    while end < path.count && path[end] != UInt8(ascii: "/") { end += 1 }
    return end
  }

  /// At most 18 digits, so every id fits an `Int` (whose largest value has 19).
  static let maximumIdentifierDigits = 18

  /// A stable id: 1 to 18 ASCII digits without a leading zero, so `0`,
  /// `01`, `+1`, `-1`, `1e3`, `١` (a non-ASCII digit) and 19 digits all fail.
  static func identifier<Digits: Collection<UInt8>>(_ digits: Digits) -> Int? {
    guard let first = digits.first, first != UInt8(ascii: "0"),
      digits.count <= maximumIdentifierDigits
    else { return nil }
    var value = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(digit - UInt8(ascii: "0"))
    }
    return value
  }

  /// The longest resource name a path may carry, decoded.
  static let maximumResourceLength = 255

  /// A resource's name: the segment percent-decoded, 1 to 255 bytes of
  /// UTF-8 with no control character and no `/`, and neither `.` nor `..`;
  /// nil otherwise (a malformed escape too).
  static func resourceName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String?
  where Bytes.Index == Int {
    var decoded: [UInt8] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      var byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
          let low = hexValue(bytes[index + 2])
        else { return nil }
        byte = high << 4 | low
        index += 2
      }
      guard byte >= 0x20, byte != 0x7F, byte != UInt8(ascii: "/") else { return nil }
      decoded.append(byte)
      index += 1
    }
    guard !decoded.isEmpty, decoded.count <= maximumResourceLength,
      let name = String(validating: decoded, as: UTF8.self), name != ".", name != ".."
    else { return nil }
    return name
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The longest secret token a path may carry.
  static let maximumSecretLength = 64

  /// A secret token: 1 to 64 lower-case ASCII letters and digits (what a
  /// hex or base32 secret is written in), or nil. Whether it is anyone's
  /// secret is for the handler to find out; a token of another shape is
  /// simply not found, like any unknown address.
  static func secretToken<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
    guard !bytes.isEmpty, bytes.count <= maximumSecretLength, bytes.allSatisfy(isTokenByte) else {
      return nil
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }
}
