import ChecklistsModel
import FileSystem
import Foundation
import TestSupport
import Testing

@testable import Storage

/// The owner's pending import: written whole and private, read back as
/// written with the digest of its bytes, replaced, removed, expired.
@Suite struct PendingImportsTests {
  let temporary = TemporaryDirectory("pending-imports")
  var data: String { temporary.path }
  let imports = PendingImports(durable: false)
  var owner: VisitorDirectory { VisitorDirectory(dataDirectory: data, visitorID: "someone") }

  static let created = Date(timeIntervalSince1970: 1_750_000_000)

  static let sample = PendingImport(
    created: created, fileName: "checklists “2025”.json", format: "json",
    lists: [
      ImportedList(
        name: "Trip <&> \"x\"", icon: .trips, sort: .dueDate,
        items: [
          ImportedItem(
            text: "Passport", checked: true, dueDate: Date(timeIntervalSince1970: 1_760_000_000),
            shouldRemind: true),
          ImportedItem(text: "  spaces kept as the file had them  "),
        ]),
      ImportedList(name: "Empty"),
    ])

  @Test func whatIsSavedIsLoadedBackWithTheDigestOfItsBytes() throws {
    #expect(try imports.load(of: owner) == nil)
    let digest = try imports.withLock(owner) { try imports.save(Self.sample, for: owner) }
    let stored = try #require(try imports.load(of: owner))
    #expect(stored.pending == Self.sample)
    #expect(stored.digest == digest)
    let bytes = try #require(FileManager.default.contents(atPath: PendingImports.path(of: owner)))
    #expect(PendingImports.digest(of: bytes) == digest)
    #expect(digest.utf8.count == 64)
    // An XML property list, private to the backend's user, beside the owner's other files.
    #expect(bytes.starts(with: Data("<?xml".utf8)))
    let mode =
      try FileManager.default.attributesOfItem(atPath: PendingImports.path(of: owner))[
        .posixPermissions] as? NSNumber
    #expect(mode?.intValue == 0o600)
    #expect(PendingImports.path(of: owner) == owner.path + "/PendingImport.plist")
  }

  @Test func aDueDateIsKeptToWholeSecondsAsTheModelKeepsIt() throws {
    var pending = Self.sample
    pending.lists[0].items[0].dueDate = Date(timeIntervalSince1970: 1_760_000_000.75)
    try imports.withLock(owner) { _ = try imports.save(pending, for: owner) }
    let loaded = try #require(try imports.load(of: owner)).pending
    #expect(loaded.lists[0].items[0].dueDate == Date(timeIntervalSince1970: 1_760_000_000))
  }

  @Test func theNextUploadReplacesItAndTheDigestMoves() throws {
    let first = try imports.withLock(owner) { try imports.save(Self.sample, for: owner) }
    var other = Self.sample
    other.lists.removeLast()
    let second = try imports.withLock(owner) { try imports.save(other, for: owner) }
    #expect(first != second)
    #expect(try imports.load(of: owner)?.pending == other)
    #expect(try imports.load(of: owner)?.digest == second)
  }

  @Test func removeLeavesNothingAndIsHarmlessTwice() throws {
    try imports.withLock(owner) { _ = try imports.save(Self.sample, for: owner) }
    try imports.remove(of: owner)
    #expect(try imports.load(of: owner) == nil)
    #expect(!FileManager.default.fileExists(atPath: PendingImports.path(of: owner)))
    try imports.remove(of: owner)
  }

  @Test func itExpiresAnHourAfterTheUpload() {
    let pending = Self.sample
    #expect(!pending.isExpired(at: Self.created))
    #expect(!pending.isExpired(at: Self.created + 3_599))
    #expect(pending.isExpired(at: Self.created + 3_600))
    // A clock set back far enough is no reason to keep it for ever.
    #expect(pending.isExpired(at: Self.created - 3_600))
  }

  @Test func aFileThatIsNoPendingImportIsUnreadableNotAnotherImport() throws {
    try AtomicFile.createDirectory(owner.path, durable: false)
    let path = PendingImports.path(of: owner)
    for bytes in [
      Data("not a plist".utf8), Data([0xFF, 0xFE, 0x00]), Data("bplist00".utf8),
      try PropertyListSerialization.data(
        fromPropertyList: ["version": 2, "lists": []], format: .xml, options: 0),
    ] {
      try bytes.write(to: URL(fileURLWithPath: path))
      #expect(throws: PendingImports.Unreadable.self) { try imports.load(of: owner) }
    }
  }

  @Test func theLockSerialisesTheOwnersChanges() throws {
    // Two threads each read, then write one more list: neither write is lost.
    try imports.withLock(owner) {
      _ = try imports.save(
        PendingImport(created: Self.created, fileName: "", format: "json", lists: []), for: owner)
    }
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      for _ in 0..<20 {
        try? imports.withLock(owner) {
          var pending = try #require(try imports.load(of: owner)).pending
          pending.lists.append(ImportedList(name: "x"))
          _ = try imports.save(pending, for: owner)
        }
      }
    }
    #expect(try imports.load(of: owner)?.pending.lists.count == 40)
  }

  /// The direct writer's bytes are the encoder's, and what is cached after
  /// a save is what a reader without the cache decodes.
  @Test func theWriterWritesWhatTheEncoderWritesAndTheCacheWhatAReaderReads() throws {
    var pending = Self.sample
    pending.lists[0].items[1].dueDate = Date(timeIntervalSince1970: 0)
    pending.lists[0].items[0].notes = "line & <one>\n\tindented\n\nlast"
    pending.lists.append(
      ImportedList(name: "Ünïcödé ✓ 🎒", icon: .none, items: [ImportedItem(text: "é")]))
    let written = try #require(PendingImportXMLWriter.document(pending))
    #expect(written == Array(try OwnerFile.encode(PendingImports.File(pending))))
    #expect(try PendingImports.decode(Data(written)) == pending)

    let digest = try imports.withLock(owner) { try imports.save(pending, for: owner) }
    let cached = try #require(try imports.load(of: owner))
    let read = try #require(try PendingImports(durable: false).load(of: owner))
    #expect(cached == read)
    #expect(read.digest == digest)
  }

  /// A text with a control character (which the lists an upload keeps
  /// never have: they are cleaned) is written by the encoder instead.
  @Test func aControlCharacterFallsBackToTheEncoder() throws {
    for text in ["bell \u{7}", "tab\t", "C1 \u{85}", "delete \u{7F}"] {
      var pending = Self.sample
      pending.lists[0].items[0].text = text
      #expect(PendingImportXMLWriter.document(pending) == nil, "\(text.debugDescription)")
      let bytes = try PendingImports.encode(pending)
      #expect(try PendingImports.decode(Data(bytes)).lists[0].items[0].text == text)
    }
    // A note's line breaks and tabs are plain; a bell or a carriage return is not.
    for (notes, plain) in [("a\n\tb", true), ("bell \u{7}", false), ("cr\r\nlf", false)] {
      var pending = Self.sample
      pending.lists[0].items[0].notes = notes
      #expect(
        (PendingImportXMLWriter.document(pending) != nil) == plain, "\(notes.debugDescription)")
      let bytes = try PendingImports.encode(pending)
      #expect(try PendingImports.decode(Data(bytes)).lists[0].items[0].notes == notes)
    }
    #expect(PendingImportXMLWriter.isPlain("é ✓ \u{A0} 🎒"))
  }
}
