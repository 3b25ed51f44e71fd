/// A document's path split as every engine splits it: the directory (its
/// owner's, where its lock is) and the name in it. By bytes, not with
/// `NSString`'s path methods: those cost 8% of the backend's CPU per
/// durable toggle (`perf`), and every change splits a path.
package enum DocumentName {
  /// `path` split at its last `/`: (".", path) without one, ("/", name)
  /// for a name at the root.
  package static func split(_ path: String) -> (directory: String, name: String) {
    let bytes = path.utf8
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
    let directory = slash == bytes.startIndex ? "/" : String(path[..<slash])
    return (directory, String(path[path.index(after: slash)...]))
  }
}
