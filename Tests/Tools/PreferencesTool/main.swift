// The child process of PreferencesTests.
//
//   preferences-tool distinct DIR PREFIX COUNT THREADS
//     sets COUNT distinct keys PREFIX-<thread>-<i>, each in its own request
//     scope and commit (not durable), from THREADS threads.
//   preferences-tool loop DIR
//     sets counter, a and b to the next value of counter, one commit each
//     round, durably, until killed.
import Foundation
import Logging
import Preferences

let arguments = CommandLine.arguments
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(2)
}
guard arguments.count >= 3 else { fail("usage: preferences-tool distinct|loop DIR ...") }
let directory = arguments[2]
var logger = Logger(label: "preferences-tool")
logger.logLevel = .warning

switch arguments[1] {
case "distinct":
  guard arguments.count == 6, let count = Int(arguments[4]), let threads = Int(arguments[5]) else {
    fail("usage: preferences-tool distinct DIR PREFIX COUNT THREADS")
  }
  let prefix = arguments[3]
  let defaults = Defaults(logger: logger, durable: false)
  // Real threads: concurrentPerform would run only as many as there are cores.
  let group = DispatchGroup()
  for thread in 0..<threads {
    group.enter()
    Thread {
      for index in 0..<count {
        let scope = defaults.visitor(directory: directory)
        scope.set(index, forKey: "\(prefix)-\(thread)-\(index)")
        do { _ = try scope.commit() } catch { fail("commit: \(error)") }
      }
      group.leave()
    }.start()
  }
  group.wait()
case "loop":
  let defaults = Defaults(logger: logger, durable: true)
  var counter = defaults.visitor(directory: directory).integer(forKey: "counter")
  FileHandle.standardOutput.write(Data("ready\n".utf8))
  while true {
    counter += 1
    let scope = defaults.visitor(directory: directory)
    scope.set(counter, forKey: "counter")
    scope.set(counter, forKey: "a")
    scope.set("v\(counter)", forKey: "b")
    do { _ = try scope.commit() } catch { fail("commit: \(error)") }
  }
default:
  fail("unknown command \(arguments[1])")
}
