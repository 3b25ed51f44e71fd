import ChecklistsModel
import PropertyList

/// The bytes a list takes in its owner's `Checklists.plist`, together with
/// the deletions its edit links made (what Recently deleted keeps of their
/// work): what an edit link's budget is measured in. Counted as
/// `StoredSize` counts the whole file, every item as checked, so that
/// checking an item never grows it.
package enum ListFootprint {
  /// Nil when the model has no such list.
  package static func bytes(ofList listID: Int, in model: DataModel) -> Int? {
    guard let list = model.checklist(id: listID) else { return nil }
    var out = XMLOutput(countingUpTo: .max)
    ChecklistsXMLWriter.write(list, depth: 2, into: &out)
    var bytes = out.count - list.uncheckedCount
    for deletion in model.deletions where deletion.isThroughLink(ofList: listID) {
      bytes += Self.bytes(of: deletion)
    }
    return bytes
  }

  /// The bytes one deletion adds to its list's footprint, counted alike.
  package static func bytes(of deletion: Deletion) -> Int {
    var out = XMLOutput(countingUpTo: .max)
    ChecklistsXMLWriter.write(deletion, depth: 2, into: &out)
    return out.count - deletion.items.reduce(0) { $0 + ($1.item.checked ? 0 : 1) }
  }
}
