import FastCGI

/// One concern a request passes through on its way to its handler (the
/// memo, the security headers, the session, the forgery check, the error
/// page): it may answer at once, or pass the request on to `next` and
/// adjust what comes back. Synchronous, as a worker thread answers one
/// request at a time; a stage that throws leaves the error to an outer one.
///
/// As hummingbird's `Middleware.handle(_:context:next:)`: each concern is
/// written once, and a group of routes (a kind of caller) is the list of
/// the stages it runs (see `Pipeline`).
protocol Stage<Context>: Sendable {
  /// What the group's stages hand each other and its handlers.
  associatedtype Context

  func respond(to request: Request, context: Context, next: Next<Context>) throws -> Response
}

/// The rest of a pipeline, as one stage sees it.
typealias Next<Context> = (Request, Context) throws -> Response
