import FastCGI
import HTTPTypes

/// Adds header fields to every answer of a group, whatever its status,
/// unless the handler set a field of the same name (`SecurityHeaders`):
/// a header rule in one place.
struct HeaderStage<Context>: Stage {
  let fields: [HTTPField]

  func respond(to request: Request, context: Context, next: Next<Context>) throws -> Response {
    SecurityHeaders.applying(fields, to: try next(request, context))
  }
}
