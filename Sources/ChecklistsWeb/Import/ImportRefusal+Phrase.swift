import ChecklistsModel
import Interchange

extension ImportRefusal {
  /// The sentence for the visitor, naming the place in the file, with the
  /// model's reason: in the catalogue's words, like an importer's own
  /// (`message` is the English one).
  var phrase: ImportPhrase {
    let name = listName.count > 40 ? String(listName.prefix(40)) + "…" : listName
    let place =
      if let item {
        ImportPhrase(
          translatable("Item {{itemPosition}} of list {{listPosition}} (“{{name}}”)"),
          ["itemPosition": .number(item), "listPosition": .number(list), "name": .text(name)])
      } else {
        ImportPhrase(
          translatable("List {{listPosition}} (“{{name}}”)"),
          ["listPosition": .number(list), "name": .text(name)])
      }
    let (english, values) = reason.phrase
    let because = ImportPhrase(
      english,
      Dictionary(values.map { ($0.name, .text($0.value)) }, uniquingKeysWith: { a, _ in a }))
    return ImportPhrase(
      translatable("{{place}} cannot be imported. {{reason}}"),
      ["place": .phrase(place), "reason": .phrase(because)])
  }
}

extension Catalogue {
  /// An importer's sentence in this catalogue's language: its phrase and
  /// each phrase among its values translated, the rest put in as it is.
  func text(_ phrase: ImportPhrase) -> String {
    phrase.text { text($0) }
  }
}
