import Foundation

/// What the visitor group's stages hand each other: the route, who the
/// cookies name, and what the stages found out on the way (the session,
/// the accepted form).
struct VisitorCall {
  let match: RouteTable.Match
  let arrival: Arrival
  let cookies: Cookies
  /// Who the request's cookies name, judged by the day of `arrival.now`.
  let visitor: VisitorSession.Visitor
  /// When the page rendered stops being right by itself (see `PageLifetime`).
  let lifetime: PageLifetime
  /// Set by `SessionStage`, which every later stage and handler follows.
  var session: VisitorSession!
  /// A change's form, once `FormCheck` accepted it (nil for a screen).
  var input: VisitorInput?
}

/// The body of a change, as `FormCheck` accepted it.
enum VisitorInput {
  case form(FormData)
  case upload(Upload)
}
