import HTMLTemplates

/// "Use a code from another device" on the first page a new visitor sees
/// (their first-run list): someone whose lists are on another device must
/// not have to know the address `/link` to get them here.
enum FirstRunLink {
  /// `values` with `firstRun` true when the visitor is new to the site.
  static func adding(to values: TemplateValue, isFirstRun: Bool) -> TemplateValue {
    guard isFirstRun, case .object(let object) = values else { return values }
    let pairs = object.keys.map { ($0, object[$0] ?? .null) } + [("firstRun", .bool(true))]
    return .object(TemplateObject(pairs: pairs))
  }
}
