// A child process for StorageTests: it changes one visitor through
// ChecklistStore while the test kills it or runs a second copy beside it.
//
//   store-child crash DATA VISITOR
//     forever: step k (one change) names the only list "Step k", sets its
//     only item's text to "item k" and toggles it (checked when k is odd);
//     prints k once the change is committed.
//   store-child toggle DATA VISITOR LISTID THREADS FIRST ITEMS TOGGLES
//     THREADS threads; thread t toggles its own ITEMS items (positions
//     FIRST + t*ITEMS ..< FIRST + (t+1)*ITEMS of list LISTID) round-robin,
//     TOGGLES times in all. Only thread t touches them, so each toggle must
//     return the opposite of the one before: a lost toggle shows there (or
//     in the final state). Prints "lost N".
//   store-child devices DATA FOUNDING
//     forever, on the owner whose founding browser's token is FOUNDING:
//     a link code made by it and redeemed by a new browser, one linked
//     browser signed out, or all but the founding one. Prints a line
//     before each call ("begin redeem TOKEN", "begin signout DIGEST",
//     "begin others", "begin code") and "done" once it has returned.
// Options (after the arguments): --fast (no fsync), --binary (binary plists).
import ChecklistsModel
import Foundation
import Logging
import Storage
import Synchronization

let arguments = CommandLine.arguments
let fast = arguments.contains("--fast")
let binary = arguments.contains("--binary")
let positional = arguments.dropFirst().filter { !$0.hasPrefix("--") }

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("store-child: \(message)\n".utf8))
  exit(2)
}

guard positional.count >= 3 else {
  fail("usage: store-child crash|toggle|devices DATA VISITOR …")
}
let mode = positional[positional.startIndex]
let data = positional[positional.startIndex + 1]
let visitor = VisitorDirectory(
  dataDirectory: data, visitorID: positional[positional.startIndex + 2])
let store = ChecklistStore(
  configuration: .init(dataDirectory: data, format: binary ? .binary : .xml, durable: !fast),
  logger: Logger(label: "store-child"))

@Sendable func storedOrEmpty(_ stored: DataModel?) -> DataModel { stored ?? DataModel() }

switch mode {
case "crash":
  while true {
    do {
      let step = try store.update(visitor, initial: storedOrEmpty) { model -> Int in
        if model.lists.isEmpty {
          let id = try model.addList(name: "Step 0", icon: .folder)
          try model.addItem(text: "item 0", toList: id)
        }
        let list = model.lists[0]
        let step = (Int(list.name.dropFirst("Step ".count)) ?? 0) + 1
        try model.updateList(id: list.id, name: "Step \(step)", icon: .folder)
        try model.editItem(id: list.items[0].id, inList: list.id, text: "item \(step)")
        try model.toggleItem(id: list.items[0].id, inList: list.id)
        return step
      }
      // Unbuffered: the test reads it at once.
      FileHandle.standardOutput.write(Data("\(step)\n".utf8))
    } catch {
      fail("\(error)")
    }
  }

case "toggle":
  let numbers = positional.dropFirst(3).compactMap { Int($0) }
  guard numbers.count == 5 else { fail("toggle needs LISTID THREADS FIRST ITEMS TOGGLES") }
  let (listID, threads, first, items, toggles) = (
    numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]
  )
  guard let list = try store.load(visitor)?.checklist(id: listID) else { fail("no list \(listID)") }
  let ids = list.items.map(\.id)
  let initial = list.items.map(\.checked)
  let lost = Mutex(0)
  DispatchQueue.concurrentPerform(iterations: threads) { thread in
    let start = first + thread * items
    var expected = Array(initial[start..<(start + items)])
    for n in 0..<toggles {
      let slot = n % items
      do {
        let state = try store.update(visitor, initial: storedOrEmpty) { model in
          try model.toggleItem(id: ids[start + slot], inList: listID)
        }
        expected[slot].toggle()
        if state != expected[slot] {
          lost.withLock { $0 += 1 }
          expected[slot] = state
        }
      } catch {
        fail("\(error)")
      }
    }
  }
  FileHandle.standardOutput.write(Data("lost \(lost.withLock { $0 })\n".utf8))

case "devices":
  let founding = positional[positional.startIndex + 2]
  let devices = DeviceStore(dataDirectory: data, durable: !fast)
  // Unbuffered: the test reads each line at once, and a line written is
  // a call begun or returned.
  func say(_ line: String) { FileHandle.standardOutput.write(Data("\(line)\n".utf8)) }
  func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
  var random = SystemRandomNumberGenerator()
  while true {
    do {
      let linked =
        try devices.devices(of: visitor)?.browsers.filter { $0.digest != visitor.key } ?? []
      let roll = Int.random(in: 0..<10, using: &random)
      if linked.count < 2 || (linked.count < 8 && roll < 5) {
        say("begin code")
        let (code, _) = try devices.createCode(
          for: visitor, token: founding, name: "Founding", now: Date())
        say("done")
        let token = hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        say("begin redeem \(token)")
        _ = try devices.redeem(code, newToken: token, name: "Linked", now: Date())
        say("done")
      } else if roll < 9 {
        let browser = linked.randomElement(using: &random)!
        say("begin signout \(browser.digest)")
        guard
          try devices.signOut(browser: browser.id, of: visitor, askedBy: founding, now: Date())
        else {
          fail("browser \(browser.id) was not signed in")
        }
        say("done")
      } else {
        say("begin others")
        _ = try devices.signOutOthers(of: visitor, keeping: founding, now: Date())
        say("done")
      }
    } catch {
      fail("\(error)")
    }
  }

default:
  fail("unknown mode \(mode)")
}
