import Foundation
import Support
import TestSupport
import Testing

@testable import Preferences

#if canImport(Glibc)
  import Glibc
#endif

/// Serialized: each test alone keeps both cores busy.
@Suite(.serialized) struct ConcurrencyTests {
  let temporary = TemporaryDirectory("preferences")

  @Test func eightThreadsSettingDistinctKeysLoseNothing() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    // 8 × 400 commits: each commit rewrites the whole file, so the cost
    // grows with the square of the keys; at 8 × 1,000 this one test took
    // 31 s alone and ~300 s beside the other suites in a debug build.
    let threads = 8
    let count = 400
    let recorder = ChangeRecorder()
    _ = recorder.observe(defaults)
    // Real threads: concurrentPerform would run only as many as there are cores.
    let group = DispatchGroup()
    let failures = LockedValue<[String]>([])
    for thread in 0..<threads {
      group.enter()
      Thread {
        for index in 0..<count {
          let scope = defaults.scope(directory)
          scope.set(index, forKey: "t\(thread)-\(index)")
          do { _ = try scope.commit() } catch { failures.withLock { $0.append("\(error)") } }
        }
        group.leave()
      }.start()
    }
    group.wait()
    #expect(failures.withLock { $0 } == [])
    #expect(recorder.changes.count == threads * count, "one notification per change")
    #expect(defaults.writeCount <= threads * count, "at most one write per request")
    let file = try parsedFile(directory + "/Preferences.plist")
    #expect(file.count == threads * count)
    for thread in 0..<threads {
      for index in 0..<count { #expect(file["t\(thread)-\(index)"] as? Int == index) }
    }
  }

  @Test func twoProcessesSettingDistinctKeysLoseNothing() throws {
    let tool = try BuiltTool.path("preferences-tool")
    let directory = temporary.makeSubdirectory()
    // 2 processes × 8 threads × 50: the same shape as above, fewer keys,
    // as every commit re-parses the file the other process wrote, which
    // debug builds pay dearly for. At 100 a thread, the debug build took
    // 8-12 s alone, and beside the other suites a commit's wait for the
    // lock passed its 5 s now and then (the tool then exits 2, having
    // written nothing: a refusal, not a lost change).
    let count = 50
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
      #expect(status == 0, "\(output)")
    }
    let file = try parsedFile(directory + "/Preferences.plist")
    #expect(file.count == 2 * threads * count)
    for prefix in ["p", "q"] {
      for thread in 0..<threads {
        for index in 0..<count {
          #expect(file["\(prefix)-\(thread)-\(index)"] as? Int == index)
        }
      }
    }
  }

  /// kill -9 at 200 random moments of a loop of durable commits: the file
  /// always parses and holds one commit's values, never a mix.
  @Test func killAtRandomMomentsLeavesAWholeFile() throws {
    let tool = try BuiltTool.path("preferences-tool")
    let directory = temporary.makeSubdirectory()
    let path = directory + "/Preferences.plist"
    var last = 0
    var observedCommits = 0
    for round in 0..<200 {
      let child = try SpawnedChild(tool, ["loop", directory])
      child.awaitOutput()  // "ready": it has read the file
      usleep(UInt32.random(in: 0...8_000))
      #expect(child.kill9(), "round \(round): the child ended before the kill")
      guard FileManager.default.fileExists(atPath: path) else { continue }
      let file: [String: Any]
      do {
        file = try parsedFile(path)
      } catch {
        Issue.record("round \(round): the file does not parse: \(error)")
        return
      }
      let counter = try #require(file["counter"] as? Int, "round \(round)")
      #expect(file["a"] as? Int == counter, "round \(round)")
      #expect(file["b"] as? String == "v\(counter)", "round \(round)")
      #expect(counter >= last, "round \(round): went back")
      if counter > last { observedCommits += 1 }
      last = counter
    }
    #expect(observedCommits > 20, "the kills should land among commits")
    let kept = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
      $0.contains("corrupt")
    }
    #expect(kept == [])
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
