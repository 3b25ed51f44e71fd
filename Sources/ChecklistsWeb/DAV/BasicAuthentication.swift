import FastCGI
import Foundation
import HTTPTypes
import Storage

/// The DAV group's sign-in (RFC 7617): `Authorization: Basic` with an app's
/// user name and password, looked up by the password's digest and checked
/// against the owner's devices file (`DeviceStore.app`).
///
/// - Over plain HTTP only from loopback (tests, or nginx on the same host
///   answering a local client): a password sent in the clear elsewhere is
///   refused (`403`) before it is looked at.
/// - No or wrong credentials: `401` with the challenge, so a client asks
///   its user; a wrong password counts against the client's address
///   (`AttemptLimiter`: ten a minute, then `429` with `Retry-After`, before
///   any look-up). A missing header is not counted: a client sends its first
///   request without one.
struct BasicAuthentication: Stage {
  /// Wrong passwords one client address may send in `attemptWindow` seconds.
  static let attemptLimit = 10
  static let attemptWindow: TimeInterval = 60
  /// The challenge of a `401`.
  static let challenge = "Basic realm=\"Checklists\", charset=\"UTF-8\""
  /// The longest `Authorization` value read (a user name and a password
  /// are a few dozen bytes).
  static let maximumHeaderBytes = 1_024

  func respond(to request: Request, context: DAVContext, next: Next<DAVContext>) throws
    -> Response
  {
    guard context.signsIn else { return try next(request, context) }
    guard request.isHTTPS || Self.isLoopback(request.remoteAddress) else {
      return DAVResponse.plain(
        .forbidden, context.catalogue.text(translatable("CalDAV is served over HTTPS only")))
    }
    let attempts = context.services.attempts
    let address = request.remoteAddress
    if let wait = attempts.retryAfter(address, now: context.now) {
      var response = DAVResponse.plain(
        .tooManyRequests,
        context.catalogue.text(translatable("too many wrong passwords: try again later")))
      response.headerFields[.retryAfter] = String(wait)
      return response
    }
    guard let credentials = request.headerFields[.authorization].flatMap(Self.credentials) else {
      return Self.unauthorized(context.catalogue)
    }
    let found: (VisitorDirectory, Devices.App)?
    do {
      found = try StoreError.reporting {
        try context.services.devices.app(
          userName: credentials.userName, password: credentials.password)
      }
    } catch is DeviceStore.Unreadable {
      return DAVResponse.plain(
        .serviceUnavailable,
        context.catalogue.text(translatable("this account cannot be read now")))
    } catch is StoreError {
      var response = DAVResponse.plain(
        .serviceUnavailable,
        context.catalogue.text(
          translatable("the account could not be checked now: {{reason}}"),
          [("reason", context.catalogue.text(WebError.storeUnavailable.message))]))
      response.headerFields[.retryAfter] = "2"
      return response
    }
    guard let (owner, app) = found else {
      attempts.recordFailure(address, now: context.now)
      return Self.unauthorized(context.catalogue)
    }
    var context = context
    context.account = DAVAccount(owner: owner, app: app)
    return try next(request, context)
  }

  static func unauthorized(_ catalogue: Catalogue) -> Response {
    var response = DAVResponse.plain(
      .unauthorized,
      catalogue.text(
        translatable("sign in with the user name and app password from Settings, Devices")))
    response.headerFields[.wwwAuthenticate] = challenge
    return response
  }

  /// The user name and password of a `Basic` credential, or nil when the
  /// value is not one (another scheme, not base64, not UTF-8, no colon).
  static func credentials(_ value: String) -> (userName: String, password: String)? {
    guard value.utf8.count <= maximumHeaderBytes else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "basic",
      let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
      let text = String(bytes: data, encoding: .utf8),
      let colon = text.firstIndex(of: ":")
    else { return nil }
    return (String(text[..<colon]), String(text[text.index(after: colon)...]))
  }

  /// An address of this host: `127.0.0.0/8` or `::1`.
  static func isLoopback(_ address: String) -> Bool {
    address == "::1" || address.hasPrefix("127.") || address.hasPrefix("::ffff:127.")
  }
}
