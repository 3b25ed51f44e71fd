import FastCGI
import Foundation
import HTMLTemplates
import HTTPTypes
import Storage

/// Linking this browser to another device's lists: `GET /link` (type the
/// code), `GET /link/{code}` (the link: a page that asks first) and
/// `POST /link` (the code is spent).
///
/// Only a `POST` spends a code, so a mail or chat scanner that opens the
/// link spends nothing; and the page of the link tells nothing about the
/// code (it looks the same for any), so it is no way to test guesses. The
/// `POST` is limited per client address (`AttemptLimiter`).
///
/// A code redeemed replaces this browser's token, so the page names the
/// lists it would put aside first (a code sent by someone else must not
/// take them silently), and the old token is kept for Switch Back
/// (`PreviousBrowser`).
enum LinkScreen {
  static let template = "link"
  static let title = translatable("Use Lists from Another Device")
  /// Wrong codes one client address may send in `attemptWindow` seconds;
  /// the next one is `429`.
  static let attemptLimit = 10
  static let attemptWindow: TimeInterval = 60

  /// The link page's own headers: its address holds the code, so no
  /// `Referer` may carry more than the origin (`origin`, not `no-referrer`:
  /// with that, browsers send its form with `Origin: null`, which the
  /// origin check refuses), and it is nobody's to index or keep.
  static let privateFields: [(HTTPField.Name, String)] = [
    (.referrerPolicy, "origin"), (.xRobotsTag, "noindex, nofollow"), (.cacheControl, "no-store"),
  ]

  /// `GET /link`: a form to type the code the other device shows.
  static func enter(_ context: ScreenContext) throws -> Response {
    try respond(context, try values(context, code: "", fromLink: false, error: nil), status: .ok)
  }

  /// `GET /link/{code}`: the link's page, the code filled in, one button
  /// to use it.
  static func confirm(_ context: ScreenContext) throws -> Response {
    let code = context.parameters.secret.flatMap { LinkCode(typed: $0) }?.grouped ?? ""
    return try respond(
      context, try values(context, code: code, fromLink: true, error: nil), status: .ok)
  }

  /// `POST /link` with `code`: this browser becomes one of the code's
  /// owner's, under a new token (its cookie is replaced), and lands on the
  /// owner's lists.
  static func redeem(_ context: ChangeContext) throws -> Response {
    let address = context.request.remoteAddress
    let attempts = context.services.linkAttempts
    if let wait = attempts.retryAfter(address, now: context.now) {
      throw WebError.tooManyAttempts(retryAfter: wait)
    }
    let typed = context.form["code"] ?? ""
    guard let code = LinkCode(typed: typed) else {
      attempts.recordFailure(address, now: context.now)
      return try refused(
        context, typed: typed,
        context.catalogue.text(
          translatable(
            "This is not a link code: it has {{count}} letters and digits, such as K7Q2-M9XD-…."),
          [("count", String(LinkCode.length))]))
    }
    let token = VisitorID()
    let keeps = try ownLists(context).isEmpty ? nil : context.session.id
    do {
      _ = try DevicesScreen.deviceFiles(context) {
        try context.services.devices.redeem(
          code, newToken: token.hex, name: BrowserName.of(context.request), now: context.now)
      }
    } catch DeviceStore.Refusal.invalidCode {
      attempts.recordFailure(address, now: context.now)
      return try refused(
        context, typed: typed,
        context.catalogue.text(
          translatable(
            "This code does not work: it may be mistyped, used already, or older than {{count}} minutes. Make a new one on the other device."
          ), [("count", String(Int(Devices.codeLifetime / 60)))]))
    } catch DeviceStore.Refusal.tooManyBrowsers {
      return try refused(
        context, typed: typed,
        context.catalogue.text(
          translatable(
            "These lists are already used on {{count}} browsers. Sign one out on the Devices screen of another device first."
          ), [("count", String(Devices.maximumBrowsers))]))
    }
    let session = context.session
    var response = Response.redirect(to: "/lists")
    response.setCookie(
      .longLived(
        name: VisitorCookie.name, value: VisitorCookie(id: token, day: session.today).value,
        secure: context.request.isHTTPS))
    if let keeps {
      response.setCookie(
        PreviousBrowser(id: keeps, day: session.today).cookie(
          secure: session.isHTTPS, today: session.today))
    }
    return response
  }

  /// The form again, as typed, with why it was refused (`422`).
  private static func refused(_ context: ChangeContext, typed: String, _ message: String) throws
    -> Response
  {
    try respond(
      context, try values(context, code: typed, fromLink: false, error: message),
      status: .unprocessableContent)
  }

  private static func respond<Input>(
    _ context: RequestContext<Input>, _ values: TemplateValue, status: HTTPResponse.Status
  ) throws -> Response {
    var response = try context.services.renderer.response(
      template, title: context.catalogue.text(title), context: values, status: status,
      language: context.language)
    for (name, value) in privateFields { response.headerFields[name] = value }
    return response
  }

  private static func values<Input>(
    _ context: RequestContext<Input>, code: String, fromLink: Bool, error: String?
  ) throws -> TemplateValue {
    var values: [String: TemplateValue] = [
      "code": .string(code),
      "fromLink": .bool(fromLink),
      "csrf": .string(context.csrfToken),
      "keptDays": .int(PreviousBrowser.keptDays),
    ]
    let lists = try ownLists(context)
    if !lists.isEmpty {
      values["aside"] = .list(lists)
      values["hasAside"] = true
      let session = context.session
      // Put aside, the lists stay reachable by their links; once the way
      // back is gone, by nobody who could end those.
      let reach = try DevicesScreen.deviceFiles(context) {
        try context.services.outsideAccess.summary(of: session.directory)
      }
      if !reach.isEmpty {
        values["asideReach"] = DevicesScreen.reachContext(reach, catalogue: context.catalogue)
      }
      if let previous = PreviousBrowser(
        cookies: session.cookies, isHTTPS: session.isHTTPS, today: session.today)
      {
        let label = DueDateLabel(
          zone: VisitorTimeZone.current(context.preferences), now: context.now,
          words: context.dateWords)
        values["forgets"] = .object(
          TemplateObject([
            "until": .string(label.text(previous.until)),
            "untilISO": .string(DueDateLabel.machineReadable(previous.until)),
          ]))
      }
    }
    if let error { values["error"] = .string(error) }
    return .object(TemplateObject(values))
  }

  /// The lists this browser shows now, which a code redeemed puts aside;
  /// empty for a new browser or one with nothing stored.
  private static func ownLists<Input>(_ context: RequestContext<Input>) throws -> [TemplateValue] {
    guard !context.session.isNew else { return [] }
    return try ListNames.of(
      context.session.directory, in: context.services.store, catalogue: context.catalogue)
  }
}
