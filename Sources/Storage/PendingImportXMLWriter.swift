import ChecklistsModel
import Foundation
import PropertyList

/// Writes `PendingImport.plist` with `XMLPropertyListWriter`, its items with
/// `ChecklistsXMLWriter`'s: byte for byte what `PropertyListEncoder` writes (keys
/// sorted), which `PendingImportsTests` checks. The encoder took about 26 ms for a file
/// of 5,000 items, a quarter of the import's 100 ms (`bench-transfer`, release); this
/// writer about 2 ms.
///
/// Only for texts without control characters (the lists an upload keeps are cleaned by
/// `DataModel.addImported` first): `document` is nil for any other, which
/// `PendingImports` then has the encoder write.
enum PendingImportXMLWriter {
  typealias XML = XMLPropertyListWriter

  static func document(_ pending: PendingImport) -> [UInt8]? {
    guard isPlain(pending.fileName), isPlain(pending.format),
      pending.lists.allSatisfy({ list in
        isPlain(list.name)
          && list.items.allSatisfy {
            isPlain($0.text) && isPlainNote($0.notes) && isPlain($0.recurrence ?? "")
          }
      })
    else { return nil }
    let items = pending.lists.reduce(0) { $0 + $1.items.count }
    var out = XMLOutput(reserving: 512 + pending.lists.count * 200 + items * 140)
    XML.append(XML.prologue, to: &out)
    XML.appendDictionary(depth: 0, to: &out) { depth, out in
      XML.appendDate(key: "created", pending.created, depth: depth, to: &out)
      XML.appendString(key: "fileName", pending.fileName, depth: depth, to: &out)
      XML.appendString(key: "format", pending.format, depth: depth, to: &out)
      XML.appendArray(key: "lists", pending.lists, depth: depth, to: &out) { list, depth, out in
        write(list, depth: depth, into: &out)
      }
      XML.appendInteger(key: "version", PendingImports.version, depth: depth, to: &out)
    }
    XML.append(XML.epilogue, to: &out)
    return out.bytes
  }

  private static func write(_ list: ImportedList, depth: Int, into out: inout XMLOutput) {
    XML.appendDictionary(depth: depth, to: &out) { depth, out in
      XML.appendString(key: "icon", list.icon.rawValue, escaped: false, depth: depth, to: &out)
      XML.appendArray(key: "items", list.items, depth: depth, to: &out) { item, depth, out in
        ChecklistsXMLWriter.write(
          item: item.text, checked: item.checked, dueDate: item.dueDate, id: nil,
          shouldRemind: item.shouldRemind, notes: item.notes, recurrence: item.recurrence,
          depth: depth, into: &out)
      }
      XML.appendString(key: "name", list.name, depth: depth, to: &out)
      XML.appendString(key: "sort", list.sort.rawValue, escaped: false, depth: depth, to: &out)
      if list.isTemplate { XML.appendBool(key: "template", true, depth: depth, to: &out) }
    }
  }

  /// No control character (U+0000–U+001F, U+007F–U+009F: XML 1.0 allows
  /// only tab, LF and CR of them), looked at in UTF-8: U+0080–U+009F are
  /// 0xC2 followed by 0x80–0x9F.
  /// A note's lines and tabs are written as they are, as the encoder writes
  /// them; any other control character is not plain.
  static func isPlainNote(_ notes: String) -> Bool {
    isPlain(notes.replacing("\n", with: " ").replacing("\t", with: " "))
  }

  static func isPlain(_ text: String) -> Bool {
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte <= 0x9F) { return false }
      previous = byte
    }
    return true
  }
}
