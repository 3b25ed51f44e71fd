import FastCGI
import FileSystem
import Foundation
import HTMLTemplates
import HTTPTypes
import QRCode
import Storage

/// Devices (`GET /settings/devices`): the browsers that use the owner's
/// lists, each with Sign Out, and a one-time link code for another one.
///
/// The code is answered in the page of the `POST` that made it, never in
/// an address and never again: only its digest is stored, so a reload
/// (which asks to send the form again) makes a new code that replaces it.
enum DevicesScreen {
  static let template = "devices"
  static let title = "Devices"

  /// `GET /settings/devices`.
  static func show(_ context: ScreenContext) throws -> Response {
    let notice = notice(query: context.request.query)
    return try context.page(
      template, title: title, try pageContext(context, code: nil, notice: notice))
  }

  /// `POST /settings/devices/code`: a new link code, shown once.
  static func createCode(_ context: ChangeContext) throws -> Response {
    let made = try deviceFiles {
      try context.application.devices.createCode(
        for: context.session.directory, token: context.session.id.hex,
        name: BrowserName.of(context.request), now: context.now)
    }
    let values = try pageContext(context, code: made, notice: nil)
    var response = try context.application.renderer.response(
      template, title: title, context: values, status: .ok)
    // The code is on this page only: not for the back/forward cache or any other.
    response.headerFields[.cacheControl] = "no-store"
    return response
  }

  /// `POST /settings/devices/{browser}/sign-out`: that browser is a new
  /// visitor at its next request. This browser may sign itself out too.
  static func signOut(_ context: ChangeContext) throws -> Response {
    let id = try context.id(.browser)
    let done = try deviceFiles {
      try context.application.devices.signOut(browser: id, of: context.session.directory)
    }
    guard done else { return .redirect(to: "/settings/devices?already-signed-out") }
    if id == context.session.browserID { return .redirect(to: "/lists") }
    return .redirect(to: "/settings/devices?signed-out")
  }

  /// `POST /settings/devices/sign-out-others`: every browser but this one.
  static func signOutOthers(_ context: ChangeContext) throws -> Response {
    _ = try deviceFiles {
      try context.application.devices.signOutOthers(
        of: context.session.directory, keeping: context.session.id.hex)
    }
    return .redirect(to: "/settings/devices?signed-out-others")
  }

  /// The sentence after a change, by the redirect's query.
  static func notice(query: String) -> String? {
    switch query {
    case "signed-out": "Signed out. That browser no longer sees these lists."
    case "signed-out-others": "Every other browser is signed out. Only this one sees these lists."
    case "already-signed-out": "That browser was signed out already. Nothing was changed."
    case "linked": "This browser now uses these lists."
    default: nil
    }
  }

  /// The page's values: the browsers, and the code just made if any.
  static func pageContext<Input>(
    _ context: RequestContext<Input>, code: (code: LinkCode, expires: Date)?, notice: String?
  ) throws -> TemplateValue {
    let devices = try context.application.devices.devices(of: context.session.directory)
    let label = DueDateLabel(zone: VisitorTimeZone.current(context.preferences), now: context.now)
    var rows: [TemplateValue] = []
    if let devices {
      let current = context.session.browserID
      // This browser first, then the most recently seen.
      let sorted = devices.browsers.sorted {
        ($0.id == current ? 0 : 1, -$0.lastSeen.timeIntervalSince1970)
          < ($1.id == current ? 0 : 1, -$1.lastSeen.timeIntervalSince1970)
      }
      for browser in sorted {
        rows.append(
          row(
            id: browser.id, name: browser.name, isCurrent: browser.id == current,
            firstSeen: browser.firstSeen, lastSeen: browser.lastSeen, label: label))
      }
    } else {
      rows.append(
        row(
          id: nil, name: BrowserName.of(context.request), isCurrent: true, firstSeen: nil,
          lastSeen: context.now, label: label))
    }
    var values: [String: TemplateValue] = [
      "browsers": .list(rows),
      "hasOthers": .bool(rows.count > 1),
      "csrf": .string(context.csrfToken),
      "codeMinutes": .int(Int(Devices.codeLifetime / 60)),
    ]
    if let notice { values["notice"] = .string(notice) }
    if let code {
      values["code"] = codeContext(code.code, expires: code.expires, context, label: label)
    }
    return .object(TemplateObject(values))
  }

  /// A browser's row.
  static func row(
    id: Int?, name: String, isCurrent: Bool, firstSeen: Date?, lastSeen: Date,
    label: DueDateLabel
  ) -> TemplateValue {
    var values: [String: TemplateValue] = [
      "name": .string(name),
      "isCurrent": .bool(isCurrent),
      "lastSeen": .string(label.text(lastSeen)),
      "lastSeenISO": .string(DueDateLabel.machineReadable(lastSeen)),
    ]
    if let id { values["id"] = .int(id) }
    if let firstSeen {
      values["firstSeen"] = .string(label.text(firstSeen))
      values["firstSeenISO"] = .string(DueDateLabel.machineReadable(firstSeen))
    }
    return .object(TemplateObject(values))
  }

  /// The code as text, as a link and as a QR code of the link.
  static func codeContext<Input>(
    _ code: LinkCode, expires: Date, _ context: RequestContext<Input>, label: DueDateLabel
  ) -> TemplateValue {
    let path = "/link/\(code.inLink)"
    let origin = PublicOrigin.of(
      context.request, configured: context.application.configuration.publicOrigin)
    let link = origin.map { "\($0)\(path)" } ?? path
    let enterAddress = origin.map { "\($0)/link" } ?? "/link"
    var values: [String: TemplateValue] = [
      "text": .string(code.grouped),
      "link": .string(link),
      "enterAddress": .string(enterAddress),
      "expires": .string(label.text(expires)),
      "expiresISO": .string(DueDateLabel.machineReadable(expires)),
    ]
    // A link of ~60 characters always fits (a QR code takes up to 2,331
    // bytes at this level); should it not, the page goes on without it.
    if let symbol = try? QRCode(text: link) {
      values["qr"] = .string(symbol.svg(label: "QR code of the link to use your lists"))
    }
    return .object(TemplateObject(values))
  }

  /// Runs a change of the devices files, its failures told as the store's
  /// (a busy lock is `503`, a failed system call `500`); a browser signed
  /// out a moment ago by another one is refused.
  static func deviceFiles<T>(_ body: () throws -> T) throws -> T {
    do {
      return try StoreError.reporting(body)
    } catch DeviceStore.Refusal.signedOut {
      throw WebError.forbidden
    }
  }
}
