import Testing

@testable import ChecklistsWeb

/// Settings' zone options, rendered once per zone and kept.
@Suite struct TimeZoneSelectTests {
  @Test func everyZoneIsAnOptionAndOnlyTheVisitorsIsSelected() {
    let select = SettingsScreen.zoneSelect
    let options = select.options(selected: "Europe/Berlin")
    let lines = options.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.last == "", "each option ends its line")
    #expect(lines.count - 1 == VisitorTimeZone.identifiers.count)
    #expect(lines.filter { $0.contains("selected") } == ["<option selected>Europe/Berlin</option>"])
    #expect(lines.contains("<option>UTC</option>"))
    // Kept: asked again, the same text; another zone, its own.
    #expect(select.options(selected: "Europe/Berlin") == options)
    let utc = select.options(selected: "UTC")
    #expect(utc.contains("<option selected>UTC</option>\n"))
    #expect(!utc.contains("<option selected>Europe/Berlin"))
  }

  @Test func aZoneTheServerDoesNotKnowSelectsNothing() {
    let select = TimeZoneSelect(identifiers: ["Europe/Berlin", "UTC"])
    #expect(
      select.options(selected: "Mars/Olympus")
        == "<option>Europe/Berlin</option>\n<option>UTC</option>\n")
  }

  @Test func namesAreEscaped() {
    let select = TimeZoneSelect(identifiers: ["A&B", "C<D"])
    #expect(
      select.options(selected: "A&B")
        == "<option selected>A&amp;B</option>\n<option>C&lt;D</option>\n")
  }
}
