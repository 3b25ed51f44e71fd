import ChecklistsWeb

extension FuzzTargets {
  /// The strict XML reader of WebDAV bodies: never nests deeper or holds
  /// more elements than its limits, and what it reads, written again with
  /// each element's namespace declared on it, reads back the same.
  static func davXML(_ bytes: [UInt8]) {
    guard let root = try? DAVXMLReader.read(bytes) else { return }
    var count = 0
    func depth(_ element: DAVElement) -> Int {
      count += 1
      return 1 + (element.children.map(depth).max() ?? 0)
    }
    check(depth(root) <= DAVXMLReader.maximumDepth, "nested past the limit")
    check(count <= DAVXMLReader.maximumElements, "\(count) elements past the limit")
    let again = try? DAVXMLReader.read(Array(written(root).utf8))
    check(again == root, "\(root) read back as \(String(describing: again))")
  }

  private static func written(_ element: DAVElement) -> String {
    "<\(element.name) xmlns=\"\(escaped(element.namespace))\""
      + element.attributes.map { " \($0.key)=\"\(escaped($0.value))\"" }.joined() + ">"
      + escaped(element.text)
      + element.children.map(written).joined() + "</\(element.name)>"
  }

  /// Every character that could be markup, as a character reference.
  private static func escaped(_ text: String) -> String {
    text.unicodeScalars.map {
      "<>&\"'\r".unicodeScalars.contains($0) ? "&#\($0.value);" : String($0)
    }
    .joined()
  }
}
