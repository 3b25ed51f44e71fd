import FastCGI
import HTMLTemplates

/// What `serve` answers before the application could start because its
/// documents cannot be reached (a database down or still starting): it
/// listens anyway, so that a host and its database may start in any
/// order. `/health` is not ready, and every other request gets the `503`
/// page of an unreachable store, with `Retry-After`, until the database
/// answers and the application takes over.
package struct StartingAnswer: Sendable {
  let page: Response

  /// The templates and assets are read now, as the application would:
  /// a broken template still stops the start.
  package init(templatesDirectory: String, publicDirectory: String) throws {
    let renderer = try PageRenderer(
      templatesDirectory: templatesDirectory, publicDirectory: publicDirectory)
    page = SecurityHeaders.applying(to: renderer.errorResponse(.storeUnavailable))
  }

  package func respond(to request: Request) -> Response {
    if request.path == HealthPage.path {
      return HealthPage.respond(to: request, ready: { false })
    }
    return page
  }
}
