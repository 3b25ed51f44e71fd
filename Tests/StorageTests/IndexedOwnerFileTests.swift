import Documents
import Foundation
import Storage
import Support
import Testing

/// What the devices, the share links and the calendar addresses are built
/// on, and the three on it, tested on the engine in memory: nothing here
/// needs a file.
@Suite struct IndexedOwnerFileTests {
  let documents = MemoryDocuments()
  let data = "/data"
  var owner: VisitorDirectory { VisitorDirectory(dataDirectory: data, visitorID: "owner") }

  /// Texts in an owner's `Note.txt`, counting decodes.
  func notes(_ decodes: LockedValue<Int>) -> IndexedOwnerFile<String> {
    IndexedOwnerFile(
      fileName: "Note.txt", dataDirectory: data, durable: true, documents: documents,
      decode: { bytes in
        decodes.withLock { $0 += 1 }
        return String(decoding: bytes, as: UTF8.self)
      },
      encode: { Data($0.utf8) })
  }

  @Test func aWriteIsKeptDecodedAndReadBackWithoutDecoding() throws {
    let decodes = LockedValue(0)
    let notes = notes(decodes)
    #expect(try notes.load(owner, locked: false) == nil)
    try notes.locked(owner, creating: true) { try notes.write("hello", for: owner) }
    #expect(try notes.load(owner, locked: false) == "hello")
    #expect(decodes.withLock { $0 } == 0, "what was written is cached")
    #expect(try documents.read(notes.path(of: owner)) == Data("hello".utf8))
    #expect(notes.path(of: owner) == owner.path + "/Note.txt")
  }

  @Test func anIndexLeadsToTheOwner() throws {
    let notes = notes(LockedValue(0))
    let index = notes.index("notes")
    #expect(index.directory == "/data/notes")
    let digest = SecretDigest.of("a secret")
    #expect(try notes.owner(ofDigest: digest, in: index) == nil)
    try index.add(digest: digest, leadingTo: owner.key)
    #expect(try notes.owner(ofDigest: digest, in: index) == owner)
  }

  @Test func aCalendarAddressWorksOnAnyEngine() throws {
    let calendars = CalendarAddresses(dataDirectory: data, documents: documents)
    let secret = try calendars.create(for: owner)
    #expect(try calendars.visitor(presenting: secret.text) == owner)
    #expect(
      try documents.read(CalendarAddresses.secretPath(of: owner))
        == Data("\(secret.text)\n".utf8), "the file is the secret and a newline")
    let replaced = try calendars.replace(for: owner)
    #expect(try calendars.visitor(presenting: secret.text) == nil)
    #expect(try calendars.visitor(presenting: replaced.text) == owner)
    try calendars.remove(for: owner)
    #expect(try calendars.visitor(presenting: replaced.text) == nil)
  }

  @Test func aCalendarFileThatHoldsNoSecretIsLeftAndReadsAsNone() throws {
    let calendars = CalendarAddresses(dataDirectory: data, documents: documents)
    let path = CalendarAddresses.secretPath(of: owner)
    try documents.write(Data("not a secret\n".utf8), to: path, durable: true)
    #expect(try calendars.secret(of: owner) == nil)
    #expect(try documents.read(path) == Data("not a secret\n".utf8), "never set aside")
    let made = try calendars.create(for: owner)
    #expect(try calendars.secret(of: owner) == made)
  }

  @Test func secretsShareTheirFormAndHideTheirText() {
    let token = ShareToken(text: String(repeating: "a", count: 32))
    #expect(token != nil && ShareToken(text: String(repeating: "a", count: 64)) == nil)
    #expect(ShareToken.textLength == 32 && CalendarSecret.textLength == 64)
    #expect("\(token!)" == "ShareToken(hidden)")
    #expect("\(CalendarSecret.random())" == "CalendarSecret(hidden)")
    #expect(ShareToken(text: String(repeating: "A", count: 32)) == nil, "lower case only")
  }

  @Test func ownerFilesRefuseAnotherVersionAlike() throws {
    var devices = Devices()
    devices.version = 0
    var shares = Shares()
    shares.version = 2
    let refusedDevices = #expect(throws: Devices.Invalid.self) {
      try Devices.decode(try devices.encoded())
    }
    let refusedShares = #expect(throws: Shares.Invalid.self) {
      try Shares.decode(try shares.encoded())
    }
    #expect(refusedDevices?.description == "devices file version 0 is not 1")
    #expect(refusedShares?.description == "shares file version 2 is not 1")
  }
}
