import ChecklistsModel
import Documents
import FastCGI
import Logging
import Preferences
import Storage

/// What a failure becomes: the page that says what went wrong, and a log
/// line for the unexpected ones (named by the route's pattern, never by a
/// path that may carry a secret).
struct ErrorPages: Sendable {
  let renderer: PageRenderer
  let logger: Logger

  /// The answer of an address no route takes (`page`: `404`, or `405`
  /// with its `Allow`), in the browser's language: no visitor is looked up
  /// for it. A calendar address that is nobody's gets this very answer, so
  /// that nothing tells it from any other unknown address.
  func unknownAddress(_ request: Request, page: WebError = .pageNotFound) -> Response {
    let language =
      AcceptLanguage.preferred(request.headerFields.value(of: .acceptLanguage)) ?? .english
    var response = renderer.errorResponse(page, language: language)
    response.headerFields.append(LanguageChoice.vary)
    return SecurityHeaders.applying(to: response)
  }

  /// The error page of `error` in the site's layout, in `language`.
  func response(for error: any Error, route: Route, language: Language = .english) -> Response {
    renderer.errorResponse(page(for: error, route: route), language: language)
  }

  /// The page for `error`, thrown by `route`'s stages or handler.
  func page(for error: any Error, route: Route) -> WebError {
    switch error {
    case let error as WebError:
      return error
    case let error as ChecklistsError:
      switch error {
      case .noSuchList: return .listNotFound
      case .noSuchItem: return .itemNotFound
      case .noSuchTemplate: return .templateNotFound
      default:
        return .unprocessable(error, backHref: "/lists", backLabel: translatable("All Lists"))
      }
    // An unreachable store logs each outage once, when it starts and ends
    // (`DatabaseReadiness`), not once a request.
    case StoreError.io(let error) where error.isUnavailable:
      return .storeUnavailable
    case let error as StoreError:
      logger.error("store: \(error.detail) (\(route))")
      if case .unreadable = error { return .unreadableData }
      if case .busy = error { return .busy }
      return .internalError
    case let error as DocumentError where error.isUnavailable:
      return .storeUnavailable
    case PreferencesError.unavailable:
      return .storeUnavailable
    default:
      logger.error("\(route): \(error)")
      return .internalError
    }
  }
}
