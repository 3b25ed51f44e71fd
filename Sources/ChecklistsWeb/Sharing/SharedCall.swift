import Storage

/// What the shared group's stages hand each other: the route, the link's
/// token, and what the stages found out on the way (the owner, the link,
/// the accepted form).
struct SharedCall {
  let match: RouteTable.Match
  let arrival: Arrival
  /// The path's token as it came, for the page's own addresses (never
  /// logged).
  let token: String
  /// The token's SHA-256, by which the link is found and its page kept.
  let digest: String
  /// When the page rendered stops being right by itself (see `PageLifetime`).
  let lifetime: PageLifetime
  /// The language of the pages and error pages: the browser's
  /// (`Accept-Language`), since a link has no visitor with a preference.
  let language: Language
  /// The link's owner, when `SharedMemo` looked them up first.
  var owner: VisitorDirectory?
  /// Set by `LinkStage`, which every later stage and handler follows.
  var access: ShareLinks.Access!
  /// A change's form, once `SharedFormCheck` accepted it (nil for a screen).
  var form: FormData?
}
