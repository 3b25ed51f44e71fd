import ChecklistsModel

/// How a language says that an item repeats ("Repeats weekly", "Repeats
/// every 2 weeks", "Repeats (custom)"): the words of a row, looked up once a
/// language for the plain rules, and through the catalogue's plural forms
/// only for a rule of "every N".
struct RepeatWords: Sendable {
  private let catalogue: Catalogue
  /// For an interval of 1, in `Recurrence.Frequency.allCases`' order.
  private let everyOne: [String]
  private let custom: String

  init(_ catalogue: Catalogue) {
    self.catalogue = catalogue
    everyOne = [
      catalogue.text(translatable("Repeats daily")),
      catalogue.text(translatable("Repeats weekly")),
      catalogue.text(translatable("Repeats monthly")),
      catalogue.text(translatable("Repeats yearly")),
    ]
    custom = catalogue.text(translatable("Repeats (custom)"))
  }

  /// The words for `recurrence`.
  func text(_ recurrence: Recurrence) -> String {
    guard let rule = recurrence.rule else { return custom }
    let index = Recurrence.Frequency.allCases.firstIndex(of: rule.frequency)!
    guard rule.interval > 1 else { return everyOne[index] }
    let phrase: CountedPhrase =
      switch rule.frequency {
      case .daily:
        translatable(one: "Repeats every {{count}} day", other: "Repeats every {{count}} days")
      case .weekly:
        translatable(one: "Repeats every {{count}} week", other: "Repeats every {{count}} weeks")
      case .monthly:
        translatable(one: "Repeats every {{count}} month", other: "Repeats every {{count}} months")
      case .yearly:
        translatable(one: "Repeats every {{count}} year", other: "Repeats every {{count}} years")
      }
    return catalogue.text(phrase, count: rule.interval)
  }
}
