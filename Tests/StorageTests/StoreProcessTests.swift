import ChecklistsModel
import Foundation
import XCTest

@testable import Storage

/// Other processes: a writer killed with SIGKILL at random moments, and two
/// processes changing one visitor at once.
final class StoreProcessTests: XCTestCase {
  let visitorID = "fedcba9876543210fedcba9876543210"

  /// The state the child commits at step k (see Tests/Tools/StoreChild).
  private func assertIsStep(_ model: DataModel, _ step: Int, _ message: String) {
    XCTAssertEqual(model.lists.count, 1, message)
    guard let list = model.lists.first else { return }
    XCTAssertEqual(list.name, "Step \(step)", message)
    XCTAssertEqual(list.items.map(\.text), ["item \(step)"], message)
    XCTAssertEqual(list.items.map(\.checked), [step % 2 == 1], message)
  }

  private func step(of model: DataModel) -> Int {
    model.lists.first.flatMap { Int($0.name.dropFirst("Step ".count)) } ?? -1
  }

  func testKilledWriterLeavesTheStateBeforeOrAfterItsLastChange() throws {
    let child = try storeChildURL()
    let data = try makeDataDirectory(self)
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
      XCTAssertEqual(process.wait().signal, SIGKILL, "the child died on its own")
      kills += 1

      let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n")
      let lastPrinted = lines.last(where: { _ in true }).flatMap { Int($0) } ?? committed
      XCTAssertGreaterThanOrEqual(lastPrinted, committed)
      let model: DataModel
      do {
        model = try XCTUnwrap(try makeStore(data).load(visitor), "kill \(kills): no file")
      } catch {
        return XCTFail("kill \(kills): the file does not load: \(error)")
      }
      let onDisk = step(of: model)
      XCTAssertTrue(
        onDisk == lastPrinted || onDisk == lastPrinted + 1,
        "kill \(kills): on disk step \(onDisk), last committed \(lastPrinted)")
      assertIsStep(model, onDisk, "kill \(kills)")
      committed = onDisk
      if testRun?.failureCount ?? 0 > 0 { return }
    }
    XCTAssertGreaterThan(committed, 200, "the child made progress between kills")
  }

  func testTwoProcessesWithFourThreadsLoseNoToggle() throws {
    let child = try storeChildURL()
    let data = try makeDataDirectory(self)
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
      process.executableURL = child
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
      XCTAssertEqual(process.terminationStatus, 0)
      XCTAssertEqual(printed, "lost 0\n", "toggles seen lost by the child")
    }
    let model = try XCTUnwrap(try makeStore(data).load(visitor))
    let items = try XCTUnwrap(model.checklist(id: listID)?.items)
    XCTAssertEqual(items.count, total)
    XCTAssertEqual(items.filter(\.checked).map(\.text), [], "items whose last toggle was lost")
    XCTAssertEqual(model.nextItemID, seeded.nextItemID)
  }
}
