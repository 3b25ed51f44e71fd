import FastCGI

/// A shared list's route: its screen, given the list as it stands; a
/// change of its items, given the form once `SharedFormCheck` accepted it.
enum SharedEndpoint: Endpoint {
  /// Shows a shared list, given the link and the owner's list as it stands.
  typealias ScreenHandler = @Sendable (SharedScreenContext) throws -> Response
  /// Changes a shared list's items, given the link and the accepted form.
  typealias ChangeHandler = @Sendable (SharedChangeContext) throws -> Response

  case screen(ScreenHandler)
  case change(ChangeHandler)

  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, in groups: RouteGroups
  ) -> Response {
    groups.shared.respond(to: request, match: match, arrival: arrival, endpoint: self)
  }

  /// Runs the handler after the group's stages.
  func run(_ request: Request, _ call: SharedCall, services: SharedServices) throws -> Response {
    func context<Input>(_ input: Input) -> SharedContext<Input> {
      SharedContext(
        request: request, access: call.access, token: call.token,
        parameters: call.match.parameters, services: services, input: input,
        now: call.arrival.now, lifetime: call.lifetime, language: call.language)
    }
    switch self {
    case .screen(let show):
      return try show(context(try services.sharedList(call.access)))
    case .change(let change):
      guard let form = call.form else {
        preconditionFailure("\(call.match.route): SharedFormCheck passed no form")
      }
      return try change(context(form))
    }
  }
}

extension Route {
  /// A shared list's screen at `pattern`, reached by the link's token
  /// alone (no cookie); `revisited` pages are kept whole by `SharedMemo`.
  static func sharedGet(
    _ pattern: RoutePattern, revisited: Bool = false,
    _ handler: @escaping SharedEndpoint.ScreenHandler
  ) -> Route {
    precondition(pattern.carriesSecret, "a shared page's address carries its token: \(pattern)")
    return Route(
      method: .get, pattern: pattern, isRevisited: revisited,
      endpoint: SharedEndpoint.screen(handler))
  }

  /// A change of a shared list at `pattern`, reached by the link's token
  /// alone (no cookie); its form is checked against forgery too.
  static func sharedPost(_ pattern: RoutePattern, _ handler: @escaping SharedEndpoint.ChangeHandler)
    -> Route
  {
    precondition(pattern.carriesSecret, "a shared change's address carries its token: \(pattern)")
    return Route(method: .post, pattern: pattern, endpoint: SharedEndpoint.change(handler))
  }
}
