import Foundation

/// Calendar apps: a password made on the Devices screen, shown once, that
/// lets a CalDAV client read and change the owner's lists and nothing else
/// (the web's screens take only a browser's cookie).
///
/// An app is listed in the owner's devices file beside the browsers (the
/// digest of its password, its number, when it was made), and its
/// password's digest leads to the owner through `DATA/apps/<2>/<digest>`.
/// Making one writes the index entry, then the file; ending one writes the
/// file, then removes the entry: an entry left by a crash leads to an owner
/// who no longer lists it, so the password opens nothing.
extension DeviceStore {
  /// A new app password for the owner, asked by `token`'s browser (listed
  /// under `name` when it is the founding browser and the owner has no
  /// devices file yet, as a link code does).
  ///
  /// - Throws: `Refusal.signedOut` when the asking browser is no longer the
  ///   owner's; `AppRefusal.tooManyApps`.
  package func createApp(
    for owner: VisitorDirectory, token: String, name: String, now: Date
  ) throws -> (password: AppPassword, app: Devices.App) {
    let password = AppPassword.random()
    let app: Devices.App = try change(owner) { devices in
      _ = try Self.openSecret(&devices, owner: owner, token: token, name: name, now: now)
      guard devices.apps.count < Devices.maximumApps else { throw AppRefusal.tooManyApps }
      try appIndex.add(digest: password.digest, leadingTo: owner.key)
      let app = Devices.App(id: devices.nextAppID, digest: password.digest, made: now)
      devices.nextAppID += 1
      devices.apps.append(app)
      return app
    }
    return (password, app)
  }

  /// Why an app password was not made.
  package enum AppRefusal: Error, Sendable, Equatable {
    /// The owner already has `Devices.maximumApps` apps.
    case tooManyApps
  }

  /// The owner and app that `userName` and `password` sign in as, or nil
  /// for anything else: a malformed or unknown password, one ended, one of
  /// another app's user name. The index is looked up by the password's
  /// digest; the owner's devices file must then list it.
  ///
  /// - Throws: `Unreadable` (the owner's devices file cannot be read: no
  ///   app of theirs gets in), `StoreError`.
  package func app(userName: String, password: String) throws -> (VisitorDirectory, Devices.App)? {
    guard let password = AppPassword(typed: password) else { return nil }
    let digest = password.digest
    let found: VisitorDirectory?
    do { found = try records.owner(ofDigest: digest, in: appIndex) } catch {
      throw StoreError.io(error)
    }
    guard let owner = found, let devices = try devices(of: owner),
      let app = devices.app(digest: digest), app.userName == userName
    else { return nil }
    return (owner, app)
  }

  /// Ends the app `id`'s password, asked by `token`'s browser; false when
  /// the owner has no such app (ended already).
  ///
  /// - Throws: `Refusal.signedOut` when the asking browser is no longer the
  ///   owner's.
  @discardableResult
  package func endApp(id: Int, of owner: VisitorDirectory, askedBy token: String) throws -> Bool {
    let ended: String? = try change(owner) { devices in
      let digest = SecretDigest.of(token)
      guard devices.browser(digest: digest) != nil || !devices.hasListedAnyBrowser else {
        throw Refusal.signedOut
      }
      guard let index = devices.apps.firstIndex(where: { $0.id == id }) else { return nil }
      return devices.apps.remove(at: index).digest
    }
    guard let ended else { return false }
    try? appIndex.remove(digest: ended, ifLeadingTo: owner.key)
    return true
  }
}
