// A child process for StorageTests: it changes one visitor through
// ChecklistStore while the test kills it or runs a second copy beside it.
//
//   store-child crash DATA VISITOR
//     forever: step k renames the first list to "Step k", appends "item k"
//     and toggles item k-1; prints k once the change is committed.
//   store-child toggle DATA VISITOR LISTID THREADS FIRST COUNT
//     THREADS threads; thread t toggles, once each, the COUNT items at
//     positions FIRST + t*COUNT ..< FIRST + (t+1)*COUNT of list LISTID.
// Options (after the arguments): --fast (no fsync), --binary (binary plists).
import ChecklistsModel
import Foundation
import Logging
import Storage

let arguments = CommandLine.arguments
let fast = arguments.contains("--fast")
let binary = arguments.contains("--binary")
let positional = arguments.dropFirst().filter { !$0.hasPrefix("--") }

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("store-child: \(message)\n".utf8))
  exit(2)
}

guard positional.count >= 3 else { fail("usage: store-child crash|toggle DATA VISITOR …") }
let mode = positional[positional.startIndex]
let data = positional[positional.startIndex + 1]
let visitor = VisitorDirectory(dataDirectory: data, visitorID: positional[positional.startIndex + 2])
let store = ChecklistStore(
  configuration: .init(dataDirectory: data, format: binary ? .binary : .xml, durable: !fast),
  logger: Logger(label: "store-child"))

switch mode {
case "crash":
  while true {
    do {
      let step = try store.update(visitor, initial: { $0 ?? DataModel() }) { model -> Int in
        if model.lists.isEmpty { try model.addList(name: "Step 0", icon: .folder) }
        let list = model.lists[0]
        let step = list.items.count + 1
        try model.updateList(id: list.id, name: "Step \(step)", icon: .folder)
        try model.addItem(text: "item \(step)", toList: list.id)
        if let previous = list.items.last { try model.toggleItem(id: previous.id, inList: list.id) }
        return step
      }
      FileHandle.standardOutput.write(Data("\(step)\n".utf8))  // unbuffered: the test reads it at once
    } catch {
      fail("\(error)")
    }
  }

case "toggle":
  let numbers = positional.dropFirst(3).compactMap { Int($0) }
  guard numbers.count == 4 else { fail("toggle needs LISTID THREADS FIRST COUNT") }
  let (listID, threads, first, count) = (numbers[0], numbers[1], numbers[2], numbers[3])
  guard let list = try store.load(visitor)?.checklist(id: listID) else { fail("no list \(listID)") }
  let ids = list.items.map(\.id)
  DispatchQueue.concurrentPerform(iterations: threads) { thread in
    let start = first + thread * count
    for position in start..<(start + count) {
      do {
        try store.update(visitor, initial: { $0 ?? DataModel() }) { model in
          try model.toggleItem(id: ids[position], inList: listID)
        }
      } catch {
        fail("\(error)")
      }
    }
  }
  FileHandle.standardOutput.write(Data("done\n".utf8))

default:
  fail("unknown mode \(mode)")
}
