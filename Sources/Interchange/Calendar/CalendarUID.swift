import ChecklistsModel
import Crypto
import Support

/// The salt of an owner's calendar `UID`s (the feed's events and the
/// export's to-dos): an item's `UID` is its id (stable for good, through
/// edits, moves and an undone deletion) and this salt, so it is the same in
/// every file made for the owner and different for every owner.
package enum CalendarUID {
  /// 128 bits of SHA-256 over a label and the owner's directory key, in hex:
  /// one way, so a `UID` reveals neither the key, nor a browser's token,
  /// nor the calendar's secret.
  package static func salt(visitorKey: String) -> String {
    var input = "checklists calendar uid\n" + visitorKey
    let digest = input.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    return String(Hex.encode(contiguous: digest).prefix(32))
  }

  /// An item's `UID`: the one a calendar app gave it, else
  /// `todo-<id>-<salt>@checklists` (the feed's events take another prefix,
  /// so a to-do never takes an event's place).
  package static func uid(of item: ChecklistItem, salt: String) -> String {
    item.calendar?.uid ?? "todo-\(item.id)-\(salt)@checklists"
  }
}
