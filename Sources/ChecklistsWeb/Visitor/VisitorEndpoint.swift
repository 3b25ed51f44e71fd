import FastCGI

/// A visitor's route: a screen, given their checklists as they stand; a
/// change, given its form once `FormCheck` accepted it; an upload, given
/// its body as `FormCheck` read it.
enum VisitorEndpoint: Endpoint {
  case screen(Route.ScreenHandler)
  case change(Route.ChangeHandler)
  case upload(Route.UploadHandler)

  func respond(
    to request: Request, match: RouteTable.Match, arrival: Arrival, in groups: RouteGroups
  ) -> Response {
    groups.visitor.respond(to: request, match: match, arrival: arrival, endpoint: self)
  }

  /// Runs the handler after the group's stages.
  func run(_ request: Request, _ call: VisitorCall, services: VisitorServices) throws -> Response {
    func context<Input>(_ input: Input) -> RequestContext<Input> {
      RequestContext(
        request: request, session: call.session, parameters: call.match.parameters,
        services: services, input: input, now: call.arrival.now, lifetime: call.lifetime)
    }
    switch (self, call.input) {
    case (.screen(let show), .none):
      let current = try services.currentModel(call.session)
      // A scheduled reset changes every screen's counts by itself: a page
      // the memo keeps ends at the next one (see `DataModel.nextResetDue`).
      if let due = current.model.nextResetDue { call.lifetime.ends(at: due) }
      return try show(context(current))
    case (.change(let change), .form(let form)?):
      return try change(context(form))
    case (.upload(let upload), .upload(let body)?):
      return try upload(context(body))
    default:
      preconditionFailure("\(call.match.route): FormCheck passed no input of its kind")
    }
  }
}
