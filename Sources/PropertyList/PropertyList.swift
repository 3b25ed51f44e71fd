/// A property list read by our own strict readers (`BinaryPropertyListReader`,
/// `XMLPropertyListReader`), never by Foundation: the files a visitor imports and the
/// files the store keeps (`Checklists.plist`, `Preferences.plist`, the owners' files).
///
/// Why not Foundation: on Linux its plist code stops the process on some hostile files
/// instead of throwing, and the fuzzer found each: `PropertyListSerialization` on a set
/// holding a dictionary (a null dereference while bridging `NSSet`, in a 183-byte
/// `Preferences.plist`); `PropertyListDecoder` on an array whose count times the reference
/// size passes `Int.max` (its integer conversion traps), on strings whose length runs past
/// the object table, and on bytes that are not UTF-8 inside an XML `<integer>`.
/// `NSKeyedUnarchiver`, built on it, adds its own ways to stop: under secure coding a class
/// it was not told about is a `fatalError`, and it caches a decoded object only once
/// `init(coder:)` returns, so an archive whose object contains itself recurses until the
/// stack runs out. These readers instead check every offset, count, reference and nesting
/// level, and refuse with a `PropertyListError` sentence.
///
/// The objects are kept flat, in one array, and a container holds the positions of its
/// members rather than the members: a binary plist may refer to one object from many
/// places, and a tree built from it could grow exponentially (a few KB naming one array
/// from every slot of another, 30 times over). Reading is bounded by the file's size.
package struct PropertyList: Sendable, Equatable {
  /// The two encodings Foundation writes; OpenStep's old text format is not read.
  package enum Format: Sendable, Equatable {
    case binary
    case xml
  }

  /// What an integer past `Int64.max` reads as: the readers refuse one (an import has no
  /// use for it), unless asked to read it as the nearest `real`, as `UserDefaults` does
  /// with the integers up to 2⁶⁴ − 1 that CoreFoundation and Python write.
  package enum LargeIntegers: Sendable {
    case refused
    case asReals
  }

  /// Containers nested deeper than this are refused. The deepest plists read here, keyed
  /// archives, nest six levels (XML's `plist`, `$objects`, an object, its `NS.objects`, a
  /// UID as `CF$UID` dictionary); a Codable list of checklists nests five.
  package static let maximumDepth = 32

  package let format: Format
  /// Every object; `top` and the containers refer to positions here.
  package let objects: [PropertyListObject]
  /// The position of the outermost object.
  package let top: Int

  package init(format: Format, objects: [PropertyListObject], top: Int) {
    self.format = format
    self.objects = objects
    self.top = top
  }

  /// Reads `bytes` as a binary (`bplist00`) or XML property list, whichever they are (XML
  /// in UTF-8, or in UTF-16 after its byte-order mark).
  ///
  /// - Throws: `PropertyListError` when they are neither, or are malformed.
  package init(reading bytes: [UInt8], largeIntegers: LargeIntegers = .refused)
    throws(PropertyListError)
  {
    if bytes.starts(with: BinaryPropertyListReader.magic.prefix(6)) {
      self = try BinaryPropertyListReader.read(bytes, largeIntegers: largeIntegers)
    } else if XMLPropertyListReader.looksLike(bytes) {
      self = try XMLPropertyListReader.read(bytes, largeIntegers: largeIntegers)
    } else if let utf8 = XMLPropertyListReader.utf8(fromUTF16: bytes),
      XMLPropertyListReader.looksLike(utf8)
    {
      self = try XMLPropertyListReader.read(utf8, largeIntegers: largeIntegers)
    } else {
      throw PropertyListError(translatable("This file is not a property list."))
    }
  }

  /// Whether `bytes` start like a property list this module reads: `bplist00`, or XML
  /// with `<plist` or `<!DOCTYPE plist` near the start. Nothing more is checked.
  package static func looksLike(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: BinaryPropertyListReader.magic) || XMLPropertyListReader.looksLike(bytes)
  }

  /// The object at `index`, which a reader has checked is in range.
  package subscript(index: Int) -> PropertyListObject { objects[index] }

  /// The outermost object.
  package var topObject: PropertyListObject { objects[top] }
}

/// One object of a `PropertyList`. Arrays and dictionaries hold positions in
/// `PropertyList.objects`.
package enum PropertyListObject: Sendable, Equatable {
  case dictionary([String: Int])
  case array([Int])
  case string(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  /// Seconds since 2001-01-01 00:00:00 UTC, the reference date of `NSDate`.
  case date(Double)
  case data([UInt8])
  /// A keyed archive's reference to an entry of its `$objects`: a marker of its own in a
  /// binary plist, a dictionary whose one key is `CF$UID` in XML.
  case uid(UInt64)

  /// What the object is, in words for a visitor's message ("a string").
  package var kind: String {
    switch self {
    case .dictionary: "a dictionary"
    case .array: "an array"
    case .string: "a string"
    case .integer: "an integer"
    case .real: "a real number"
    case .bool: "a true/false value"
    case .date: "a date"
    case .data: "data"
    case .uid: "a reference"
    }
  }
}

extension PropertyList {
  /// Checks the nesting of the containers reachable from `top`: no container may hold
  /// itself, directly or through others (a binary plist can say so; XML cannot), and no
  /// chain may nest deeper than `maximumDepth`, whichever way an object shared by several
  /// containers is reached. One walk without recursion, each object finished once: work
  /// in proportion to objects and references.
  ///
  /// - Throws: `PropertyListError` for a cycle or too deep a nesting.
  func checkNesting() throws(PropertyListError) {
    /// 0: not seen; -1: on the path being walked; n > 0: finished, n levels of
    /// containers from it down.
    var height = [Int](repeating: 0, count: objects.count)
    /// Containers from `top` down to the one being walked, with the next member to visit.
    var path: [(object: Int, members: [Int], next: Int)] = []
    func members(_ index: Int) -> [Int]? {
      switch objects[index] {
      case .array(let members): members
      case .dictionary(let entries): Array(entries.values)
      default: nil
      }
    }
    let tooDeep = PropertyListError(
      translatable("This property list nests containers more than {{limit}} deep."),
      ["limit": String(PropertyList.maximumDepth)])
    guard let topMembers = members(top) else { return }
    height[top] = -1
    path.append((top, topMembers, 0))
    while let last = path.last {
      if last.next == last.members.count {
        height[last.object] = 1 + last.members.reduce(0) { max($0, height[$1]) }
        path.removeLast()
        continue
      }
      let member = last.members[last.next]
      path[path.count - 1].next += 1
      switch height[member] {
      case -1:
        throw PropertyListError(
          translatable("This property list is damaged: a container holds itself."))
      case 0:
        guard let inner = members(member) else { continue }
        guard path.count < PropertyList.maximumDepth else { throw tooDeep }
        height[member] = -1
        path.append((member, inner, 0))
      case let below:
        guard path.count + below <= PropertyList.maximumDepth else { throw tooDeep }
      }
    }
  }
}
