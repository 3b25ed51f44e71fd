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
    XCTAssertEqual(list.items.map(\.text), (1...max(1, step)).prefix(step).map { "item \($0)" }, message)
    XCTAssertEqual(list.items.map(\.checked), (0..<step).map { $0 < step - 1 }, message)
  }

  func testKilledWriterLeavesTheStateBeforeOrAfterItsLastChange() throws {
    let child = try storeChildURL()
    let data = try makeDataDirectory(self)
    let visitor = VisitorDirectory(dataDirectory: data, visitorID: visitorID)
    var random = SeededGenerator(seed: 9)
    var committed = 0  // the last state known to be on disk
    var kills = 0

    while kills < 200 {
      let process = Process()
      process.executableURL = child
      process.arguments = ["crash", data, visitorID]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      // Wait for its first commit, then let it run a random while before SIGKILL.
      var printed = output.fileHandleForReading.availableData
      usleep(UInt32.random(in: 0..<3_000, using: &random))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      printed += output.fileHandleForReading.readDataToEndOfFile()
      XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the child died on its own")
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
      let onDisk = model.lists.first?.items.count ?? 0
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
    let (processes, threads, togglesPerThread) = (2, 4, 250)
    let total = processes * threads * togglesPerThread
    var seeded = DataModel()
    let listID = try seeded.addList(name: "Shared", icon: .chores)
    for n in 0..<total { try seeded.addItem(text: "item \(n)", toList: listID) }
    try makeStore(data).update(visitor, initial: { _ in seeded }) { _ in }

    let children = try (0..<processes).map { p in
      let process = Process()
      process.executableURL = child
      process.arguments = [
        "toggle", data, visitorID, "\(listID)", "\(threads)", "\(p * threads * togglesPerThread)",
        "\(togglesPerThread)", "--fast", "--binary",
      ]
      try process.run()
      return process
    }
    for process in children {
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 0)
    }
    let items = try XCTUnwrap(try makeStore(data).load(visitor)?.checklist(id: listID)?.items)
    XCTAssertEqual(items.count, total)
    let lost = items.filter { !$0.checked }.map(\.text)
    XCTAssertEqual(lost, [], "\(lost.count) toggles lost")
  }
}
