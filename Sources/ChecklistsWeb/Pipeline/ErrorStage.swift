import FastCGI

/// Turns whatever the stages after it throw into the page that says what
/// went wrong (each group words its own: see `ErrorPages`). A failed
/// change has changed nothing, so the page is all there is to answer.
struct ErrorStage<Context>: Stage {
  let page: @Sendable (any Error, Context) -> Response

  func respond(to request: Request, context: Context, next: Next<Context>) throws -> Response {
    do {
      return try next(request, context)
    } catch {
      return page(error, context)
    }
  }
}
