import Foundation

/// A property-list value as a tree: what a caller builds and keeps (the preferences'
/// values) and what `XMLPropertyListWriter` writes. A closed set of cases, so that equality
/// and conversions do not depend on Foundation's bridging of `Any`.
///
/// A file read by the strict readers is a `PropertyList` of flat objects instead, made
/// into a value by `PropertyList.value(limit:)`: a binary file may name one container from
/// many places, and a tree of it could grow exponentially.
package enum PropertyListValue: Equatable, Sendable {
  case string(String)
  case integer(Int)
  case real(Double)
  case bool(Bool)
  /// Written in whole seconds: XML plists and Python's plistlib keep no fraction.
  case date(Date)
  case data(Data)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])
}
