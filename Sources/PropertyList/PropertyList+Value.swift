import Foundation

extension PropertyList {
  /// The object at `index` (the top one by default) as a tree of values.
  ///
  /// - Parameter limit: the most values the tree may hold; a binary file that names one
  ///   container from many places is refused before its tree passes it.
  /// - Throws: `PropertyListError` for a keyed archive's reference (values never hold
  ///   one) or a tree past `limit`.
  package func value(at index: Int? = nil, limit: Int) throws(PropertyListError)
    -> PropertyListValue
  {
    var budget = limit
    return try value(index ?? top, budget: &budget)
  }

  /// Recursion is bounded: the readers refuse nesting past `maximumDepth`.
  private func value(_ index: Int, budget: inout Int) throws(PropertyListError) -> PropertyListValue
  {
    guard budget > 0 else {
      throw PropertyListError(
        translatable("This property list holds more values than can be kept."))
    }
    budget -= 1
    switch objects[index] {
    case .string(let text): return .string(text)
    case .integer(let number): return .integer(Int(number))
    case .real(let number): return .real(number)
    case .bool(let flag): return .bool(flag)
    case .date(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case .data(let bytes): return .data(Data(bytes))
    case .uid:
      throw PropertyListError(
        translatable("This property list holds a reference, which only keyed archives do."))
    case .array(let members):
      var values: [PropertyListValue] = []
      values.reserveCapacity(members.count)
      for member in members { values.append(try value(member, budget: &budget)) }
      return .array(values)
    case .dictionary(let entries):
      var values: [String: PropertyListValue] = [:]
      values.reserveCapacity(entries.count)
      for (key, member) in entries { values[key] = try value(member, budget: &budget) }
      return .dictionary(values)
    }
  }
}
