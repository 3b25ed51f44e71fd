import ChecklistsModel
import ChecklistsWeb
import Documents
import FastCGI
import FileSystem
import Foundation
import HTTPTypes
import Logging
import Storage
import Support
import Testing
import WebTestSupport

/// Issue 11's cheap exhaustion, through `Application.respond(to:)`: what one
/// visitor may hold (threads, bytes) and the answer when they reach it.
private func storedOrEmpty(_ stored: DataModel?) -> DataModel { stored ?? DataModel() }

@Suite struct VisitorLimitsTests {
  /// A toggle request as the browser would send it, for sending from
  /// several threads at once (the harness itself is not thread-safe).
  private func toggle(_ browser: ApplicationHarness, item: Int, token: String) -> Request {
    Request(
      method: .post, path: "/lists/1/items/\(item)/toggle",
      headerFields: [
        .contentType: "application/x-www-form-urlencoded", .cookie: browser.cookieHeader,
      ],
      body: Array("csrf=\(token)".utf8))
  }

  /// A new visitor, through the same application: reads a form, adds an item.
  private func strangerAddsAnItem(_ application: Application) throws -> HTTPResponse.Status {
    let form = application.respond(to: Request(method: .get, path: "/lists/new"))
    let cookie = try #require(
      form.setCookies.first { $0.hasPrefix("visitor=") }?.split(separator: ";")
        .first)
    let page = String(decoding: form.body, as: UTF8.self)
    let field = try #require(
      page.range(of: #"name="csrf" value="[0-9a-f]+""#, options: .regularExpression))
    let token = page[field].dropFirst(#"name="csrf" value=""#.count).dropLast()
    return application.respond(
      to: Request(
        method: .post, path: "/lists/1/items",
        headerFields: [.contentType: "application/x-www-form-urlencoded", .cookie: String(cookie)],
        body: Array("csrf=\(token)&text=eggs".utf8))
    ).status
  }

  @Test func theChangeBeyondFourWaitingForOneVisitorIs503AndOthersAreServed() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    let token = browser.csrf()
    let visitor = VisitorDirectory(
      dataDirectory: browser.data,
      visitorID: String(try #require(browser.cookies["visitor"]).prefix(32)))
    let application = browser.application
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchGroup()
    finished.enter()
    Thread.detachNewThread {
      defer { finished.leave() }
      try? FileLock.withLock(visitor.lockPath) {
        held.signal()
        release.wait()
      }
    }
    try #require(held.wait(timeout: .now() + 10) == .success, "the visitor's lock was never taken")
    let statuses = LockedValue<[HTTPResponse.Status]>([])
    for _ in 1..<DocumentLock.maximumThreads {
      let request = toggle(browser, item: 1, token: token)
      finished.enter()
      Thread.detachNewThread {
        defer { finished.leave() }
        let status = application.respond(to: request).status
        statuses.withLock { $0.append(status) }
      }
    }
    let deadline = Date().addingTimeInterval(10)
    while DocumentLock.threads(waitingForOrHolding: visitor.lockPath) < DocumentLock.maximumThreads
    {
      try #require(Date() < deadline, "the toggles never reached the lock")
      usleep(1_000)
    }

    let before = browser.storedFiles()
    let began = ContinuousClock.now
    let refused = application.respond(to: toggle(browser, item: 1, token: token))
    #expect(ContinuousClock.now - began < .seconds(1), "refused at once, not after a wait")
    #expect(refused.status == .serviceUnavailable)
    #expect(refused.headerFields[.retryAfter] == "1")
    #expect(browser.text(refused).contains("busy with other changes"))
    #expect(browser.text(refused).contains("Nothing was changed"))
    #expect(browser.storedFiles() == before)

    #expect(
      try strangerAddsAnItem(application) == .seeOther, "another visitor is served meanwhile")

    release.signal()
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(statuses.withLock { $0 } == [.seeOther, .seeOther, .seeOther])
    // Three toggles went through, the refused one did not: checked.
    let page = browser.text(browser.get("/lists/1"))
    #expect(page.contains(#"aria-pressed=true name=check value=0>milk"#))
  }

  @Test func aChangeThatWouldPassTheStoredSizeCapIs422AndChangesNothing() throws {
    let browser = try ApplicationHarness()
    browser.post("/lists/1/items", [("text", "milk")])
    let visitor = VisitorDirectory(
      dataDirectory: browser.data,
      visitorID: String(try #require(browser.cookies["visitor"]).prefix(32)))
    // Filled to within one batch of the cap by a store beside the application's.
    let store = ChecklistStore(
      configuration: .init(dataDirectory: browser.data, durable: false), logger: Logger(label: "t"))
    let text = String(repeating: "x", count: Limits.maximumTextLength)
    var full = false
    for _ in 0..<200 where !full {
      do {
        try store.update(visitor, initial: storedOrEmpty) { model in
          for _ in 0..<20 { try model.addItem(text: text, toList: 1) }
        }
      } catch ChecklistsError.storageFull { full = true }
    }
    #expect(full, "the store never refused")
    let token = browser.csrf()
    var refused = browser.post("/lists/1/items", [("text", text)], token: token)
    for _ in 0..<20 where refused.status == .seeOther {
      refused = browser.post("/lists/1/items", [("text", text)], token: token)
    }
    let before = browser.storedFiles()
    refused = browser.post("/lists/1/items", [("text", text)], token: token)
    #expect(refused.status == .unprocessableContent)
    #expect(browser.text(refused).contains("Your checklists are full"))
    #expect(browser.text(refused).contains("Nothing was changed"))
    #expect(browser.storedFiles() == before)
    let newList = browser.post("/lists", [("name", text)], token: token)
    #expect(newList.status == .unprocessableContent)
    #expect(browser.storedFiles() == before)
  }
}
