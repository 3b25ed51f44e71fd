import ChecklistsModel
import Foundation

/// The formats an import reads.
package enum ImportFormat: String, Sendable, CaseIterable {
  /// Our own JSON export.
  case json
  /// A GitHub-flavoured Markdown task list.
  case markdown
  /// The iOS Checklists app's `Checklists.plist`: a keyed archive or a
  /// Codable property list, binary or XML.
  case appArchive = "app-archive"

  /// How the import page names it: "JSON", "Markdown", "the iOS app's
  /// Checklists.plist".
  package var name: String {
    switch self {
    case .json: "JSON"
    case .markdown: "Markdown"
    case .appArchive: "the iOS app’s Checklists.plist"
    }
  }

  /// The format a file name's extension names (any letter case), if any.
  package init?(fileName: String) {
    guard let dot = fileName.lastIndex(of: ".") else { return nil }
    switch fileName[fileName.index(after: dot)...].lowercased() {
    case "json": self = .json
    case "md", "markdown", "txt": self = .markdown
    case "plist": self = .appArchive
    default: return nil
    }
  }
}

/// An uploaded file read for import: its format picked by what it holds
/// and its name, then read by that format's parser. Nothing here parses a
/// format itself.
package enum ImportFile {
  /// The most an upload's body may hold: 1 MiB, nginx's
  /// `client_max_body_size 1m` at the import's address. The backend refuses
  /// more as well.
  package static let maximumUploadBytes = 1 << 20

  /// The file input's `accept`: the extensions and media types of the formats.
  package static let accept =
    ".json,.md,.markdown,.txt,.plist,application/json,text/markdown,text/plain,application/x-plist"

  /// A file read: its format and its lists.
  package struct Read: Sendable, Equatable {
    package var format: ImportFormat
    package var lists: [ImportedList]
  }

  /// The format of a file, nil for none of ours:
  /// - what its bytes say, when they say it (a property list's or a JSON
  ///   document's opening, a Markdown task line: each parser's `looksLike`);
  /// - else its name's extension (so that a broken `.json` file is told
  ///   what is wrong with it as JSON);
  /// - else Markdown for any UTF-8 text (whose parser says when it holds
  ///   no task).
  package static func format(of bytes: [UInt8], fileName: String) -> ImportFormat? {
    if AppArchiveImport.looksLike(bytes) { return .appArchive }
    if JSONImport.looksLike(bytes) { return .json }
    if MarkdownImport.looksLike(bytes) { return .markdown }
    if let named = ImportFormat(fileName: fileName) { return named }
    if String(validating: bytes, as: UTF8.self) != nil { return .markdown }
    return nil
  }

  /// Reads an uploaded file's lists.
  ///
  /// - Parameters:
  ///   - bytes: the file, at most `maximumUploadBytes`.
  ///   - fileName: its name as the browser sent it; it names a Markdown
  ///     file's tasks before any heading.
  ///   - unnamed: the name of those tasks' list when the file's name gives
  ///     none, in the visitor's language.
  /// - Throws: `ImportFailure` saying why: an empty file, a file of none
  ///   of our formats, or its parser's failure.
  package static func read(_ bytes: [UInt8], fileName: String, unnamed: String = "Imported")
    throws(ImportFailure) -> Read
  {
    guard !bytes.isEmpty else {
      throw ImportFailure(
        translatable("The file “{{file}}” is empty."), ["file": .text(shortened(fileName))])
    }
    guard let format = format(of: bytes, fileName: fileName) else { throw unrecognised(fileName) }
    return Read(
      format: format,
      lists: try lists(from: bytes, format: format, fileName: fileName, unnamed: unnamed))
  }

  /// The lists of a file of `format`, read by that format's parser;
  /// `unnamed` names a Markdown file's untitled tasks when its name is empty.
  package static func lists(
    from bytes: [UInt8], format: ImportFormat, fileName: String, unnamed: String = "Imported"
  ) throws(ImportFailure) -> [ImportedList] {
    switch format {
    case .json: try JSONImport.lists(from: bytes)
    case .markdown:
      try MarkdownImport.lists(
        from: bytes, untitledListName: listName(fileName, unnamed: unnamed))
    case .appArchive: try AppArchiveImport.lists(from: bytes)
    }
  }

  /// The failure of a file of none of our formats.
  package static func unrecognised(_ fileName: String) -> ImportFailure {
    ImportFailure(
      translatable(
        "The file “{{file}}” is none of the formats this site imports: a JSON export of this site, a Markdown task list, or the Checklists.plist of the iOS Checklists app."
      ), ["file": .text(shortened(fileName))])
  }

  /// The name of the list a Markdown file's tasks before any heading go
  /// to: the file's name without its extension, or `unnamed`.
  static func listName(_ fileName: String, unnamed: String = "Imported") -> String {
    // Some browsers sent the whole path.
    let fileName =
      fileName.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
    let base =
      if let dot = fileName.lastIndex(of: "."), dot > fileName.startIndex {
        fileName[..<dot]
      } else {
        fileName[...]
      }
    let trimmed = base.trimmingCharacters(in: .whitespaces)
    return trimmed.isEmpty ? unnamed : String(trimmed.prefix(Limits.maximumTextLength))
  }

  /// A file name short enough for a sentence.
  static func shortened(_ fileName: String) -> String {
    fileName.count > 60 ? String(fileName.prefix(60)) + "…" : fileName
  }
}
