import ChecklistsWeb

extension FuzzTargets {
  /// The boundary the fuzzed bodies are read with.
  static let multipartBoundary = "fuzzboundary"

  /// `multipart/form-data` (the import's upload): the first line is the
  /// request's `Content-Type`, the rest its body. Reading never crashes;
  /// what is read has at most the part limit of named parts, and written
  /// out again (each part's name, file name and type, its bytes) it reads
  /// back the same.
  static func multipart(_ bytes: [UInt8]) {
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Array(bytes[min(newline + 1, bytes.endIndex)...])
    if let boundary = try? MultipartForm.boundary(contentType: contentType) {
      _ = try? MultipartForm.decode(body, boundary: boundary)
    }
    let limit = 4
    guard let form = try? MultipartForm.decode(body, boundary: multipartBoundary, partLimit: limit)
    else { return }
    check(form.parts.count <= limit, "\(form.parts.count) parts past the limit")
    check(form.parts.allSatisfy { !$0.name.isEmpty }, "a part without a name")
    let again = try? MultipartForm.decode(
      written(form, boundary: multipartBoundary), boundary: multipartBoundary, partLimit: limit)
    check(again == form, "round trip changed \(form) into \(String(describing: again))")
  }

  /// A form written as a browser writes it, every parameter quoted.
  static func written(_ form: MultipartForm, boundary: String) -> [UInt8] {
    func quoted(_ text: String) -> String {
      "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
    var bytes: [UInt8] = []
    for part in form.parts {
      var disposition = "form-data; name=\(quoted(part.name))"
      if let fileName = part.fileName { disposition += "; filename=\(quoted(fileName))" }
      bytes += Array("--\(boundary)\r\nContent-Disposition: \(disposition)\r\n".utf8)
      if let type = part.contentType { bytes += Array("Content-Type: \(type)\r\n".utf8) }
      bytes += Array("\r\n".utf8) + part.body + Array("\r\n".utf8)
    }
    return bytes + Array("--\(boundary)--\r\n".utf8)
  }
}
