/// What one visitor may store; each bound keeps one file small enough to
/// decode quickly (about 20 ms for a list of 5,000 items).
public enum Limits {
  /// Characters (grapheme clusters) in a list name or item text.
  public static let maximumTextLength = 1_000
  /// Lists per visitor.
  public static let maximumLists = 500
  /// Items per list.
  public static let maximumItemsPerList = 5_000
}
