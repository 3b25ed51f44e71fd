import ArgumentParser
import ChecklistsModel
import Foundation

/// `checklists recurrence`: a rule's next occurrences, one line of input at
/// a time, for checking `Recurrence.Rule` against another implementation
/// (Tests/EndToEnd/test_recurrence_oracle.py compares it with dateutil).
struct RecurrenceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "recurrence",
    abstract: "Print the next occurrences of repeating rules read from standard input.",
    discussion: """
      Each line is `RRULE START [N]`: an RRULE value, a wall-clock start YYYYMMDDTHHMMSS and how \
      many occurrences (5 when absent). Each line printed is the N occurrences strictly after \
      the start, each from the one before, space-separated and cut short where the rule \
      ends; `custom` for a rule outside the subset, `invalid` for a line that is none. \
      COUNT is not applied (it counts down as an item moves on).
      """)

  func run() throws {
    var output = ""
    while let line = readLine() {
      output += Self.answer(line) + "\n"
      if output.utf8.count > 1 << 16 {
        print(output, terminator: "")
        output = ""
      }
    }
    print(output, terminator: "")
  }

  static func answer(_ line: String) -> String {
    let words = line.split(separator: " ")
    guard words.count == 2 || words.count == 3,
      let start = Recurrence.LocalTime(basic: words[1]),
      let count = words.count == 3 ? Int(words[2]) : 5
    else { return "invalid" }
    guard let rule = Recurrence.Rule(parsing: String(words[0])) else { return "custom" }
    var times: [String] = []
    var time = start
    while times.count < count, let next = rule.next(after: time) {
      times.append(next.description)
      time = next
    }
    return times.joined(separator: " ")
  }
}
