/// What an owner's search looks through: every item's text and note, of
/// every list and of Recently Deleted, folded once (`SearchFolding`), so a
/// search is a scan of bytes.
package struct SearchIndex: Sendable {
  /// Where an entry was found.
  package enum Place: Sendable, Equatable {
    /// An item of a list.
    case list(listID: Int, itemID: Int)
    /// A list's name.
    case listName(listID: Int)
    /// An item of Recently Deleted, or of a list deleted whole.
    case deleted(deletionID: Int, itemID: Int?)
  }

  package struct Entry: Sendable {
    package let place: Place
    /// The list's name (the name it had when deleted, for a deletion).
    package let listName: String
    package let text: String
    package let notes: String
    /// `text`, a line feed, `notes`, folded.
    let folded: [UInt8]
  }

  package private(set) var entries: [Entry] = []
  /// The folded bytes of every entry together (plus a line's worth each):
  /// about what the index keeps in memory beyond the model's own strings.
  package private(set) var foldedBytes = 0

  package init(_ model: DataModel) {
    var folding = SearchFolding()
    func add(_ place: Place, _ listName: String, _ text: String, _ notes: String) {
      var folded = folding.fold(text)
      if !notes.isEmpty {
        folded.append(0x0A)
        folding.append(notes, to: &folded)
      }
      foldedBytes += folded.count + 64
      entries.append(
        Entry(place: place, listName: listName, text: text, notes: notes, folded: folded))
    }
    for list in model.lists {
      add(.listName(listID: list.id), list.name, list.name, "")
      for item in list.items {
        add(.list(listID: list.id, itemID: item.id), list.name, item.text, item.notes)
      }
    }
    for deletion in model.deletions.reversed() {
      if let list = deletion.list {
        add(.deleted(deletionID: deletion.id, itemID: nil), list.name, list.name, "")
        for item in list.items {
          add(.deleted(deletionID: deletion.id, itemID: item.id), list.name, item.text, item.notes)
        }
      }
      for removed in deletion.items {
        add(
          .deleted(deletionID: deletion.id, itemID: removed.item.id), deletion.listName,
          removed.item.text, removed.item.notes)
      }
    }
  }

  /// The entries whose text or note holds `query` (case, accents and width
  /// aside), in the index's order: the lists in display order, then
  /// Recently Deleted, newest first. At most `limit`; `total` counts all.
  package func search(_ query: String, limit: Int) -> (matches: [Entry], total: Int) {
    var folding = SearchFolding()
    let needle = folding.fold(query)
    guard !needle.isEmpty else { return ([], 0) }
    var matches: [Entry] = []
    var total = 0
    for entry in entries where SearchFolding.firstRange(of: needle, in: entry.folded) != nil {
      total += 1
      if matches.count < limit { matches.append(entry) }
    }
    return (matches, total)
  }
}
