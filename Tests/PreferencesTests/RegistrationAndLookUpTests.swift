import Foundation
import TestSupport
import Testing

@testable import Preferences

/// USERDEFAULTS.md, "Look-up and registration".
@Suite struct RegistrationAndLookUpTests {
  let temporary = TemporaryDirectory("preferences")

  @Test func registerMergesAndLaterValuesWin() {
    let defaults = makeDefaults()
    defaults.register(defaults: ["A": 1, "B": "one"])
    defaults.register(defaults: ["A": 2])
    let scope = defaults.scope(nil)
    #expect(scope.integer(forKey: "A") == 2)
    #expect(scope.string(forKey: "B") == "one")
    #expect(scope.integer(forKey: "ChecklistIndex") == -1)
    #expect(scope.bool(forKey: "FirstTime"))
  }

  @Test func registrationIsNeverWritten() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    defaults.register(defaults: ["A": 1])
    let scope = defaults.scope(directory)
    #expect(scope.integer(forKey: "A") == 1)
    #expect(!scope.hasChanges)
    #expect(try scope.commit() == [])
    #expect(!FileManager.default.fileExists(atPath: directory + "/Preferences.plist"))
    #expect(defaults.writeCount == 0)
  }

  @Test func missingKeyGivesUserDefaultsAbsentValues() {
    let scope = makeDefaults().scope(temporary.makeSubdirectory())
    #expect(scope.integer(forKey: "missing") == 0)
    #expect(!scope.bool(forKey: "missing"))
    #expect(scope.double(forKey: "missing") == 0)
    #expect(scope.float(forKey: "missing") == 0)
    #expect(scope.string(forKey: "missing") == nil)
    #expect(scope.data(forKey: "missing") == nil)
    #expect(scope.url(forKey: "missing") == nil)
    #expect(scope.object(forKey: "missing") == nil)
    #expect(scope.date(forKey: "missing") == nil)
    #expect(scope.array(forKey: "missing") == nil)
    #expect(scope.dictionary(forKey: "missing") == nil)
  }

  @Test func orderIsCookieThenPersistentThenRegistration() throws {
    let directory = temporary.makeSubdirectory()
    let defaults = makeDefaults()
    defaults.register(defaults: ["Shown": "registered"])
    let writer = defaults.scope(directory)
    writer.set("persistent", forKey: "Shown")
    writer.set(7, forKey: "ChecklistIndex")  // cookie-backed: not persistent
    _ = try writer.commit()
    #expect(try parsedFile(directory + "/Preferences.plist")["ChecklistIndex"] == nil)

    let reader = defaults.scope(directory, cookies: ["ChecklistIndex": "3"])
    #expect(reader.string(forKey: "Shown") == "persistent")
    #expect(reader.integer(forKey: "ChecklistIndex") == 3)
    #expect(defaults.scope(directory).integer(forKey: "ChecklistIndex") == -1)
    let all = reader.dictionaryRepresentation()
    #expect(all["Shown"] as? String == "persistent")
    #expect(all["ChecklistIndex"] as? Int == 3)
    #expect(all["FirstTime"] as? Bool == true)
  }

  @Test func readAfterSetInTheSameScopeSeesTheNewValue() {
    let scope = makeDefaults().scope(temporary.makeSubdirectory())
    scope.set(false, forKey: "FirstTime")
    scope.set(4, forKey: "ChecklistIndex")
    #expect(!scope.bool(forKey: "FirstTime"))
    #expect(scope.integer(forKey: "ChecklistIndex") == 4)
    scope.removeObject(forKey: "FirstTime")
    #expect(scope.bool(forKey: "FirstTime"))
  }

  @Test func visitorDefaultsServesTheModelLayersProtocol() {
    let preferences: any ChecklistPreferences = makeDefaults().scope(temporary.makeSubdirectory())
    preferences.set(2, forKey: "ChecklistIndex")
    preferences.set(false, forKey: "FirstTime")
    #expect(preferences.integer(forKey: "ChecklistIndex") == 2)
    #expect(!preferences.bool(forKey: "FirstTime"))
  }
}
