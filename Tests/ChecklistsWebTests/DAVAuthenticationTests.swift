import FastCGI
import Foundation
import HTTPTypes
import Storage
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// App passwords: made on the Devices screen (shown once), signed in with
/// through the DAV group's `BasicAuthentication`, ended one by one or with
/// every other browser, limited per address, and good for nothing else.
@Suite struct DAVAuthenticationTests {
  struct Account {
    var server: String
    var userName: String
    var password: String
  }

  /// Connects an app on `browser`'s Devices screen and reads what it shows.
  func connect(_ browser: ApplicationHarness) throws -> Account {
    let page = browser.post("/settings/devices/apps")
    #expect(page.status == .ok)
    #expect(page.headerFields[.cacheControl] == "no-store")
    let text = browser.text(page)
    func value(_ id: String) throws -> String {
      let start = try #require(text.range(of: "id=\"\(id)\" value=\""))
      let end = try #require(text[start.upperBound...].firstIndex(of: "\""))
      return String(text[start.upperBound..<end])
    }
    return Account(
      server: try value("app-server"), userName: try value("app-user"),
      password: try value("app-password"))
  }

  /// The DAV group's sign-in in front of a handler that names the owner.
  func signIn(
    _ harness: ApplicationHarness, _ authorization: String?, address: String = "127.0.0.1",
    https: Bool = false
  ) throws -> (Response, DAVAccount?) {
    let services = harness.application.groups.dav.services
    var fields = HTTPFields()
    if let authorization { fields[.authorization] = authorization }
    let request = Request(
      method: HTTPRequest.Method("PROPFIND")!, path: "/dav/", headerFields: fields,
      isHTTPS: https, remoteAddress: address)
    let context = DAVContext(
      request: request, route: .davOptions("/dav/", DAVOptions.answer),
      parameters: RouteParameters(names: [], ids: []), services: services, now: Date(),
      signsIn: true)
    var signedIn: DAVAccount?
    let response = try Pipeline<DAVContext>([BasicAuthentication()]).respond(
      to: request, context: context
    ) { _, context in
      signedIn = context.account
      return Response(status: .ok)
    }
    return (response, signedIn)
  }

  static func basic(_ user: String, _ password: String) -> String {
    "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
  }

