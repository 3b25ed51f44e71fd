import FastCGI
import Foundation
import HTMLTemplates
import HTTPTypes
import Storage

/// Devices' calendar apps: "Connect a Calendar App" makes an app password
/// for a CalDAV client, shown once with the server's address and the user
/// name, and each app listed is ended with one press.
///
/// The password reaches the owner's lists through `/dav/` only (the DAV
/// group's `BasicAuthentication`): every screen here takes a browser's
/// cookie and nothing else, so an app's holder cannot reach Settings,
/// Devices, share links or the export, nor make or end a credential.
extension DevicesScreen {
  /// App passwords an owner may make or end in `appChangeWindow`: a
  /// person connects a few apps; a hostile holder of a browser's session
  /// could otherwise rewrite the devices file and the app index without
  /// end. (A link code needs no budget: one is pending at a time, so making
  /// one replaces the last.) Counted per owner, in memory, as the attempt
  /// limits are.
  static let appChangeLimit = 20
  static let appChangeWindow: TimeInterval = 3_600

  /// `429` when the owner has made or ended `appChangeLimit` app passwords
  /// in the last `appChangeWindow`; else counts this one.
  static func spendAppChange(_ context: ChangeContext) throws {
    let owner = context.session.directory.key
    if let wait = context.services.appChanges.retryAfter(owner, now: context.now) {
      throw WebError.tooManyAppChanges(retryAfter: wait)
    }
    context.services.appChanges.recordFailure(owner, now: context.now)
  }

  /// `POST /settings/devices/apps`: a new app password, on this answer only.
  static func createApp(_ context: ChangeContext) throws -> Response {
    try spendAppChange(context)
    let made: (password: AppPassword, app: Devices.App)
    do {
      made = try deviceFiles(context) {
        try context.services.devices.createApp(
          for: context.session.directory, token: context.session.id.hex,
          name: BrowserName.of(context.request), now: context.now)
      }
    } catch DeviceStore.AppRefusal.tooManyApps {
      throw WebError.unprocessable(
        translatable(
          "You have connected {{count}} calendar apps already. Disconnect one you no longer use first."
        ), [("count", String(Devices.maximumApps))],
        backHref: "/settings/devices#apps", backLabel: DevicesScreen.title)
    }
    let values = try pageContext(
      context, code: nil, notice: nil, newApp: appContext(made.password, made.app, context))
    var response = try context.services.renderer.response(
      template, title: context.catalogue.text(title), context: values, status: .ok,
      language: context.language)
    // The password is on this page only: not for the back/forward cache or any other.
    response.headerFields[.cacheControl] = "no-store"
    return response
  }

  /// `POST /settings/devices/apps/{app}/end`: that app's password stops
  /// working at once.
  static func endApp(_ context: ChangeContext) throws -> Response {
    let id = try context.id(.app)
    try spendAppChange(context)
    let ended = try deviceFiles(context) {
      try context.services.devices.endApp(
        id: id, of: context.session.directory, askedBy: context.session.id.hex)
    }
    return .redirect(to: ended ? "/settings/devices?app-ended#apps" : "/settings/devices#apps")
  }

  /// The values of the app just connected: what to type into it.
  static func appContext<Input>(
    _ password: AppPassword, _ app: Devices.App, _ context: RequestContext<Input>
  ) -> TemplateValue {
    let origin = PublicOrigin.of(
      context.request, configured: context.services.configuration.publicOrigin)
    return .object(
      TemplateObject([
        "password": .string(password.grouped),
        "userName": .string(app.userName),
        "server": .string("\(origin.map { "\($0)" } ?? "")/dav/"),
      ]))
  }

  /// The apps' rows: each with its number, user name and when it was made.
  static func appRows(_ devices: Devices?, label: DueDateLabel) -> [TemplateValue] {
    (devices?.apps ?? []).map { app in
      .object(
        TemplateObject([
          "id": .int(app.id),
          "userName": .string(app.userName),
          "made": .string(label.text(app.made)),
          "madeISO": .string(DueDateLabel.machineReadable(app.made)),
        ]))
    }
  }
}
