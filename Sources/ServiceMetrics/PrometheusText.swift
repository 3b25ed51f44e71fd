/// Prometheus' text exposition format (version 0.0.4), written straight
/// into bytes: a family's `# HELP` and `# TYPE` lines, then its samples.
package struct PrometheusText: Sendable {
  package private(set) var bytes: [UInt8] = []

  package init() {}

  /// The lines that open `metric`'s family; its samples follow.
  package mutating func family(_ metric: MetricName) {
    append("# HELP \(metric.name) \(Self.escapedHelp(metric.help))\n")
    append("# TYPE \(metric.name) \(metric.kind.rawValue)\n")
  }

  /// One sample: `name{label="value",…} value`.
  package mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: String) {
    append(name)
    if !labels.isEmpty {
      append("{")
      for (index, (label, text)) in labels.enumerated() {
        append(index == 0 ? "" : ",")
        append("\(label)=\"\(Self.escapedLabel(text))\"")
      }
      append("}")
    }
    append(" \(value)\n")
  }

  package mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: UInt64) {
    sample(name, labels, String(value))
  }

  private mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  /// A label's value with `\`, `"` and line feeds escaped, as the format asks.
  package static func escapedLabel(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// Help text with `\` and line feeds escaped.
  static func escapedHelp(_ text: String) -> String {
    text.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
  }
}
