/// The sentences `app.js` says (to screen readers) or shows, from the
/// catalogue like every other: each page carries them in its language as
/// a JSON island (`<script type="application/json" id="phrases">`, made
/// once per language at start), which the script reads by key. Nothing
/// needs them without JavaScript. The service worker, which has no page,
/// reads the same island from a page it kept (its offline page and the
/// names of the changes it queues are in the language of the pages the
/// visitor saw).
///
/// `{{tags}}` are filled by the script; a counted phrase is an object of
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
    // The service worker's (sw.js), read from a kept page's island.
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

  /// The island's JSON in `catalogue`'s language, safe inside `<script>`.
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
