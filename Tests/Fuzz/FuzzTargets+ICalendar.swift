import ChecklistsModel
import Foundation
import ICalendar
import Interchange

extension FuzzTargets {
  /// Content lines: whatever the reader takes, written back by the writer
  /// (folded anew) reads as the same lines. A resource read as a to-do,
  /// stored as an item and written again, reads as a to-do with the same
  /// fields whose kept lines hold every line kept before, in their order
  /// (the mapping adds a `DTSTAMP` and a `STATUS` a client left out):
  /// nothing a client wrote is lost or changed on the way.
  static func iCalendar(_ bytes: [UInt8]) {
    guard let lines = try? ContentLineReader.read(bytes) else { return }
    var writer = ICalendarWriter()
    for line in lines { writer.append(line) }
    let again = try? ContentLineReader.read(writer.bytes)
    check(
      again?.map(\.text) == lines.map(\.text),
      "lines changed on the way back: \(lines.map(\.text))")
    let zone = TimeZone(identifier: "Europe/Berlin")!
    guard let todo = try? CalendarTodo.read(bytes, zone: zone) else { return }
    var model = DataModel()
    guard let list = try? model.addList(name: "Fuzz", icon: .none),
      let id = try? model.addItem(todo.fields(resource: "fuzz.ics"), toList: list),
      let item = model.checklist(id: list)?.item(id: id)
    else {
      fatalError("invariant broken: a to-do read could not be stored: \(todo)")
    }
    let document = CalendarTodo.document(
      item, uid: todo.uid, stamp: Date(timeIntervalSince1970: 0), sortOrder: todo.sortOrder,
      zone: zone)
    guard var reread = try? CalendarTodo.read(document, zone: zone) else {
      fatalError("invariant broken: the resource written of \(todo) does not read")
    }
    let kept = reread.kept.split(separator: "\n")
    var next = kept.startIndex
    for line in todo.kept.split(separator: "\n") {
      guard let found = kept[next...].firstIndex(of: line) else {
        fatalError("invariant broken: \(line) lost from \(todo.kept), became \(reread.kept)")
      }
      next = kept.index(after: found)
    }
    reread.kept = todo.kept
    check(reread == todo, "to-do changed: \(todo) became \(reread)")
  }
}
