import Documents
import Foundation
import Support
import Testing

/// The cache of decoded documents needs nothing of an engine but the seam:
/// on memory it keeps a value while the version is unchanged, decodes
/// another writer's version, and sets an undecodable one aside once.
@Suite struct VersionedFileOnMemoryTests {
  let store = MemoryDocuments()
  let path = "/data/users/ab/owner/Value.txt"

  struct NotAValue: Error {}
  struct FromTheFuture: Error {}

  /// A cache of `v:` texts that counts its decodes.
  final class Texts: Sendable {
    let decodes = LockedValue(0)
    let file: VersionedFile<String>

    init(_ store: MemoryDocuments) {
      let decodes = self.decodes
      file = VersionedFile(
        documents: store, lockName: ".Value.lock", cacheCapacity: 10,
        decode: { bytes in
          decodes.withLock { $0 += 1 }
          let text = String(decoding: bytes, as: UTF8.self)
          if text.hasPrefix("future:") { throw FromTheFuture() }
          guard text.hasPrefix("v:") else { throw NotAValue() }
          return String(text.dropFirst(2))
        },
        keepsInPlace: { $0 is FromTheFuture })
    }

    var decodeCount: Int { decodes.withLock { $0 } }
  }

  @Test func aValueIsDecodedOncePerVersion() throws {
    let texts = Texts(store)
    #expect(try texts.file.load(path, key: "a") == nil)
    try store.write(Data("v:one".utf8), to: path, durable: false)
    #expect(try texts.file.load(path, key: "a")?.value == "one")
    #expect(try texts.file.load(path, key: "a")?.value == "one")
    #expect(texts.decodeCount == 1)
    try store.write(Data("v:two".utf8), to: path, durable: false)
    #expect(try texts.file.load(path, key: "a")?.value == "two")
    #expect(texts.decodeCount == 2)
  }

  @Test func aWriterCachesWhatItWrote() throws {
    let texts = Texts(store)
    let version = try store.write(Data("v:mine".utf8), to: path, durable: false)
    texts.file.cacheWritten("mine", identity: version, key: "a")
    #expect(try texts.file.load(path, key: "a")?.value == "mine")
    #expect(texts.decodeCount == 0)
  }

  @Test func anUndecodableVersionIsSetAsideOnce() throws {
    let texts = Texts(store)
    try store.write(Data("garbage".utf8), to: path, durable: false)
    let error = #expect(throws: VersionedFileError.self) { try texts.file.load(path, key: "a") }
    guard case .setAside(_, let keptAs, _) = error else {
      Issue.record("not set aside: \(String(describing: error))")
      return
    }
    #expect(try store.read(keptAs) == Data("garbage".utf8))
    #expect(try texts.file.load(path, key: "a") == nil)
  }

  @Test func aVersionFromTheFutureIsLeftInPlace() throws {
    let texts = Texts(store)
    try store.write(Data("future:x".utf8), to: path, durable: false)
    let error = #expect(throws: VersionedFileError.self) { try texts.file.load(path, key: "a") }
    guard case .leftInPlace = error else {
      Issue.record("not left in place: \(String(describing: error))")
      return
    }
    #expect(try store.read(path) == Data("future:x".utf8))
  }
}
