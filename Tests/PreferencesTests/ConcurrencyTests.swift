import Foundation
import XCTest

@testable import Preferences

#if canImport(Glibc)
  import Glibc
#endif

final class ConcurrencyTests: XCTestCase {
  func testEightThreadsSettingDistinctKeysLoseNothing() throws {
    let directory = makeTemporaryDirectory()
    let defaults = makeDefaults()
    let threads = 8
    let count = 1_000
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    // Real threads: concurrentPerform would run only as many as there are cores.
    let group = DispatchGroup()
    for thread in 0..<threads {
      group.enter()
      Thread {
        for index in 0..<count {
          let scope = defaults.scope(directory)
          scope.set(index, forKey: "t\(thread)-\(index)")
          do { _ = try scope.commit() } catch { XCTFail("\(error)") }
        }
        group.leave()
      }.start()
    }
    group.wait()
    XCTAssertEqual(recorder.changes.count, threads * count, "one notification per change")
    XCTAssertLessThanOrEqual(defaults.writeCount, threads * count, "at most one write per request")
    let file = try parsedFile(directory + "/Preferences.plist")
    XCTAssertEqual(file.count, threads * count)
    for thread in 0..<threads {
      for index in 0..<count { XCTAssertEqual(file["t\(thread)-\(index)"] as? Int, index) }
    }
  }

  func testTwoProcessesSettingDistinctKeysLoseNothing() throws {
    let tool = try preferencesTool()
    let directory = makeTemporaryDirectory()
    // 2 processes × 8 threads × 100: the same shape as above, fewer keys,
    // as every commit re-parses the file the other process wrote, which
    // debug builds pay dearly for.
    let count = 100
    let threads = 8
    let group = DispatchGroup()
    let results = ResultBox()
    for prefix in ["p", "q"] {
      group.enter()
      DispatchQueue.global().async {
        let outcome = Result {
          try runCommand(tool, ["distinct", directory, prefix, "\(count)", "\(threads)"])
        }
        results.append(outcome)
        group.leave()
      }
    }
    group.wait()
    for outcome in results.values {
      let (status, output) = try outcome.get()
      XCTAssertEqual(status, 0, output)
    }
    let file = try parsedFile(directory + "/Preferences.plist")
    XCTAssertEqual(file.count, 2 * threads * count)
    for prefix in ["p", "q"] {
      for thread in 0..<threads {
        for index in 0..<count {
          XCTAssertEqual(file["\(prefix)-\(thread)-\(index)"] as? Int, index)
        }
      }
    }
  }

  /// kill -9 at 200 random moments of a loop of durable commits: the file
  /// always parses and holds one commit's values, never a mix.
  func testKillAtRandomMomentsLeavesAWholeFile() throws {
    let tool = try preferencesTool()
    let directory = makeTemporaryDirectory()
    let path = directory + "/Preferences.plist"
    var last = 0
    var observedCommits = 0
    for round in 0..<200 {
      let child = try SpawnedChild(tool, ["loop", directory])
      child.awaitOutput()  // "ready": it has read the file
      usleep(UInt32.random(in: 0...8_000))
      XCTAssertTrue(child.kill9(), "round \(round): the child ended before the kill")
      guard FileManager.default.fileExists(atPath: path) else { continue }
      let file: [String: Any]
      do {
        file = try parsedFile(path)
      } catch {
        return XCTFail("round \(round): the file does not parse: \(error)")
      }
      let counter = try XCTUnwrap(file["counter"] as? Int, "round \(round)")
      XCTAssertEqual(file["a"] as? Int, counter, "round \(round)")
      XCTAssertEqual(file["b"] as? String, "v\(counter)", "round \(round)")
      XCTAssertGreaterThanOrEqual(counter, last, "round \(round): went back")
      if counter > last { observedCommits += 1 }
      last = counter
    }
    XCTAssertGreaterThan(observedCommits, 20, "the kills should land among commits")
    let kept = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
      $0.contains("corrupt")
    }
    XCTAssertEqual(kept, [])
  }
}

final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Result<(status: Int32, output: String), Error>] = []
  var values: [Result<(status: Int32, output: String), Error>] { lock.withLock { stored } }
  func append(_ value: Result<(status: Int32, output: String), Error>) {
    lock.withLock { stored.append(value) }
  }
}
