import Preferences
import Storage
import Testing

/// One directory per visitor, named after the hash of their id, holds each
/// owner's file and lock file: what `check` and `prune` walk.
@Suite struct VisitorLayoutTests {
  @Test func theVisitorsDirectoryHoldsTheChecklistsAndThePreferences() {
    let visitor = VisitorDirectory(dataDirectory: "/data", visitorID: "abc")
    // SHA-256("abc")
    let key = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    #expect(visitor.checklistsPath == "/data/users/ba/\(key)/Checklists.plist")
    #expect(
      PreferencesFile.path(inDirectory: visitor.path) == "/data/users/ba/\(key)/Preferences.plist")
    #expect(
      PreferencesFile.lockPath(inDirectory: visitor.path)
        == "/data/users/ba/\(key)/.Preferences.lock")
  }
}
