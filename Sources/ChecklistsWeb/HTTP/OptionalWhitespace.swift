extension StringProtocol {
  /// Without leading and trailing spaces and tabs, HTTP's optional whitespace
  /// around header values and their parts.
  func trimmingOptionalWhitespace() -> SubSequence {
    let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isWhitespace($0) }),
      let last = lastIndex(where: { !isWhitespace($0) })
    else { return self[endIndex...] }
    return self[first...last]
  }
}
