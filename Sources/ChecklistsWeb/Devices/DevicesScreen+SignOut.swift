import FastCGI
import Foundation
import HTMLTemplates
import HTTPTypes
import Storage

/// Devices' sign-outs and Switch Back.
///
/// The rules (kept by `DeviceStore`, said on the page): the last browser
/// goes only once the owner confirmed, ending every share link and the
/// calendar address with it, since nobody would be left to end them; a
/// browser linked less than `Devices.newBrowserWait` ago signs out only
/// itself and browsers linked after it; signing another browser out may
/// replace, in the same step, the calendar address and the share links it
/// may have kept.
extension DevicesScreen {
  static let confirmTemplate = "devices-sign-out"
  static let confirmTitle = translatable("Sign Out the Last Browser?")

  /// `POST /settings/devices/{browser}/sign-out`: that browser is a new
  /// visitor at its next request. This browser may sign itself out too;
  /// as the last one, only with `confirm` (else the page asks).
  static func signOut(_ context: ChangeContext) throws -> Response {
    let id = try context.id(.browser)
    let owner = context.session.directory
    let devices = context.services.devices
    let token = context.session.id.hex
    let secret = try deviceFiles(context) { try devices.existingSecret(of: owner, token: token) }
    let done: Bool
    do {
      done = try deviceFiles(context) {
        try devices.signOut(browser: id, of: owner, askedBy: token, now: context.now)
      }
    } catch DeviceStore.Refusal.lastBrowser {
      guard context.form["confirm"] == "yes" else { return try confirmLast(context, id: id) }
      done = try signOutLast(context, id: id)
    }
    guard done else { return .redirect(to: "/settings/devices?already-signed-out") }
    if id == context.session.browserID { return .redirect(to: "/lists") }
    return try replacingWhatItSaw(context, secret: secret, notice: "signed-out")
  }

  /// `POST /settings/devices/sign-out-others`: every browser but this one.
  static func signOutOthers(_ context: ChangeContext) throws -> Response {
    let owner = context.session.directory
    let devices = context.services.devices
    let token = context.session.id.hex
    let secret = try deviceFiles(context) { try devices.existingSecret(of: owner, token: token) }
    _ = try deviceFiles(context) {
      try devices.signOutOthers(of: owner, keeping: token, now: context.now)
    }
    return try replacingWhatItSaw(context, secret: secret, notice: "signed-out-others")
  }

  /// `POST /settings/devices/switch-back`: this browser goes back to the
  /// token it had before it redeemed a code (see `PreviousBrowser`); the
  /// one it leaves is kept the same way, so nothing is lost either way.
  static func switchBack(_ context: ChangeContext) throws -> Response {
    let session = context.session
    guard
      let previous = PreviousBrowser(
        cookies: session.cookies, isHTTPS: session.isHTTPS, today: session.today),
      let day = previous.kept.day
    else { return .redirect(to: "/settings/devices?nothing-to-switch-back") }
    let resolution = try deviceFiles(context) {
      try context.services.devices.resolve(token: previous.id.hex)
    }
    guard case .owner = resolution else {
      var response = Response.redirect(to: "/settings/devices?switch-back-signed-out")
      response.setCookie(PreviousBrowser.deletion(secure: session.isHTTPS))
      return response
    }
    var response = Response.redirect(to: "/lists")
    response.setCookie(
      .longLived(
        name: VisitorCookie.name, value: VisitorCookie(id: previous.id, day: session.today).value,
        secure: session.isHTTPS))
    response.setCookie(
      PreviousBrowser(id: session.id, day: day).cookie(
        secure: session.isHTTPS, today: session.today))
    return response
  }

  /// Signs out the owner's last browser once they confirmed: every share
  /// link and the calendar address end first, then the browser goes,
  /// only if nothing reaches the lists any more (a link made meanwhile
  /// asks again). True when it went.
  private static func signOutLast(_ context: ChangeContext, id: Int) throws -> Bool {
    let owner = context.session.directory
    let outside = context.services.outsideAccess
    try deviceFiles(context) { try outside.endAll(of: owner) }
    return try deviceFiles(context) {
      try context.services.devices.signOut(
        browser: id, of: owner, askedBy: context.session.id.hex, now: context.now,
        lastBrowser: .confirmed { try outside.summary(of: owner).isEmpty })
    }
  }

  /// The page that asks before the last browser goes: what ends with it.
  private static func confirmLast(_ context: ChangeContext, id: Int) throws -> Response {
    let owner = context.session.directory
    let reach = try deviceFiles(context) {
      try context.services.outsideAccess.summary(of: owner)
    }
    let lists = try context.currentModel().model.lists.count
    let values: [String: TemplateValue] = [
      "id": .int(id),
      "lists": .int(lists),
      "listsWord": .string(
        context.catalogue.text(translatable(one: "list", other: "lists"), count: lists)),
      "reach": reach.isEmpty ? .bool(false) : reachContext(reach, catalogue: context.catalogue),
      "csrf": .string(context.csrfToken),
    ]
    var response = try context.services.renderer.response(
      confirmTemplate, title: context.catalogue.text(confirmTitle),
      context: .object(TemplateObject(values)), status: .ok, language: context.language)
    response.headerFields[.cacheControl] = "no-store"
    return response
  }

  /// After another browser went: replaces the calendar address and the
  /// share links when the form asked (`replace-calendar`,
  /// `replace-links`), then back to Devices with `notice`.
  private static func replacingWhatItSaw(
    _ context: ChangeContext, secret: OwnerSecret?, notice: String
  ) throws -> Response {
    let calendar = context.form["replace-calendar"] == "yes"
    let links = context.form["replace-links"] == "yes"
    guard calendar || links else { return .redirect(to: "/settings/devices?\(notice)") }
    try deviceFiles(context) {
      try context.services.outsideAccess.replace(
        calendar: calendar, shareLinks: links, of: context.session.directory, secret: secret)
    }
    return .redirect(to: "/settings/devices?\(notice)-replaced")
  }
}
