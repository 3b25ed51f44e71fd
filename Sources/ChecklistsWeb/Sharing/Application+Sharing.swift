import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Storage

extension Application {
  /// A shared list's screen or change (`/s/{secret}…`): the token in the
  /// path is its only key. No visitor cookie is read or set and no session
  /// is made, so anyone holding the link is served alike, with or without
  /// a cookie of their own. A token that opens nothing (malformed, unknown,
  /// revoked, or of a list that is deleted) gets the very answer of an
  /// unknown address. A failure is logged by the route's pattern, never by
  /// the path that carries the token.
  ///
  /// The page itself (`revisited`) is kept whole in `sharedPages`, keyed
  /// by the token's digest and valid while the owner's directory keeps the
  /// identity it had before the page was computed: every file the page
  /// comes from (`Checklists.plist`, `Shares.plist`, `Preferences.plist`
  /// for the time zone) is only ever replaced by a rename in it. So a
  /// revalidation of an unchanged page (what an open page's polling
  /// sends every few seconds) costs a digest, a look-up and one `stat`.
  func shared(_ match: RouteTable.Match, _ request: Request, now: Date) -> Response {
    guard let token = match.parameters.secret, ShareToken.isWellFormed(token.utf8) else {
      return renderer.errorResponse(.pageNotFound)
    }
    let digest = SecretDigest.of(token)
    let key = match.route.isRevisited ? ResponseMemo.Key(sharedPage: digest, request) : nil
    if let key, let kept = sharedPages.entry(for: key, now: Int64(now.timeIntervalSince1970)),
      kept.answers(request)
    {
      return kept.etag.isNotModified(request) ? .notModified(kept.etag) : kept.response
    }
    do {
      guard let owner = try shares.owner(ofDigest: digest) else { throw WebError.pageNotFound }
      // Taken before anything of the owner's is read (see `ResponseMemo`).
      let version = key == nil ? nil : sharedPages.version(of: owner.path, now: now)
      guard let access = try shares.access(digest: digest, owner: owner) else {
        throw WebError.pageNotFound
      }
      let lifetime = PageLifetime()
      switch match.route.handler {
      case .sharedScreen(let show):
        var unconditional = request
        if key != nil { unconditional.head.headerFields[.ifNoneMatch] = nil }
        let response = try show(
          SharedScreenContext(
            request: unconditional, access: access, token: token, parameters: match.parameters,
            application: self, input: try sharedList(access), now: now, lifetime: lifetime))
        guard let key else { return response }
        if let version {
          sharedPages.keep(response, version: version, until: lifetime.bound(.max), for: key)
        }
        guard response.status == .ok, let tag = response.headerFields.value(of: .eTag) else {
          return response
        }
        let etag = ETag(keptValue: tag)
        return etag.isNotModified(request) ? .notModified(etag) : response
      case .sharedChange(let change):
        guard access.kind.allowsChanges else { throw SharedRefusal.readOnly }
        let form = try decodedForm(request)
        let verdict = csrf.verdict(for: request, share: digest, form: form)
        guard verdict.isAllowed else {
          logger.notice("refused \(match.route): \(verdict)")
          throw WebError.forbidden
        }
        return try change(
          SharedChangeContext(
            request: request, access: access, token: token, parameters: match.parameters,
            application: self, input: form, now: now, lifetime: lifetime))
      default:
        throw WebError.pageNotFound
      }
    } catch {
      return sharedErrorResponse(error, route: match.route, token: token)
    }
  }

  /// The owner's list as the link shows it; `404` (the unknown address's)
  /// when nothing is stored or the list is gone (deleted: the link works
  /// again if it is restored from Recently Deleted).
  func sharedList(_ access: ShareLinks.Access) throws -> SharedList {
    guard let model = try store.load(access.owner), let list = model.checklist(id: access.listID),
      let addNonce = model.addFormState(ofList: access.listID)
    else { throw WebError.pageNotFound }
    let owner = defaults.visitor(directory: access.owner.path)
    return SharedList(
      list: list, addNonce: addNonce, zoneName: VisitorTimeZone.currentIdentifier(owner))
  }

  /// `403` for a `POST` under `/s/` that no route takes when its token is a
  /// read-only link's (every change by a read-only link is refused alike);
  /// nil otherwise, for the table's own `404` or `405`.
  func sharedRefusal(_ request: Request) -> Response? {
    guard request.method == .post, SharedPages.isShared(request.path) else { return nil }
    let token = request.path.dropFirst(SharedPages.prefix.count).prefix { $0 != "/" }
    guard let access = try? shares.access(presenting: String(token)), !access.kind.allowsChanges
    else { return nil }
    return sharedErrorResponse(SharedRefusal.readOnly, route: nil, token: String(token))
  }

  /// The page for a shared route's failure. Anything "not found" about the
  /// link or its list is the unknown address's page, exactly; an item not
  /// found, a refused form or a read-only link's change get a page in the
  /// shared layout that leads back to the shared list, never to the
  /// owner's screens.
  func sharedErrorResponse(_ error: any Error, route: Route?, token: String) -> Response {
    var page: WebError
    if error as? SharedRefusal == .readOnly {
      page = SharedRefusal.readOnlyPage
    } else if let route {
      page = webError(for: error, route: route)
    } else {
      return renderer.errorResponse(.pageNotFound)
    }
    // The pages' words speak to the owner ("your checklists"); the
    // holder of a link hears of the list instead.
    switch page.status {
    case .notFound where page.title != WebError.itemNotFound.title:
      return renderer.errorResponse(.pageNotFound)
    case .internalServerError:
      page = .internalError
    case .serviceUnavailable:
      page.message =
        "This list is busy with other changes sent at the same time. Nothing was changed by this one; try again in a moment."
    default:
      break
    }
    page.backHref = SharedPages.path(token)
    page.backLabel = "Back to the list"
    return renderer.errorResponse(page, layout: SharedPages.layout)
  }
}

/// Why a shared route refused a request on its own account.
enum SharedRefusal: Error {
  /// A change sent with a read-only link.
  case readOnly

  static let readOnlyPage = WebError(
    status: .forbidden, title: "Read-only link",
    message: "This link shows the list; it cannot change it. Nothing was changed.")
}
