import FileSystem
import Foundation
import Testing

@testable import PostgresStore

/// Threads asking at the same time share one read, and nobody is answered
/// from a read sent before they asked.
@Suite("ReadRounds")
struct ReadRoundsTests {
  /// What the reads see, changed by the tests while a read is under way.
  final class Table: @unchecked Sendable {
    let lock = NSLock()
    var values: [String: Int] = [:]
    var reads: [[String]] = []
    /// Blocks the first read after taking its snapshot, until signalled.
    let firstReadTaken = DispatchSemaphore(value: 0)
    let releaseFirstRead = DispatchSemaphore(value: 0)

    func read(_ keys: [String]) -> [String: Int] {
      let (answers, first) = lock.withLock {
        reads.append(keys.sorted())
        return (values.filter { keys.contains($0.key) }, reads.count == 1)
      }
      if first {
        firstReadTaken.signal()
        releaseFirstRead.wait()
      }
      return answers
    }
  }

  @Test func aThreadAloneReadsAtOnce() throws {
    let rounds = ReadRounds<String, Int>()
    let table = Table()
    table.values = ["a": 1]
    table.releaseFirstRead.signal()
    #expect(try rounds.value(for: "a") { table.read($0) } == 1)
    #expect(try rounds.value(for: "b") { table.read($0) } == nil)
    #expect(table.reads == [["a"], ["b"]])
  }

  @Test func threadsAskingDuringAReadShareTheNextOne() async throws {
    let rounds = ReadRounds<String, Int>()
    let table = Table()
    table.values = Dictionary(uniqueKeysWithValues: (0..<9).map { ("k\($0)", $0) })
    let first = Thread { _ = try? rounds.value(for: "k0") { table.read($0) } }
    first.start()
    table.firstReadTaken.wait()

    let answers = LockedAnswers()
    let group = DispatchGroup()
    for number in 1..<9 {
      DispatchQueue.global().async(group: group) {
        answers.add("k\(number)", try? rounds.value(for: "k\(number)") { table.read($0) })
      }
    }
    // Every asker has joined the next round before the first read returns.
    while rounds.waitingCount < 8 { usleep(1000) }
    table.releaseFirstRead.signal()
    group.wait()
    #expect(table.reads.count == 2)
    #expect(table.reads.last == (1..<9).map { "k\($0)" }.sorted())
    #expect(answers.all == Dictionary(uniqueKeysWithValues: (1..<9).map { ("k\($0)", $0) }))
  }

  @Test func aChangeMadeBeforeAskingIsSeenThoughAReadWasUnderWay() throws {
    let rounds = ReadRounds<String, Int>()
    let table = Table()
    table.values = ["owner": 1]
    let first = Thread { _ = try? rounds.value(for: "owner") { table.read($0) } }
    first.start()
    table.firstReadTaken.wait()  // its snapshot says 1
    table.lock.withLock { table.values["owner"] = 2 }  // then a change is acknowledged

    let answers = LockedAnswers()
    let asked = Thread { answers.add("owner", try? rounds.value(for: "owner") { table.read($0) }) }
    asked.start()
    while rounds.waitingCount < 1 { usleep(1000) }
    table.releaseFirstRead.signal()
    while answers.all.isEmpty { usleep(1000) }
    #expect(answers.all == ["owner": 2])
  }

  /// 16 threads asking 300 times each while the values keep rising: every
  /// answer is at least what was there when its question was asked, and
  /// nobody is left waiting.
  @Test func underLoadEveryAnswerIsAtLeastAsNewAsItsQuestion() {
    let rounds = ReadRounds<Int, Int>()
    let counters = Counters()
    let reads = LockedAnswers()
    let stale = LockedAnswers()
    let group = DispatchGroup()
    for thread in 0..<16 {
      DispatchQueue.global().async(group: group) {
        for call in 0..<300 {
          let key = (thread + call) % 4
          let asked = counters.raise(key)  // a change acknowledged before the question
          let answer = try? rounds.value(for: key) { keys in
            reads.add("\(thread)-\(call)", keys.count)
            return counters.values(of: keys)
          }
          if (answer ?? 0) < asked { stale.add("\(thread)-\(call)", answer ?? -1) }
        }
      }
    }
    #expect(group.wait(timeout: .now() + 60) == .success, "a thread was left waiting")
    #expect(stale.all.isEmpty, "\(stale.all.prefix(5))")
    #expect(reads.all.count <= 16 * 300)
  }

  @Test func aFailedReadFailsEveryoneInItsRound() {
    let rounds = ReadRounds<String, Int>()
    let failure = #expect(throws: FileError.self) {
      try rounds.value(for: "a") { (_) throws(FileError) -> [String: Int] in
        throw FileError(operation: "read", path: "a", errno: .socketNotConnected)
      }
    }
    #expect(failure?.isUnavailable == true)
  }

  final class Counters: @unchecked Sendable {
    private let lock = NSLock()
    private var values = [Int](repeating: 0, count: 4)
    func raise(_ key: Int) -> Int {
      lock.withLock {
        values[key] += 1
        return values[key]
      }
    }
    func values(of keys: [Int]) -> [Int: Int] {
      lock.withLock { Dictionary(uniqueKeysWithValues: keys.map { ($0, values[$0]) }) }
    }
  }

  final class LockedAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: Int] = [:]
    func add(_ key: String, _ value: Int??) {
      lock.withLock { answers[key] = value ?? nil }
    }
    var all: [String: Int] { lock.withLock { answers } }
  }
}
