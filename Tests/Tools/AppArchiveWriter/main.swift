import AppArchiveFixture
import Foundation

// Writes a Checklists.plist of the iOS app to standard output, from a JSON description
// on standard input (`AppArchiveFixture.Description`), e.g.
//   {"form": "keyed-archive", "format": "binary", "classPrefix": "Checklists",
//    "lists": [{"name": "Groceries", "icon": "Groceries", "items": [
//      {"text": "Milk", "checked": true, "dueDate": 1777626000, "shouldRemind": true,
//       "itemID": 1}]}]}
// The keyed archive is written by Foundation's NSKeyedArchiver, the Codable form by its
// PropertyListEncoder: what the end-to-end tests upload as files written on Linux.
let input = FileHandle.standardInput.readDataToEndOfFile()
do {
  let description = try JSONDecoder().decode(AppArchiveFixture.Description.self, from: input)
  FileHandle.standardOutput.write(Data(try AppArchiveFixture.bytes(description)))
} catch {
  FileHandle.standardError.write(Data("app-archive-writer: \(error)\n".utf8))
  exit(1)
}
