import Support

/// A calendar component (RFC 5545 §3.4, §3.6): `BEGIN:NAME`, its
/// properties, the components inside it, `END:NAME`.
package struct Component: Sendable, Equatable {
  /// The name in upper case (`VCALENDAR`, `VTODO`, `VALARM`, …).
  package let name: String
  /// The properties in their order.
  package var properties: [ContentLine]
  /// The components inside it, in their order.
  package var components: [Component]
  /// The `BEGIN` and `END` lines as read.
  package let begin: ContentLine
  package let end: ContentLine

  /// The first property named `name` (upper case).
  package func property(_ name: String) -> ContentLine? {
    properties.first { $0.name == name }
  }

  /// Every line of the component, `BEGIN` and `END` included, as read.
  package var lines: [ContentLine] {
    var lines = [begin]
    lines.append(contentsOf: properties)
    for component in components { lines.append(contentsOf: component.lines) }
    lines.append(end)
    return lines
  }

  /// The one component `lines` hold, from its `BEGIN` to its `END`, with
  /// nothing before or after it.
  package static func parse(_ lines: [ContentLine]) throws(ICalendarError) -> Component {
    guard let first = lines.first else { throw .empty }
    guard first.name == "BEGIN" else {
      throw .unbalanced(
        line: 1,
        reason: FilledPhrase(
          translatable("BEGIN expected, found {{name}}"), ["name": first.name]))
    }
    var index = 0
    let component = try parse(lines, at: &index, depth: 1)
    guard index == lines.count else {
      throw .unbalanced(
        line: index + 1,
        reason: FilledPhrase(
          translatable("a line after the END of {{component}}"), ["component": component.name]))
    }
    return component
  }

  /// The component whose `BEGIN` is at `index`; leaves `index` after its `END`.
  private static func parse(_ lines: [ContentLine], at index: inout Int, depth: Int)
    throws(ICalendarError) -> Component
  {
    guard depth <= ICalendarLimits.maximumDepth else {
      throw .tooDeep(line: index + 1, limit: ICalendarLimits.maximumDepth)
    }
    let begin = lines[index]
    let name = try componentName(begin, line: index + 1)
    index += 1
    var properties: [ContentLine] = []
    var components: [Component] = []
    while index < lines.count {
      let line = lines[index]
      switch line.name {
      case "BEGIN":
        components.append(try parse(lines, at: &index, depth: depth + 1))
      case "END":
        guard try componentName(line, line: index + 1) == name else {
          throw .unbalanced(
            line: index + 1,
            reason: FilledPhrase(
              // Translators: END:VTODO, BEGIN:VALARM… are iCalendar lines as sent: keep them.
              translatable("END:{{end}} closes BEGIN:{{begin}}"),
              ["end": line.value, "begin": name]))
        }
        index += 1
        return Component(
          name: name, properties: properties, components: components, begin: begin, end: line)
      default:
        properties.append(line)
        index += 1
      }
    }
    throw .unbalanced(
      line: lines.count,
      reason: FilledPhrase(
        translatable("BEGIN:{{component}} is never ended"), ["component": name]))
  }

  private static func componentName(_ line: ContentLine, line number: Int)
    throws(ICalendarError) -> String
  {
    let name = line.keyword
    guard !name.isEmpty, line.parameters.isEmpty,
      name.utf8.allSatisfy({
        $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A)
      })
    else {
      throw .malformedLine(
        line: number,
        reason: FilledPhrase(
          // Translators: {{name}} is BEGIN or END; a component name is VTODO, VALARM…
          translatable("{{name}} needs a component name"), ["name": line.name]))
    }
    return name
  }
}
