import FastCGI

/// Stages in order, then the handler: what one group of routes runs for
/// each of its requests.
///
/// The stages are called through non-escaping closures, so running them
/// allocates nothing: a stage costs a call.
struct Pipeline<Context>: Sendable {
  let stages: [any Stage<Context>]

  init(_ stages: [any Stage<Context>]) {
    self.stages = stages
  }

  /// Runs `request` through every stage, then `handler`.
  func respond(to request: Request, context: Context, handler: Next<Context>) throws -> Response {
    try respond(from: 0, request, context, handler)
  }

  private func respond(
    from index: Int, _ request: Request, _ context: Context, _ handler: Next<Context>
  ) throws -> Response {
    guard index < stages.count else { return try handler(request, context) }
    return try stages[index].respond(to: request, context: context) { request, context in
      try respond(from: index + 1, request, context, handler)
    }
  }
}
