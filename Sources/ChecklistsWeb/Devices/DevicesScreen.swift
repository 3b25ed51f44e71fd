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
  static let title = translatable("Devices")

  /// `GET /settings/devices`.
  static func show(_ context: ScreenContext) throws -> Response {
    let notice = notice(query: context.request.query).map { context.catalogue.text($0) }
    return try context.page(
      template, title: context.catalogue.text(title),
      try pageContext(context, code: nil, notice: notice))
  }

  /// `POST /settings/devices/code`: a new link code, shown once.
  static func createCode(_ context: ChangeContext) throws -> Response {
    let made = try deviceFiles(context) {
      try context.services.devices.createCode(
        for: context.session.directory, token: context.session.id.hex,
        name: BrowserName.of(context.request), now: context.now)
    }
    let values = try pageContext(context, code: made, notice: nil)
    var response = try context.services.renderer.response(
      template, title: context.catalogue.text(title), context: values, status: .ok,
      language: context.language)
    // The code is on this page only: not for the back/forward cache or any other.
    response.headerFields[.cacheControl] = "no-store"
    return response
  }

  /// The sentence after a change, by the redirect's query.
  static func notice(query: String) -> String? {
    switch query {
    case "signed-out": translatable("Signed out. That browser no longer sees these lists.")
    case "signed-out-others":
      translatable("Every other browser is signed out. Only this one sees these lists.")
    case "signed-out-replaced", "signed-out-others-replaced":
      translatable(
        "Signed out, and what you chose is replaced: the old calendar address and share links no longer work. Subscribe to the new address (Settings) and send the new links (Edit List) to whoever should keep them."
      )
    case "already-signed-out":
      translatable("That browser was signed out already. Nothing was changed.")
    case "linked": translatable("This browser now uses these lists.")
    case "app-ended": translatable("Disconnected. That calendar app's password no longer works.")
    case "nothing-to-switch-back":
      translatable("This browser has no other lists to switch back to.")
    case "switch-back-signed-out":
      translatable(
        "The lists this browser used before were signed out on another browser, so there is nothing to switch back to."
      )
    default: nil
    }
  }

  /// The page's values: the browsers, and the code just made if any.
  static func pageContext<Input>(
    _ context: RequestContext<Input>, code: (code: LinkCode, expires: Date)?, notice: String?,
    newApp: TemplateValue? = nil
  ) throws -> TemplateValue {
    let owner = context.session.directory
    let devices = try deviceFiles(context) {
      try context.services.devices.devices(of: owner)
    }
    let label = DueDateLabel(
      zone: VisitorTimeZone.current(context.preferences), now: context.now,
      words: context.dateWords)
    let catalogue = context.catalogue
    let current = context.session.browserID
    let asking = devices?.browsers.first { $0.id == current }
    let wait = asking.flatMap { devices?.newBrowserWait(of: $0, now: context.now) }
    var rows: [TemplateValue] = []
    if let devices {
      // This browser first, then the most recently seen.
      let sorted = devices.browsers.sorted {
        ($0.id == current ? 0 : 1, -$0.lastSeen.timeIntervalSince1970)
          < ($1.id == current ? 0 : 1, -$1.lastSeen.timeIntervalSince1970)
      }
      for browser in sorted {
        rows.append(
          row(
            id: browser.id, name: BrowserName.shown(browser.name, catalogue),
            isCurrent: browser.id == current,
            firstSeen: browser.firstSeen, lastSeen: browser.lastSeen, label: label,
            waitUntil: wait.flatMap { browser.id < (current ?? 0) ? $0 : nil }))
      }
    } else {
      rows.append(
        row(
          id: nil, name: BrowserName.shown(BrowserName.of(context.request), catalogue),
          isCurrent: true, firstSeen: nil,
          lastSeen: context.now, label: label, waitUntil: nil))
    }
    let reach = try deviceFiles(context) {
      try context.services.outsideAccess.summary(of: owner)
    }
    var values: [String: TemplateValue] = [
      "browsers": .list(rows),
      "hasOthers": .bool(rows.count > 1),
      "isLast": .bool(devices?.browsers.count == 1 && asking != nil),
      "csrf": .string(context.csrfToken),
      "codeMinutes": .int(Int(Devices.codeLifetime / 60)),
      "waitHours": .int(Int(Devices.newBrowserWait / 3_600)),
    ]
    if let wait {
      values["wait"] = .object(
        TemplateObject([
          "until": .string(label.text(wait)),
          "untilISO": .string(DueDateLabel.machineReadable(wait)),
        ]))
    }
    if !reach.isEmpty { values["replace"] = reachContext(reach, catalogue: catalogue) }
    if let back = try switchBackContext(context, label: label) { values["switchBack"] = back }
    if let notice { values["notice"] = .string(notice) }
    if let code {
      values["code"] = codeContext(code.code, expires: code.expires, context, label: label)
    }
    values["apps"] = .list(appRows(devices, label: label))
    if let newApp { values["newApp"] = newApp }
    return .object(TemplateObject(values))
  }

  /// What reaches the lists from outside, for a template: `calendar`
  /// (bool), and `shareLinks` (a count) with `shareLinksWord` only when
  /// there are any (a number is true in a section, even 0).
  static func reachContext(
    _ reach: OutsideAccess.Summary, catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) -> TemplateValue {
    var values: [String: TemplateValue] = ["calendar": .bool(reach.calendarAddress)]
    if reach.shareLinks > 0 {
      values["shareLinks"] = .int(reach.shareLinks)
      values["shareLinksWord"] = .string(
        catalogue.text(
          translatable(one: "share link", other: "share links"), count: reach.shareLinks))
    }
    return .object(TemplateObject(values))
  }

  /// The Switch Back section's values: the lists of the token this
  /// browser had before it redeemed a code, while that token still acts
  /// for its owner and is kept (see `PreviousBrowser`); nil otherwise.
  static func switchBackContext<Input>(_ context: RequestContext<Input>, label: DueDateLabel)
    throws -> TemplateValue?
  {
    let session = context.session
    guard
      let previous = PreviousBrowser(
        cookies: session.cookies, isHTTPS: session.isHTTPS, today: session.today),
      case .owner(let directory, _)? = try? context.services.devices.resolve(
        token: previous.id.hex)
    else { return nil }
    return .object(
      TemplateObject([
        "lists": .list(
          try ListNames.of(directory, in: context.services.store, catalogue: context.catalogue)),
        "until": .string(label.text(previous.until)),
        "untilISO": .string(DueDateLabel.machineReadable(previous.until)),
      ]))
  }

  /// A browser's row; `waitUntil` is when this browser may sign it out,
  /// when not yet.
  static func row(
    id: Int?, name: String, isCurrent: Bool, firstSeen: Date?, lastSeen: Date,
    label: DueDateLabel, waitUntil: Date?
  ) -> TemplateValue {
    var values: [String: TemplateValue] = [
      "name": .string(name),
      "isCurrent": .bool(isCurrent),
      "lastSeen": .string(label.text(lastSeen)),
      "lastSeenISO": .string(DueDateLabel.machineReadable(lastSeen)),
    ]
    if let waitUntil {
      values["waitUntil"] = .string(label.text(waitUntil))
      values["waitUntilISO"] = .string(DueDateLabel.machineReadable(waitUntil))
    } else if let id {
      values["id"] = .int(id)
    }
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
      context.request, configured: context.services.configuration.publicOrigin)
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
      values["qr"] = .string(
        symbol.svg(
          label: context.catalogue.text(translatable("QR code of the link to use your lists"))))
    }
    return .object(TemplateObject(values))
  }

  /// Runs a change or a read of the devices files, its failures told as
  /// the store's (a busy lock is `503`, a failed system call `500`); a
  /// devices file that cannot be read is `503`, a browser signed out a
  /// moment ago by another one is refused, and so is a browser linked a
  /// moment ago that signs out an older one.
  static func deviceFiles<Input, T>(_ context: RequestContext<Input>, _ body: () throws -> T)
    throws -> T
  {
    do {
      return try StoreError.reporting(body)
    } catch is DeviceStore.Unreadable {
      throw WebError.devicesUnreadable
    } catch DeviceStore.Refusal.signedOut {
      throw WebError.forbidden
    } catch DeviceStore.Refusal.newBrowser(let until) {
      let label = DueDateLabel(
        zone: VisitorTimeZone.current(context.preferences), now: context.now,
        words: context.dateWords)
      throw WebError.newBrowser(until: label.text(until))
    }
  }
}
