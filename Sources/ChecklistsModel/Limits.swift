/// What one visitor may store; each bound keeps one file small enough to
/// decode quickly (about 20 ms for a list of 5,000 items).
package enum Limits {
  /// Characters (grapheme clusters) in a list name or item text.
  package static let maximumTextLength = 1_000
  /// Unicode scalars in a list name or item text: four per character on
  /// average. A character may hold any number of combining marks, so the
  /// character count alone let `"a"` + 20,000 accents (one character, 40 KB)
  /// through. Real text stays well inside: 1,000 emoji with a skin tone
  /// are 2,000 scalars, 1,000 flags 2,000, 1,000 Devanagari conjuncts such
  /// as "क्षि" 4,000.
  package static let maximumTextScalars = 4_000
  /// UTF-8 bytes in a list name or item text: twelve per character on
  /// average, what a text is stored and printed as. 1,000 emoji with a skin
  /// tone are 8,000 bytes, 1,000 CJK characters 3,000, 1,000 conjuncts as
  /// above 12,000. Without it, 4,000 scalars of four bytes each (e.g.
  /// 4,000 skin-tone modifiers, 16 KB) would pass.
  package static let maximumTextBytes = 12_000
  /// Characters (grapheme clusters) in an item's note: a few paragraphs
  /// (a recipe's steps, a gate code and directions).
  package static let maximumNoteLength = 4_000
  /// Unicode scalars in a note, four per character as for a text.
  package static let maximumNoteScalars = 16_000
  /// UTF-8 bytes in a note. Fewer than four a character: a form posts a
  /// byte outside ASCII as three (`%D0`), and the item's form, note and
  /// text together at their most (3 × 16,000 + 3 × 12,000 bytes) must
  /// stay inside the 64 KiB body a change may send.
  package static let maximumNoteBytes = 16_000
  /// Bytes of one visitor's `Checklists.plist` (XML), counted as if every
  /// item were checked (see `StoredSize`). Without it, 500 lists × 5,000
  /// items made a file of tens of MB, re-encoded and flushed on every
  /// change. 2 MiB holds about 12,700 items of 12 characters, or 1,800
  /// items of 1,000 (`StoredSizeTests`); an unchecked item may add one byte
  /// more.
  package static let maximumStoredBytes = 2 * 1024 * 1024
  /// Lists per visitor.
  package static let maximumLists = 500
  /// Templates per visitor, beside their lists (each within
  /// `maximumItemsPerList`, all within `maximumStoredBytes`).
  package static let maximumTemplates = 50
  /// Items per list.
  package static let maximumItemsPerList = 5_000
  /// Deletions Recently deleted keeps (besides the 30 days); the oldest go
  /// first. Each may hold a whole list, and all of them live in the
  /// visitor's one file, which `maximumStoredBytes` bounds as well.
  package static let maximumDeletions = 100
  /// Deletions Recently deleted keeps for each list from its edit links,
  /// beside the owner's own `maximumDeletions`: a link's holder may undo
  /// their own recent deletions, and never pushes out the owner's.
  package static let maximumLinkDeletionsPerList = 30
  /// Deletions Recently deleted keeps from the owner's calendar apps, all
  /// apps together, beside the owner's own: an app that deletes what it
  /// syncs (a "clear completed", a list removed on the phone) pushes out
  /// only what apps deleted before, never what the owner deleted on the
  /// web.
  package static let maximumAppDeletions = 100
  /// Bytes of the owner's `maximumStoredBytes` that their shared lists
  /// may grow to through edit links, shared equally among the lists that
  /// have one (see `SharedListBudget`): the other half is always left to
  /// the owner.
  package static let maximumBytesThroughLinks = maximumStoredBytes / 2
}
