import FastCGI

/// The page for a shared route's failure. Anything "not found" about the
/// link or its list is the unknown address's page, exactly; an item not
/// found, a refused form or a read-only link's change get a page in the
/// shared layout that leads back to the shared list, never to the owner's
/// screens.
struct SharedErrorPages: Sendable {
  let errors: ErrorPages

  /// The page in `language` (the browser's), saying `Vary: Accept-Language`.
  func response(for error: any Error, route: Route?, token: String, language: Language)
    -> Response
  {
    var response = page(for: error, route: route, token: token, language: language)
    response.headerFields.append(LanguageChoice.vary)
    return response
  }

  private func page(for error: any Error, route: Route?, token: String, language: Language)
    -> Response
  {
    var page: WebError
    if error as? SharedRefusal == .readOnly {
      page = SharedRefusal.readOnlyPage
    } else if let route {
      page = errors.page(for: error, route: route)
    } else {
      return errors.renderer.errorResponse(.pageNotFound, language: language)
    }
    // The pages' words speak to the owner ("your checklists"); the
    // holder of a link hears of the list instead.
    switch page.status {
    case .notFound where page.title != WebError.itemNotFound.title:
      return errors.renderer.errorResponse(.pageNotFound, language: language)
    case .internalServerError:
      page = .internalError
    case .serviceUnavailable:
      page.message = translatable(
        "This list is busy with other changes sent at the same time. Nothing was changed by this one; try again in a moment."
      )
    default:
      break
    }
    page.backHref = SharedPages.path(token)
    page.backLabel = translatable("Back to the list")
    return errors.renderer.errorResponse(page, layout: SharedPages.layout, language: language)
  }
}

/// Why a shared route refused a request on its own account.
enum SharedRefusal: Error {
  /// A change sent with a read-only link.
  case readOnly

  static let readOnlyPage = WebError(
    status: .forbidden, title: translatable("Read-only link"),
    message: translatable("This link shows the list; it cannot change it. Nothing was changed."))
}
