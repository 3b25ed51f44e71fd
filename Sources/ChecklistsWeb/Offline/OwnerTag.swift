import Crypto
import FastCGI
import HTTPTypes
import Storage
import Support

/// The tag of the owner a visitor's answer was made for, sent with every
/// answer of the visitor group as `Checklists-Owner`.
///
/// The service worker (`Public/sw.js`) keeps the pages it may show offline
/// in a cache named after this tag, and deletes every other owner's cache
/// as soon as an answer carries a different one: a browser signed out (here
/// or elsewhere) or a new visitor gets a new owner at its next request, so
/// nothing cached for the old one stays readable. A page cannot read its
/// own answer's headers, but the worker reads every answer it fetches.
///
/// The tag is a one-way function of the owner's directory key (itself the
/// SHA-256 of their founding browser's token): it names the owner to their
/// own browser and opens nothing.
enum OwnerTag {
  /// The header field's name.
  static let fieldName = HTTPField.Name("Checklists-Owner")!

  /// 32 lower-case hex digits: the first 16 bytes of the SHA-256 of a
  /// fixed prefix and `directory`'s key; worked out once per owner and kept.
  static func of(_ directory: VisitorDirectory) -> String {
    if let tag = kept.withLock({ $0.value(forKey: directory.key) }) { return tag }
    let tag = computed(directory.key)
    kept.withLock { $0.setValue(tag, forKey: directory.key) }
    return tag
  }

  /// The tags of the owners seen last: a SHA-256 a request was ~10,000
  /// instructions, 5% of a computed list page (`bench-web --profile N
  /// computed`); a kept one is a look-up. 20,000 owners, ~4 MB.
  private static let kept = LockedValue(LRUCache<String, String>(capacity: 20_000))

  static func computed(_ key: String) -> String {
    var text = "checklists owner tag v1 " + key
    let digest = text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    return String(Hex.encode(contiguous: digest).prefix(32))
  }

  /// `response` with the tag of `directory`'s owner.
  static func tagging(_ response: Response, for directory: VisitorDirectory) -> Response {
    var response = response
    response.headerFields[fieldName] = of(directory)
    return response
  }
}
