import Documents
import FileSystem
import Foundation
import Support
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

    let answers = LockedValue<[String: Int]>([:])
    let group = DispatchGroup()
    for number in 1..<9 {
      DispatchQueue.global().async(group: group) {
        let answer = try? rounds.value(for: "k\(number)") { table.read($0) }
        answers.withLock { $0["k\(number)"] = answer ?? nil }
      }
    }
    // Every asker has joined the next round before the first read returns.
    while rounds.waitingCount < 8 { usleep(1000) }
    table.releaseFirstRead.signal()
    group.wait()
    #expect(table.reads.count == 2)
    #expect(table.reads.last == (1..<9).map { "k\($0)" }.sorted())
    #expect(
      answers.withLock { $0 } == Dictionary(uniqueKeysWithValues: (1..<9).map { ("k\($0)", $0) }))
  }

  @Test func aChangeMadeBeforeAskingIsSeenThoughAReadWasUnderWay() throws {
    let rounds = ReadRounds<String, Int>()
    let table = Table()
    table.values = ["owner": 1]
    let first = Thread { _ = try? rounds.value(for: "owner") { table.read($0) } }
    first.start()
    table.firstReadTaken.wait()  // its snapshot says 1
    table.lock.withLock { table.values["owner"] = 2 }  // then a change is acknowledged

    let answer = LockedValue<Int??>(nil)
    let asked = Thread {
      let value = try? rounds.value(for: "owner") { table.read($0) }
      answer.withLock { $0 = .some(value ?? nil) }
    }
    asked.start()
    while rounds.waitingCount < 1 { usleep(1000) }
    table.releaseFirstRead.signal()
    while answer.withLock({ $0 }) == nil { usleep(1000) }
    #expect(answer.withLock { $0 } == .some(2))
  }

  /// 16 threads asking 300 times each while the values keep rising: every
  /// answer is at least what was there when its question was asked, and
  /// nobody is left waiting.
  @Test func underLoadEveryAnswerIsAtLeastAsNewAsItsQuestion() {
    let rounds = ReadRounds<Int, Int>()
    let values = LockedValue([Int](repeating: 0, count: 4))
    let stale = LockedValue<[String: Int]>([:])
    let group = DispatchGroup()
    for thread in 0..<16 {
      DispatchQueue.global().async(group: group) {
        for call in 0..<300 {
          let key = (thread + call) % 4
          // A change acknowledged before the question.
          let asked = values.withLock {
            $0[key] += 1
            return $0[key]
          }
          let answer = try? rounds.value(for: key) { keys in
            values.withLock { current in
              Dictionary(uniqueKeysWithValues: keys.map { ($0, current[$0]) })
            }
          }
          if (answer ?? 0) < asked { stale.withLock { $0["\(thread)-\(call)"] = answer ?? -1 } }
        }
      }
    }
    #expect(group.wait(timeout: .now() + 60) == .success, "a thread was left waiting")
    let found = stale.withLock { $0 }
    #expect(found.isEmpty, "\(found.prefix(5))")
  }

  /// Two threads that ask during a read form the next round; its read
  /// fails, and both are told.
  @Test func aFailedReadFailsEveryoneInItsRound() {
    let rounds = ReadRounds<String, Int>()
    let table = Table()
    table.values = ["a": 1]
    let first = Thread { _ = try? rounds.value(for: "a") { table.read($0) } }
    first.start()
    table.firstReadTaken.wait()

    let failures = LockedValue<[String: DocumentError]>([:])
    let group = DispatchGroup()
    for key in ["b", "c"] {
      DispatchQueue.global().async(group: group) {
        do throws(DocumentError) {
          _ = try rounds.value(for: key) { (_) throws(DocumentError) -> [String: Int] in
            throw DocumentError(
              operation: "read", path: key, reason: .unavailable, detail: "connection lost")
          }
        } catch {
          failures.withLock { $0[key] = error }
        }
      }
    }
    while rounds.waitingCount < 2 { usleep(1000) }
    table.releaseFirstRead.signal()
    #expect(group.wait(timeout: .now() + 30) == .success, "a thread of the round was left waiting")
    let told = failures.withLock { $0 }
    #expect(told.keys.sorted() == ["b", "c"])
    #expect(told.values.allSatisfy { $0.isUnavailable })
    #expect(table.reads == [["a"]], "the second round's read was the failing one, sent once")
  }
}
