import Crypto
import Foundation

/// The sentences `app.js` says (to screen readers) or shows, from the
/// catalogue like every other: a static script per language
/// (`/phrases.TAG.js`, written by `checklists generate` into `Public/`
/// and linked by each page with its version, `?v=HASH`), which sets
/// `self.checklistsLanguagePhrases` before app.js runs and which app.js
/// reads by key. A browser keeps it for a year and the service worker
/// with the shell, so a page carries only its address (it carried the
/// JSON itself before: 2.1 KB of every English page, 3.9 KB of a Russian
/// one). Nothing needs them without JavaScript. The service worker, which
/// has no page, reads the file a page it kept links to (its offline page
/// and the names of the changes it queues are in the language of the
/// pages the visitor saw).
///
/// `{{tags}}` are filled by the script; a counted one is an object of
/// its forms by CLDR category (`one`, `few`, `many`, `other`), which the
/// script picks with `Intl.PluralRules`.
enum ScriptPhrases {
  static let texts: [(key: String, english: String)] = [
    ("quoted", translatable("“{{text}}”")),
    ("added", translatable("Added {{text}}")),
    ("moved", translatable("Moved {{text}} to position {{position}} of {{count}}")),
    ("alreadyFirst", translatable("{{text}} is already first")),
    ("alreadyLast", translatable("{{text}} is already last")),
    ("sortedByDueDate", translatable("Sorted by due date")),
    ("shownInYourOrder", translatable("Shown in your order")),
    ("everyItemChecked", translatable("Every item checked")),
    ("everyItemUnchecked", translatable("Every item unchecked")),
    ("listUpdated", translatable("List updated")),
    ("listGone", translatable("This list is no longer available.")),
    (
      "liveStopped",
      translatable("This page no longer updates by itself: reload it to see the latest.")
    ),
    ("pageChanged", translatable("This page has changed: reload it to see the latest.")),
    ("theList", translatable("the list")),
    ("anItem", translatable("an item")),
    ("checkIn", translatable("Check {{item}} in {{list}}")),
    ("uncheckIn", translatable("Uncheck {{item}} in {{list}}")),
    ("addTo", translatable("Add {{item}} to {{list}}")),
    ("moveIn", translatable("Move {{item}} in {{list}}")),
    ("checkAllIn", translatable("Check all in {{list}}")),
    ("uncheckAllIn", translatable("Uncheck all in {{list}}")),
    (
      "savedOffline", translatable("Saved on this device: it will be sent when you are back online")
    ),
    (
      "notKeptOffline",
      translatable("This change could not be kept on this device. Try again when you are online.")
    ),
    ("waitingLabel", translatable("Waiting to be sent")),
    ("waiting", translatable("waiting to be sent")),
    ("dismiss", translatable("Dismiss")),
    ("refusedByServer", translatable("refused by the server ({{status}})")),
    ("addressCopied", translatable("Address copied.")),
    (
      "copyRefused",
      translatable("Copying was not allowed: it is selected, copy it with your keyboard.")
    ),
    ("offline", translatable("Offline — changes will be sent when you are back")),
    // The service worker's (sw.js), read from the file a kept page links to.
    ("offlineTitle", translatable("Offline")),
    (
      "pageNotKept",
      translatable("This page was not saved on this device. The lists you opened before are.")
    ),
    (
      "changeNotSent",
      translatable(
        "You are offline: this change was not sent. Go back, and try again when you are back online."
      )
    ),
    ("allLists", translatable("All Lists")),
    ("theSharedList", translatable("The shared list")),
    ("renameListTo", translatable("Rename the list to {{name}}")),
    ("deleteAnItem", translatable("Delete an item")),
    ("saveItem", translatable("Save {{item}}")),
  ]

  static let counted: [(key: String, phrase: CountedPhrase)] = [
    (
      "notSaved",
      translatable(
        one: "{{count}} change made offline was not saved:",
        other: "{{count}} changes made offline were not saved:")
    ),
    (
      "notSent",
      translatable(
        one:
          "{{count}} change made offline was not sent: this browser was signed out before it was back online, so it was deleted.",
        other:
          "{{count}} changes made offline were not sent: this browser was signed out before it was back online, so they were deleted."
      )
    ),
  ]

  /// The file of `language` in `Public/`.
  static func fileName(_ language: Language) -> String { "phrases.\(language.tag).js" }

  /// The file's script in `catalogue`'s language: what `checklists
  /// generate` writes, and what the version in its address is the hash of.
  static func script(_ catalogue: Catalogue) -> String {
    "self.checklistsLanguagePhrases = \(json(catalogue));\n"
  }

  /// The file's address with its version (`/phrases.ru.js?v=` and the
  /// first 12 hex digits of the script's SHA-256, as `Assets` versions
  /// the other files): computed from the catalogue, so the backend and
  /// `generate` agree without reading each other's output.
  static func path(_ catalogue: Catalogue) -> String {
    let digest = SHA256.hash(data: Data(script(catalogue).utf8))
    let version = digest.prefix(6).map { String(format: "%02x", $0) }.joined()
    return "/\(fileName(catalogue.language))?v=\(version)"
  }

  /// The phrases as JSON in `catalogue`'s language, with `<` escaped.
  static func json(_ catalogue: Catalogue) -> String {
    var members = texts.map { "\(quoted($0.key)):\(quoted(catalogue.text($0.english)))" }
    for (key, phrase) in counted {
      let forms = catalogue.forms(phrase).map {
        "\(quoted($0.category.rawValue)):\(quoted($0.text))"
      }
      members.append("\(quoted(key)):{\(forms.joined(separator: ","))}")
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// A JSON string; `<` escaped so that no text can close the script.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "<": result += "\\u003c"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