  @Test func anAppPasswordSignsInForItsOwnerOnly() throws {
    let laptop = try ApplicationHarness(publicOrigin: PublicOrigin("https://lists.example")!)
    laptop.post("/lists/1/items", [("text", "Milk")])
    let account = try connect(laptop)
    #expect(account.server == "https://lists.example/dav/")
    #expect(account.userName == "app-1")
    #expect(account.password.count == 39)  // 32 characters in 8 groups of four

    let (answer, signedIn) = try signIn(laptop, Self.basic(account.userName, account.password))
    #expect(answer.status == .ok)
    let owner = try #require(signedIn?.owner)
    #expect(laptop.text(laptop.get("/settings/devices")).contains("app-1"))
    // Read leniently, as a link code is: no dashes, lower case.
    let typed = account.password.replacingOccurrences(of: "-", with: "").lowercased()
    #expect(try signIn(laptop, Self.basic("app-1", typed)).1?.owner.key == owner.key)
    // Another app's user name with this password, or a password never made: no.
    #expect(try signIn(laptop, Self.basic("app-2", account.password)).0.status == .unauthorized)
    let stranger = String(repeating: "A", count: 32)
    #expect(try signIn(laptop, Self.basic("app-1", stranger)).0.status == .unauthorized)
    // Another owner's app reaches only theirs.
    let other = try laptop.anotherBrowser()
    other.get("/lists")
    let theirs = try connect(other)
    #expect(
      try signIn(laptop, Self.basic(theirs.userName, theirs.password)).1?.owner.key != owner.key)
  }

  @Test func withoutOrWithAWrongPasswordTheAnswerIsAChallengeThen429() throws {
    let harness = try ApplicationHarness()
    let account = try connect(harness)
    let (missing, _) = try signIn(harness, nil, address: "127.0.0.9")
    #expect(missing.status == .unauthorized)
    #expect(
      missing.headerFields[.wwwAuthenticate] == "Basic realm=\"Checklists\", charset=\"UTF-8\"")
    for malformed in [
      "Bearer abc", "Basic !!!", "Basic " + Data("no colon".utf8).base64EncodedString(),
    ] {
      #expect(try signIn(harness, malformed, address: "127.0.0.9").0.status == .unauthorized)
    }
    for _ in 0..<BasicAuthentication.attemptLimit {
      let (wrong, _) = try signIn(
        harness, Self.basic(account.userName, "WRONG"), address: "127.0.0.9")
      #expect(wrong.status == .unauthorized)
    }
    let (limited, account429) = try signIn(
      harness, Self.basic(account.userName, account.password), address: "127.0.0.9")
    #expect(limited.status == .tooManyRequests)
    #expect(limited.headerFields[.retryAfter].flatMap(Int.init).map { $0 > 0 } == true)
    #expect(account429 == nil)
    // Another address is not held back.
    #expect(
      try signIn(harness, Self.basic(account.userName, account.password), address: "127.0.0.10").0
        .status == .ok)
  }

  @Test func plainHTTPIsTakenFromLoopbackOnly() throws {
    let harness = try ApplicationHarness()
    let account = try connect(harness)
    let basic = Self.basic(account.userName, account.password)
    #expect(try signIn(harness, basic, address: "203.0.113.7").0.status == .forbidden)
    #expect(try signIn(harness, basic, address: "203.0.113.7", https: true).0.status == .ok)
    #expect(try signIn(harness, basic, address: "::1").0.status == .ok)
  }

  @Test func anAppEndsAloneOrWithEveryOtherBrowser() throws {
    let laptop = try ApplicationHarness()
    laptop.get("/lists")
    let first = try connect(laptop)
    let second = try connect(laptop)
    #expect(second.userName == "app-2")
    let ended = laptop.post("/settings/devices/apps/1/end")
    #expect(ended.status == .seeOther)
    #expect(
      try signIn(laptop, Self.basic(first.userName, first.password)).0.status == .unauthorized)
    #expect(try signIn(laptop, Self.basic(second.userName, second.password)).0.status == .ok)
    // Ending it again changes nothing.
    #expect(
      laptop.post("/settings/devices/apps/1/end").headerFields[.location]
        == "/settings/devices#apps")

    // Sign Out Everywhere Else ends the apps too.
    let phone = try laptop.anotherBrowser()
    phone.get("/link")
    let code = try DevicesTests().makeCode(laptop)
    phone.post("/link", [("code", code)])
    #expect(laptop.post("/settings/devices/sign-out-others").status == .seeOther)
    #expect(
      try signIn(laptop, Self.basic(second.userName, second.password)).0.status == .unauthorized)
  }

  /// App passwords made or ended count against the owner's own budget
  /// (`DevicesScreen.appChangeLimit` an hour): past it, `429` with
  /// `Retry-After`, and the devices file is not written.
  @Test func appPasswordsMadeOrEndedHaveABudget() throws {
    let laptop = try ApplicationHarness()
    laptop.get("/lists")
    let half = DevicesScreen.appChangeLimit / 2
    for _ in 0..<half { _ = try connect(laptop) }
    for id in 1...(DevicesScreen.appChangeLimit - half) {
      #expect(laptop.post("/settings/devices/apps/\(id)/end").status == .seeOther)
    }
    let before = laptop.storedFiles()
    let refused = laptop.post("/settings/devices/apps")
    #expect(refused.status == .tooManyRequests)
    #expect(Int(refused.headerFields[.retryAfter] ?? "") ?? 0 > 0)
    #expect(laptop.text(refused).contains("Nothing was changed"))
    #expect(laptop.post("/settings/devices/apps/\(half)/end").status == .tooManyRequests)
    #expect(laptop.storedFiles() == before)
  }

  /// An app's password is good for the DAV routes only: the browser
  /// screens take a cookie and nothing else.
  @Test func anAppPasswordOpensNoScreen() throws {
    let owner = try ApplicationHarness()
    owner.post("/lists/1/items", [("text", "Secret milk")])
    let account = try connect(owner)
    let holder = owner.anotherCookieJar()
    let basic = Self.basic(account.userName, account.password)
    for path in ["/lists/1", "/settings/devices", "/settings/export/checklists.json"] {
      let answer = holder.get(path, headerFields: [.authorization: basic])
      #expect(!holder.text(answer).contains("Secret milk"), "\(path)")
      #expect(!holder.text(answer).contains("app-1"), "\(path)")
    }
    // And it makes no further credential of the owner's.
    holder.post("/settings/devices/apps", headerFields: [.authorization: basic])
    #expect(!owner.text(owner.get("/settings/devices")).contains("app-2"))
  }
}
