import Documents
import FileSystem
import Foundation
import TestSupport
import Testing

@testable import Storage

/// Calendar apps' passwords in the devices file and the `apps/` index:
/// made (the founding browser listed first), found by user name and
/// password, ended, bounded, and read back from the file.
@Suite struct DeviceAppsTests {
  let temporary = TemporaryDirectory("device-apps")
  let devices: DeviceStore
  let now = Date(timeIntervalSince1970: 1_750_000_000)

  init() {
    devices = DeviceStore(dataDirectory: temporary.path, durable: false)
  }

  @Test func anAppIsMadeFoundAndEndedWithoutSigningTheFoundingBrowserOut() throws {
    let token = browserToken()
    let owner = VisitorDirectory(dataDirectory: temporary.path, visitorID: token)
    let (password, app) = try devices.createApp(for: owner, token: token, name: "Firefox", now: now)
    #expect(app.userName == "app-1")
    // The founding browser is listed with the app, so it still acts for its owner.
    #expect(try devices.resolve(token: token) == .owner(owner, browserID: 1))
    let found = try #require(try devices.app(userName: "app-1", password: password.grouped))
    #expect(found.0 == owner && found.1 == app)
    #expect(try devices.app(userName: "app-1", password: password.canonical.lowercased())?.1 == app)
    #expect(try devices.app(userName: "app-2", password: password.canonical) == nil)
    #expect(try devices.app(userName: "app-1", password: "not a password") == nil)
    let onDisk = try #require(try devicesOnDisk(of: owner))
    #expect(onDisk.apps == [app] && onDisk.nextAppID == 2)
    #expect(
      !(try filesUnder(temporary.path)).values.contains {
        $0.contains(Data(password.canonical.utf8))
      })

    #expect(try devices.endApp(id: 1, of: owner, askedBy: token))
    #expect(try devices.app(userName: "app-1", password: password.canonical) == nil)
    #expect(try devices.appIndex.owner(ofDigest: password.digest) == nil)
    #expect(try devices.endApp(id: 1, of: owner, askedBy: token) == false)
  }

  @Test func anOwnerHasAtMostTwentyApps() throws {
    let token = browserToken()
    let owner = VisitorDirectory(dataDirectory: temporary.path, visitorID: token)
    for _ in 0..<Devices.maximumApps {
      _ = try devices.createApp(for: owner, token: token, name: "Firefox", now: now)
    }
    #expect(throws: DeviceStore.AppRefusal.tooManyApps) {
      try devices.createApp(for: owner, token: token, name: "Firefox", now: now)
    }
  }

  @Test func aFileWithoutAppsIsWrittenAsBeforeAndAMalformedAppIsRefused() throws {
    var file = Devices()
    file.add(digest: String(repeating: "ab", count: 32), name: "x", now: now, sealedSecret: Data())
    let withoutApps = String(decoding: try file.encoded(), as: UTF8.self)
    #expect(!withoutApps.contains("apps") && !withoutApps.contains("nextAppID"))
    file.apps = [Devices.App(id: 1, digest: String(repeating: "cd", count: 32), made: now)]
    file.nextAppID = 2
    #expect(try Devices.decode(try file.encoded()) == file)
    var repeated = file
    repeated.apps.append(repeated.apps[0])
    #expect(throws: Devices.Invalid.self) { try Devices.decode(try repeated.encoded()) }
    var beyond = file
    beyond.nextAppID = 1
    #expect(throws: Devices.Invalid.self) { try Devices.decode(try beyond.encoded()) }
  }
}

/// What `check` and `prune` make of the apps' index: an app's entry is
/// current while its owner lists it; one left by an app ended mid-way (its
/// removal cut short) leads nowhere and is swept.
@Suite struct DeviceAppsMaintenanceTests {
  let temporary = TemporaryDirectory("device-apps-maintenance")
  let now = Date(timeIntervalSince1970: 1_750_000_000)

  @Test func anEndedAppsEntryIsStaleAndSwept() throws {
    let devices = DeviceStore(dataDirectory: temporary.path, durable: false)
    let token = browserToken()
    let owner = VisitorDirectory(dataDirectory: temporary.path, visitorID: token)
    let (kept, _) = try devices.createApp(for: owner, token: token, name: "Firefox", now: now)
    let (ended, _) = try devices.createApp(for: owner, token: token, name: "Firefox", now: now)
    try devices.endApp(id: 2, of: owner, askedBy: token)
    // As if the removal of its entry had been cut short.
    try devices.appIndex.add(digest: ended.digest, leadingTo: owner.key)
    let states = Dictionary(
      uniqueKeysWithValues: devices.appIndex.entries().map {
        ($0.digest ?? "", devices.state(ofAppEntry: $0, now: now))
      })
    #expect(states == [kept.digest: .current, ended.digest: .stale])
    let dryRun = devices.removeStaleEntries(dryRun: true, now: now)
    #expect(dryRun.apps.map(\.digest) == [ended.digest])
    #expect(devices.appIndex.entries().count == 2)
    let swept = devices.removeStaleEntries(dryRun: false, now: now)
    #expect(swept.apps.map(\.digest) == [ended.digest] && swept.failures.isEmpty)
    #expect(devices.appIndex.entries().map(\.digest) == [kept.digest])
    // An owner removed by prune takes their apps' entries with them.
    let file = try #require(try devices.storedDevices(of: owner))
    #expect(devices.removeEntries(listedIn: file, owner: owner.key).isEmpty)
    #expect(devices.appIndex.entries().isEmpty)
  }
}
