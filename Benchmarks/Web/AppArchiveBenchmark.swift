import AppArchiveFixture
import Interchange

/// The import of the iOS app's `Checklists.plist` with 5,000 items (goal ≤ 100 ms): the
/// keyed archive as Foundation's `NSKeyedArchiver` writes it on Linux (it repeats every
/// key, so the binary form is 1.3 MB and the XML 3.4 MB, beyond an upload's 1 MB) and
/// the Codable plist as `PropertyListEncoder` writes it, each binary and XML.
@MainActor
func benchmarkAppArchiveImport() throws {
  let items = (1...5_000).map { (number: Int) -> AppArchiveFixture.Item in
    let dueDate: Double? = number % 2 == 0 ? 1_800_000_000 + Double(number) * 60 : nil
    return AppArchiveFixture.Item(
      text: "Pack item number \(number)", checked: number % 3 == 0, dueDate: dueDate,
      shouldRemind: number % 4 == 0, itemID: number)
  }
  let lists = [AppArchiveFixture.List(name: "Trip", icon: "Trips", items: items)]
  for form in AppArchiveFixture.Form.allCases {
    for format in AppArchiveFixture.Format.allCases {
      let bytes = try AppArchiveFixture.bytes(
        .init(form: form, format: format, classPrefix: "Checklists", lists: lists))
      var count = 0
      let time = measure(4) {
        count = (try? AppArchiveImport.lists(from: bytes))?.first?.items.count ?? -1
      }
      precondition(count == 5_000, "the \(form) \(format) import read \(count) items")
      report(
        "AppArchiveImport.lists, 5,000 items, \(form.rawValue) \(format) (\(bytes.count / 1_000) KB)",
        time, goal: 100_000_000)
    }
  }
}
