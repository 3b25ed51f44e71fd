import ChecklistsModel
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Other processes: a writer killed with SIGKILL at random moments, and two
/// processes changing one visitor at once.
@Suite struct StoreProcessTests {
  let visitorID = "fedcba9876543210fedcba9876543210"
  let temporary = TemporaryDirectory("store-process")
  var data: String { temporary.path }

  /// The state the child commits at step k (see Tests/Tools/StoreChild).
  private func requireIsStep(_ model: DataModel, _ step: Int, _ message: String) throws {
    try #require(model.lists.count == 1, "\(message)")
    let list = model.lists[0]
    try #require(list.name == "Step \(step)", "\(message)")
    try #require(list.items.map(\.text) == ["item \(step)"], "\(message)")
    try #require(list.items.map(\.checked) == [step % 2 == 1], "\(message)")
  }

  private func step(of model: DataModel) -> Int {
    model.lists.first.flatMap { Int($0.name.dropFirst("Step ".count)) } ?? -1
  }

  /// Stops at the first kill that finds anything wrong (`#require`).
  @Test func killedWriterLeavesTheStateBeforeOrAfterItsLastChange() throws {
    let child = try BuiltTool.path("store-child")
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    var random = SeededGenerator(seed: 9)
    var committed = 0  // the last state known to be on disk
    var kills = 0

    while kills < 200 {
      let process = try SpawnedChild(child, ["crash", data, visitorID])
      // Wait for its first commit, then let it run a random while before SIGKILL.
      var printed = process.readSome()
      usleep(UInt32.random(in: 0..<3_000, using: &random))
      kill(process.pid, SIGKILL)
      printed += process.readToEnd()
      try #require(process.wait().signal == SIGKILL, "the child died on its own")
      kills += 1

      let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n")
      let lastPrinted = lines.last(where: { _ in true }).flatMap { Int($0) } ?? committed
      try #require(lastPrinted >= committed)
      let model: DataModel
      do {
        model = try #require(try makeStore(data).load(visitor), "kill \(kills): no file")
      } catch let error as StoreError {
        Issue.record("kill \(kills): the file does not load: \(error)")
        return
      }
      let onDisk = step(of: model)
      try #require(
        onDisk == lastPrinted || onDisk == lastPrinted + 1,
        "kill \(kills): on disk step \(onDisk), last committed \(lastPrinted)")
      try requireIsStep(model, onDisk, "kill \(kills)")
      committed = onDisk
    }
    #expect(committed > 200, "the child made progress between kills")
  }

  @Test func twoProcessesWithFourThreadsLoseNoToggle() throws {
    let child = try BuiltTool.path("store-child")
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    // Each thread toggles its own 5 items, 50 times each: only it touches
    // them, so every toggle must flip what the previous one left, and each
    // item ends unchecked (50 is even). A small file keeps this quick.
    let (processes, threads, itemsPerThread, togglesPerThread) = (2, 4, 5, 250)
    let total = processes * threads * itemsPerThread
    var seeded = DataModel()
    let listID = try seeded.addList(name: "Shared", icon: .chores)
    for n in 0..<total { try seeded.addItem(text: "item \(n)", toList: listID) }
    try makeStore(data).update(visitor, initial: { _ in seeded }, { _ in })

    let children = try (0..<processes).map { p in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: child)
      process.arguments = [
        "toggle", data, visitorID, "\(listID)", "\(threads)", "\(p * threads * itemsPerThread)",
        "\(itemsPerThread)", "\(togglesPerThread)", "--fast",
      ]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      return (process, output)
    }
    for (process, output) in children {
      let printed = String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      #expect(printed == "lost 0\n", "toggles seen lost by the child")
    }
    let model = try #require(try makeStore(data).load(visitor))
    let items = try #require(model.checklist(id: listID)?.items)
    #expect(items.count == total)
    #expect(items.filter(\.checked).map(\.text) == [], "items whose last toggle was lost")
    #expect(model.nextItemID == seeded.nextItemID)
  }
}
