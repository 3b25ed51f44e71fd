import ChecklistsModel
import ChecklistsWeb
import FastCGI
import Foundation
import HTMLTemplates
import Interchange
import Logging
import Preferences
import Storage

/// The fuzz targets: each takes arbitrary bytes, must never crash, and
/// checks the invariants that are cheap to state. A broken invariant is a
/// `fatalError`, which libFuzzer (or the replay mode) reports as a crash.
enum FuzzTargets {
  /// Every target by the name `--target=` and the corpus folder use.
  static let all: [String: @Sendable ([UInt8]) -> Void] = [
    "form": form,
    "cookie": cookie,
    "router": router,
    "template": template,
    "escape": escape,
    "checklists-plist": checklistsPlist,
    "preferences-plist": preferencesPlist,
    "markdown-import": markdownImport,
    "json-import": jsonImport,
    "app-archive": appArchive,
    "plist-reader": plistReader,
    "multipart": multipart,
    "icalendar": iCalendar,
    "dav-xml": davXML,
  ]

  static var names: [String] { all.keys.sorted() }

  static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
  }

  // MARK: form decoder

  /// Decoding never crashes; what it decodes survives a round trip through
  /// a full percent-encoding, and never holds more fields than the limit.
  static func form(_ bytes: [UInt8]) {
    let limit = 8
    guard let decoded = try? FormDecoder.decode(bytes, fieldLimit: limit) else { return }
    check(decoded.fields.count <= limit, "\(decoded.fields.count) fields past the limit")
    let encoded = decoded.fields.map { percentEncoded($0.name) + "=" + percentEncoded($0.value) }
      .joined(separator: "&")
    let again = try? FormDecoder.decode(Array(encoded.utf8), fieldLimit: limit)
    check(again == decoded, "round trip changed \(decoded) into \(String(describing: again))")
  }

  static func percentEncoded(_ text: String) -> String {
    text.utf8.map { byte in
      let hex = String(byte, radix: 16, uppercase: byte & 1 == 0)
      return "%" + (hex.count == 1 ? "0" + hex : hex)
    }.joined()
  }

  // MARK: cookie parser

  /// A value is found only under a name the header holds, and is itself in
  /// the header; a visitor id is accepted only as 32 lower-case hex digits.
  static func cookie(_ bytes: [UInt8]) {
    let header = String(decoding: bytes, as: UTF8.self)
    let cookies = Cookies(header: header)
    var names = ["visitor", "a", "", " ", "\""]
    for pair in header.split(separator: ";") {
      if let equals = pair.firstIndex(of: "=") {
        names.append(String(pair[..<equals]))
        names.append(pair[..<equals].trimmingCharacters(in: .whitespaces))
      }
    }
    for name in names {
      guard let value = cookies[name] else { continue }
      check(
        !name.isEmpty && header.contains(name), "value under absent name \(name.debugDescription)")
      check(
        value.isEmpty || header.contains(value), "value \(value.debugDescription) not in the header"
      )
      visitorID(value)
    }
    visitorID(header)
    check(Cookies(header: nil) == Cookies(header: ""), "nil and empty headers differ")
  }

  static func visitorID(_ value: String) {
    visitorCookie(value)
    guard let id = VisitorID(cookieValue: value) else { return }
    let isHex = value.utf8.allSatisfy {
      ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
    }
    check(value.utf8.count == 32 && isHex, "visitor id from \(value.debugDescription)")
    check(id.cookieValue == value, "visitor id changed its value")
  }

  /// A visitor cookie is its 32-hex id, maybe with a day: the id is the
  /// value's first 32 bytes, and what it writes back reads back the same.
  static func visitorCookie(_ value: String) {
    guard let cookie = VisitorCookie(value: value) else { return }
    check(value.utf8.starts(with: cookie.id.cookieValue.utf8), "visitor cookie id from \(value)")
    check(VisitorCookie(value: cookie.value) == cookie, "visitor cookie round trip of \(value)")
    check(cookie.day.map { $0 >= 0 } ?? true, "negative day from \(value)")
  }

  // MARK: path router

  static let methods = ["GET", "HEAD", "POST", "PUT", "get", "", "OPTIONS", "DELETE"]

  /// First byte: the method (as nginx would pass it); the rest: the path.
  /// Ids are always positive and at most 18 digits; only a short absolute
  /// path is ever routed.
  static func router(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let method = Request(parameters: ["REQUEST_METHOD": methods[Int(first) % methods.count]])
      .method
    let path = String(decoding: bytes.dropFirst(), as: UTF8.self)
    let outcome = RouteTable.checklists.resolve(method: method, path: path)
    switch outcome {
    case .matched(let match):
      check(path.hasPrefix("/") && path.utf8.count <= 128, "routed \(path.debugDescription)")
      check(match.route.isChange == (method == .post), "\(match.route) reached by \(method)")
      for name in PathParameter.allCases {
        guard let id = match.parameters[name] else { continue }
        check(id > 0 && id <= 999_999_999_999_999_999, "id \(id) from \(path.debugDescription)")
      }
      if let secret = match.parameters.secret {
        check(
          (1...64).contains(secret.utf8.count)
            && secret.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) },
          "secret token from \(path.debugDescription)")
      }
    case .methodNotAllowed(let allowed):
      check(!allowed.isEmpty, "405 with nothing allowed")
      check(!allowed.contains(method.rawValue) || method == .head, "\(method) allowed yet refused")
    case .notFound:
      break
    }
  }

  // MARK: template renderer

  /// A context with every kind of value, nested, so fuzzed tags find data.
  static let context: TemplateValue = [
    "x": "<a href=\"x\">&'</a>", "n": 0, "d": 1.5, "t": true, "f": false, "e": "", "z": nil,
    "list": [["x": "one"], ["x": "two", "list": [1, 2]], "three"],
    "o": ["x": "inner", "o": ["x": "deeper"]],
  ]

  /// The input is one template, or, split at the first NUL, a template and
  /// a partial named `p` (which may recurse). Parsing or rendering may
  /// throw; neither may crash.
  static func template(_ bytes: [UInt8]) {
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let main = String(decoding: parts[0], as: UTF8.self)
    if parts.count == 1 {
      guard let template = try? Template(main, name: "main") else { return }
      _ = try? template.render(context)
      return
    }
    let partial = String(decoding: parts[1], as: UTF8.self)
    guard let library = try? TemplateLibrary(templates: ["main": main, "p": partial]) else {
      return
    }
    _ = try? library.render("main", context: context)
  }

  /// `{{x}}` with fuzzed text renders exactly the reference escaping: no raw
  /// `<`, `>`, `"`, `'` or `&` outside an entity.
  static func escape(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let template = escapeTemplates.0
    let library = escapeTemplates.1
    let expected = "<p title=\"" + referenceEscaped(text) + "\">" + referenceEscaped(text) + "</p>"
    let rendered = try? template.render(["x": .string(text)])
    check(
      rendered == expected, "escaped \(text.debugDescription) as \(String(describing: rendered))")
    let viaLibrary = try? library.render("page", context: ["x": .string(text)])
    check(viaLibrary == expected, "library escaped \(text.debugDescription) differently")
    let raw = try? template.render(["x": .list([["x": .string(text)]])])
    check(raw != nil, "a list under x failed to render")
  }

  static let escapeTemplates: (Template, TemplateLibrary) = {
    let source = "<p title=\"{{x}}\">{{x}}</p>"
    // Both are valid by construction; a failure here is a bug worth crashing on.
    return (
      try! Template(source, name: "page"),
      try! TemplateLibrary(templates: ["page": "<p title=\"{{>attr}}\">{{x}}</p>", "attr": "{{x}}"])
    )
  }()

  static func referenceEscaped(_ text: String) -> String {
    var result = ""
    for character in text.unicodeScalars {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }

  // MARK: plist loaders

  /// A decoded model keeps what the store relies on (positive unique ids,
  /// counters above them) and survives a round trip through the encoder.
  static func checklistsPlist(_ bytes: [UInt8]) {
    // The direct reader either leaves a file to the general one or reads
    // exactly what that one reads.
    if let direct = ChecklistsFile.decodeDirectly(bytes) {
      let general = try? ChecklistsFile.decodeGenerally(bytes)
      check(
        general == direct && general?.lists.map(\.changes) == direct.lists.map(\.changes),
        "the direct reader read another model than the general one")
    }
    guard let model = try? ChecklistStore.decodeChecklistsFile(Data(bytes)) else { return }
    var listIDs = Set<Int>()
    var itemIDs = Set<Int>()
    for list in model.lists {
      check(list.id > 0 && listIDs.insert(list.id).inserted, "list id \(list.id)")
      check(list.id < model.nextListID, "list id \(list.id) not below the counter")
      for item in list.items {
        check(item.id > 0 && itemIDs.insert(item.id).inserted, "item id \(item.id)")
        check(item.id < model.nextItemID, "item id \(item.id) not below the counter")
      }
    }
    for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
      let encoder = PropertyListEncoder()
      encoder.outputFormat = format
      guard let data = try? encoder.encode(model) else {
        check(false, "a decoded model failed to encode")
        return
      }
      let again = try? ChecklistStore.decodeChecklistsFile(data)
      check(again == model, "round trip (\(format)) changed the model")
    }
  }

  /// Parsing a persistent domain never crashes, for any bytes; a parsed domain is
  /// written back through our own XML writer (it once trapped on a date of 1e300 seconds)
  /// and reads back with the same keys.
  static func preferencesPlist(_ bytes: [UInt8]) {
    guard let domain = Defaults.decodePersistentDomain(Data(bytes)) else { return }
    let directory = scratchDirectory + "/domain"
    let writer = Defaults(logger: Logger(label: "fuzz"), durable: false, cacheCapacity: 1)
    guard (try? writer.setPersistentDomain(domain, forName: directory)) != nil else { return }
    let reader = Defaults(logger: Logger(label: "fuzz"), durable: false, cacheCapacity: 1)
    let read = reader.persistentDomain(forName: directory) ?? [:]
    check(Set(read.keys) == Set(domain.keys.map(sanitizedKey)), "keys changed in a round trip")
  }

  /// Keys lose the characters a plist cannot hold, and then any leading
  /// U+FEFF (read back as a byte-order mark), as `setPersistentDomain` documents.
  static func sanitizedKey(_ key: String) -> String {
    String(
      String.UnicodeScalarView(
        key.unicodeScalars.filter(isPlistScalar).drop { $0 == "\u{FEFF}" }))
  }

  static func isPlistScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
    default: false
    }
  }

  // MARK: JSON import

  /// Reading never crashes and always says why it refuses; what it reads
  /// looked like JSON and has no list or item past the limits; and what it
  /// reads and the model accepts is exported and read again as the same
  /// lists: the model's, and the file's once cleaned, in any order.
  static func jsonImport(_ bytes: [UInt8]) {
    let lists: [ImportedList]
    do {
      lists = try JSONImport.lists(from: bytes)
    } catch {
      check(error.message.hasSuffix("."), "refused without a sentence: \(error.message)")
      return
    }
    check(JSONImport.looksLike(bytes), "read a file that does not start with {")
    check(lists.count <= Limits.maximumLists, "\(lists.count) lists read")
    for list in lists {
      check(list.items.count <= Limits.maximumItemsPerList, "\(list.items.count) items read")
    }
    var model = DataModel()
    guard (try? model.addImported(lists)) != nil else { return }
    let exported = JSONExport.document(model, exportedAt: Date(timeIntervalSince1970: 1e9))
    let again: [ImportedList]
    do {
      again = try JSONImport.lists(from: exported)
    } catch {
      check(false, "its own export refused: \(error.message)")
      return
    }
    let modelLists = model.lists.map { list in
      ImportedList(
        name: list.name, icon: list.icon, sort: list.sort,
        items: list.items.map {
          ImportedItem(
            text: $0.text, checked: $0.checked, dueDate: $0.dueDate, shouldRemind: $0.shouldRemind)
        })
    }
    check(again == modelLists, "the export read back differs from the model")
    let cleaned = lists.map { list in
      var list = list
      list.name = (try? TextInput.clean(list.name)) ?? "(refused)"
      for index in list.items.indices {
        list.items[index].text = (try? TextInput.clean(list.items[index].text)) ?? "(refused)"
      }
      return list
    }
    check(
      cleaned.map { "\($0)" }.sorted() == again.map { "\($0)" }.sorted(),
      "the export read back differs from the file")
  }

  static let scratchDirectory: String = {
    let path = NSTemporaryDirectory() + "checklists-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

}
