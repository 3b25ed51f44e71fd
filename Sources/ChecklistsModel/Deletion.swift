import Foundation

/// Something the visitor deleted (a list, an item, the checked items of a
/// list), kept so that Undo and Recently deleted can give it back exactly:
/// the same ids, order, checkmarks and due dates.
package struct Deletion: Sendable, Equatable, Identifiable {
  /// Unique among the visitor's deletions and never reused (`nextDeletionID`).
  package let id: Int
  /// When it was deleted; it is purged `DataModel.deletionsKeptFor` later.
  package let deletedAt: Date
  /// The list it was deleted from, or the list deleted.
  package let listID: Int
  /// The list's name when it was deleted, to say where items came from
  /// once the list is renamed or gone.
  package let listName: String
  /// The whole list, when a list was deleted; nil for items.
  package let list: Checklist?
  /// The items deleted from the list, by ascending position; empty for a list.
  package let items: [RemovedItem]
  /// Who deleted it: deletions through an edit link or a calendar app
  /// have their own room in Recently deleted (see
  /// `DataModel.keepWithinDeletionQuotas()`), so their holders never push
  /// out the owner's.
  package let deleter: Deleter

  package init(
    id: Int, deletedAt: Date, listID: Int, listName: String, list: Checklist?,
    items: [RemovedItem], deleter: Deleter = .owner
  ) {
    self.id = id
    self.deletedAt = deletedAt
    self.listID = listID
    self.listName = listName
    self.list = list
    self.items = items
    self.deleter = deleter
  }

  /// True when an edit link of its list made it.
  package var throughLink: Bool { deleter == .editLink }

  /// True when a calendar app (an app password, over CalDAV) made it.
  package var throughApp: Bool { deleter == .app }

  /// True for a deletion made through an edit link of list `listID`: what
  /// a change through such a link may forget to make room.
  package func isThroughLink(ofList listID: Int) -> Bool {
    throughLink && self.listID == listID
  }

  /// True while Recently deleted keeps it at `now`: for
  /// `DataModel.deletionsKeptFor` after `deletedAt`.
  package func isKept(at now: Date) -> Bool {
    deletedAt >= now.addingTimeInterval(-DataModel.deletionsKeptFor)
  }

  /// Every item id the deletion holds.
  var itemIDs: [Int] { (list?.items ?? []).map(\.id) + items.map(\.item.id) }
}

/// An item deleted from a list, with the index it had there.
package struct RemovedItem: Sendable, Equatable {
  /// The item's index in its list just before the deletion (for several
  /// items, before any of them went).
  package let position: Int
  package let item: ChecklistItem

  package init(position: Int, item: ChecklistItem) {
    self.position = position
    self.item = item
  }
}

extension Deletion: Codable {
  enum CodingKeys: String, CodingKey {
    case id, deletedAt, listID, listName, list, items, throughLink, throughApp
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    deletedAt = try container.decode(Date.self, forKey: .deletedAt)
    listID = try container.decode(Int.self, forKey: .listID)
    listName = try container.decode(String.self, forKey: .listName)
    list = try container.decodeIfPresent(Checklist.self, forKey: .list)
    items = try container.decodeIfPresent([RemovedItem].self, forKey: .items) ?? []
    if try container.decodeIfPresent(Bool.self, forKey: .throughLink) == true {
      deleter = .editLink
    } else if try container.decodeIfPresent(Bool.self, forKey: .throughApp) == true {
      deleter = .app
    } else {
      deleter = .owner
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(deletedAt, forKey: .deletedAt)
    try container.encode(id, forKey: .id)
    if list == nil { try container.encode(items, forKey: .items) }
    try container.encodeIfPresent(list, forKey: .list)
    try container.encode(listID, forKey: .listID)
    try container.encode(listName, forKey: .listName)
    // Absent for the owner's own: their files stay as they were.
    switch deleter {
    case .owner: break
    case .editLink: try container.encode(true, forKey: .throughLink)
    case .app: try container.encode(true, forKey: .throughApp)
    }
  }
}

/// Who made a deletion: each kind has its own room in Recently deleted.
package enum Deleter: Sendable, Equatable {
  /// The owner, in one of their browsers.
  case owner
  /// The holder of an edit link of the deletion's list.
  case editLink
  /// A calendar app signed in with one of the owner's app passwords.
  case app
}

/// In the file, a removed item is the item's own dictionary plus `position`.
extension RemovedItem: Codable {
  enum CodingKeys: String, CodingKey { case position }

  package init(from decoder: any Decoder) throws {
    position = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .position)
    item = try ChecklistItem(from: decoder)
  }

  package func encode(to encoder: any Encoder) throws {
    try item.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(position, forKey: .position)
  }
}
