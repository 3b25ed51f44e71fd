import Foundation
import TestSupport
import Testing

@testable import PropertyList

#if canImport(Glibc)
  import Glibc
#endif

/// A date in a written file reads as C's `gmtime` spells it (proleptic
/// Gregorian, UTC), over every year a plist date can hold.
@Suite struct DateTextTests {
  private func gmtimeText(_ seconds: Int64) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1,
      parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
  }

  @Test func everyRepresentableDateIsSpelledAsGmtimeSpellsIt() {
    let range = XMLPropertyListWriter.representableSeconds
    let edges: [Int64] = [
      Int64(range.lowerBound), Int64(range.upperBound), 0, -1, 86_399, 86_400, -86_400,
      951_782_400,  // 2000-02-29
      -2_203_891_200,  // 1900-03-01
      -62_135_596_801 + 86_400 * 59,  // 0001-03-01, one second before
      1_700_000_000,
    ]
    var random = SeededGenerator(seed: 1_970)
    let samples = (0..<20_000).map { _ in
      Int64.random(in: Int64(range.lowerBound)...Int64(range.upperBound), using: &random)
    }
    for seconds in edges + samples {
      let written = XMLPropertyListWriter.dateText(Date(timeIntervalSince1970: Double(seconds)))
      #expect(written == gmtimeText(seconds), "\(seconds)")
    }
  }
}
