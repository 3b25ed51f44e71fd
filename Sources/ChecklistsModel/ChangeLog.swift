/// A list's recent changes, one entry per item resource changed, so that a
/// calendar app holding a token of an earlier revision is told only what
/// changed since (RFC 6578's `sync-collection`). Kept with the list, so
/// both stores keep it as they keep the list, and bounded: a token older
/// than the oldest change kept (`since`) is refused and the app syncs anew.
///
/// A revision is one stored change of the list (its name or its items);
/// `ChecklistStore` records it by comparing what it stores with what was
/// stored (`DataModel.recordChanges(since:)`), so a change from the web
/// and one from an app are recorded alike.
package struct ChangeLog: Sendable, Equatable, Codable {
  /// One resource changed (made, replaced or removed) at `revision`.
  package struct Change: Sendable, Equatable, Codable {
    /// The resource's name in the list's collection (`DAVTodo`'s name).
    package var name: String
    package var revision: Int

    package init(name: String, revision: Int) {
      self.name = name
      self.revision = revision
    }
  }

  /// The number of the list's last recorded change; 0 before any.
  package private(set) var revision: Int
  /// The oldest revision a token may name and still be answered from
  /// `changes`.
  package private(set) var since: Int
  /// The changes after `since`, oldest first, each name at most once (at
  /// its last change).
  package private(set) var changes: [Change]

  /// Changes kept per list: a client syncing now and then sees far fewer
  /// between two syncs. About 100 bytes each in the stored file.
  package static let capacity = 100

  package init(revision: Int = 0, since: Int = 0, changes: [Change] = []) {
    self.revision = revision
    self.since = since
    self.changes = changes
  }

  /// A list with no revision yet writes no log.
  package var isEmpty: Bool { revision == 0 }

  /// Records one revision in which `names` changed (none for a rename).
  package mutating func record(_ names: some Collection<String>) {
    revision += 1
    let changed = Set(names)
    changes.removeAll { changed.contains($0.name) }
    changes.append(contentsOf: names.map { Change(name: $0, revision: revision) })
    if changes.count > Self.capacity {
      // Whatever shares a revision with a dropped change goes with it: a
      // token of that revision or later needs none of them.
      since = max(since, changes[changes.count - Self.capacity - 1].revision)
      changes.removeAll { $0.revision <= since }
    }
  }

  /// Records one revision of more changes than the log keeps: no earlier
  /// token can be answered from it.
  package mutating func recordTooMany() {
    revision += 1
    since = revision
    changes = []
  }

  /// The names changed after `revision`, oldest first; nil when the log no
  /// longer knows (a revision before `since`) or never did (after the last).
  package func names(after revision: Int) -> [String]? {
    guard revision >= since, revision <= self.revision else { return nil }
    return changes.filter { $0.revision > revision }.map(\.name)
  }

  enum CodingKeys: String, CodingKey {
    case revision, since, changes
  }

  /// A log is checked as it is read: revisions within `since...revision`
  /// and rising. One that is not (a hand-edited file) reads as a log that
  /// answers no earlier token, so that a client syncs anew rather than be
  /// told the wrong changes, and the file, lists and all, still reads.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      checking: try container.decode(Int.self, forKey: .revision),
      since: try container.decode(Int.self, forKey: .since),
      changes: try container.decode([Change].self, forKey: .changes))
  }

  /// A log as a file holds it, checked as `init(from:)` says.
  package init(checking revision: Int, since: Int, changes: [Change]) {
    let revision = max(revision, 0)
    var last = since
    let ordered =
      since >= 0 && since <= revision
      && changes.allSatisfy { change in
        defer { last = change.revision }
        return change.revision > since && change.revision >= last && change.revision <= revision
      }
    self.init(
      revision: revision, since: ordered ? since : revision, changes: ordered ? changes : [])
  }
}
