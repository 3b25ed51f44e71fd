import Foundation
import Support

/// Writes the XML property-list format directly.
///
/// Foundation's writer on Linux took 31 ms for a 4,000-key dictionary
/// (7.7 µs a key), and a visitor's file is rewritten on every commit; this
/// one also guarantees the two things interop needs: dates in whole seconds
/// and no character XML cannot hold (a carriage return is written as
/// `&#13;` so that XML's line-end normalisation does not turn it into `\n`).
enum XMLPropertyListWriter {
  static func document(_ root: [String: PlistValue]) -> Data {
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">

      """
    out.reserveCapacity(root.count * 64 + 256)
    write(.dictionary(root), indent: 0, into: &out)
    out += "</plist>\n"
    return Data(out.utf8)
  }

  private static func write(_ value: PlistValue, indent: Int, into out: inout String) {
    let tabs = indentation(indent)
    out += tabs
    switch value {
    case .string(let text):
      out += "<string>"
      escape(text, into: &out)
      out += "</string>\n"
    case .integer(let number):
      out += "<integer>"
      out += String(number)
      out += "</integer>\n"
    case .double(let number):
      out += "<real>"
      out += realText(number)
      out += "</real>\n"
    case .bool(let flag): out += flag ? "<true/>\n" : "<false/>\n"
    case .date(let date):
      out += "<date>"
      out += dateText(date)
      out += "</date>\n"
    case .data(let bytes):
      out += "<data>"
      out += bytes.base64EncodedString()
      out += "</data>\n"
    case .array(let values):
      if values.isEmpty {
        out += "<array/>\n"
        return
      }
      out += "<array>\n"
      for element in values { write(element, indent: indent + 1, into: &out) }
      out += tabs
      out += "</array>\n"
    case .dictionary(let values):
      if values.isEmpty {
        out += "<dict/>\n"
        return
      }
      out += "<dict>\n"
      let keyIndent = indentation(indent + 1)
      // Unsorted: sorting 4,000 keys took a third of a commit's time, and
      // readers do not care about order.
      for (key, element) in values {
        out += keyIndent
        out += "<key>"
        escape(key, into: &out)
        out += "</key>\n"
        write(element, indent: indent + 1, into: &out)
      }
      out += tabs
      out += "</dict>\n"
    }
  }

  private static let indentations = (0..<16).map { String(repeating: "\t", count: $0) }

  private static func indentation(_ depth: Int) -> String {
    depth < indentations.count ? indentations[depth] : String(repeating: "\t", count: depth)
  }

  private static func needsEscaping(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x0D { return true }
        index += 1
      }
      return false
    }
  }

  private static func escape(_ text: String, into out: inout String) {
    guard needsEscaping(text) else {
      out += text
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\r": out += "&#13;"
      default: out.unicodeScalars.append(scalar)
      }
    }
  }

  /// Spellings both CoreFoundation's and Python's readers accept.
  static func realText(_ number: Double) -> String {
    if number.isNaN { return "nan" }
    if number.isInfinite { return number > 0 ? "+infinity" : "-infinity" }
    return String(number)
  }

  /// The seconds since 1970 a plist date can spell: the years 1 to 9999.
  static let representableSeconds: ClosedRange<Double> = -62_135_596_800...253_402_300_799

  /// ISO 8601 in UTC, whole seconds, as plists have always written dates.
  ///
  /// A file read back may hold any double as a date (NaN, infinity, 1e300 seconds: the
  /// fuzzer made one), which no integer can hold; such a date is clamped to the years
  /// 1 to 9999, and NaN written as 1970-01-01.
  static func dateText(_ date: Date) -> String {
    let interval = date.timeIntervalSince1970
    let clamped =
      interval.isNaN ? 0 : interval.rounded(.down).clamped(to: representableSeconds)
    let seconds = Int64(clamped)
    let (days, second) = seconds.quotientAndRemainder(dividingBy: 86_400)
    let (dayNumber, secondOfDay) = second < 0 ? (days - 1, second + 86_400) : (days, second)
    let (year, month, day) = CivilDate.date(daysSince1970: Int(dayNumber))
    func two<Number: BinaryInteger>(_ value: Number) -> String {
      value < 10 ? "0\(value)" : "\(value)"
    }
    let yearText =
      year < 1000 && year >= 0
      ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
    let (hour, minute) = (secondOfDay / 3_600, secondOfDay % 3_600 / 60)
    return
      "\(yearText)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(secondOfDay % 60))Z"
  }
}

extension Double {
  fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
    Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
