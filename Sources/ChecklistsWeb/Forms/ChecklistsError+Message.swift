import ChecklistsModel

extension ChecklistsError {
  /// The sentence for the visitor in their language (`message` is the
  /// English one, which logs and the model's tests read). The numbers are
  /// the limits; a list's name is the visitor's own, never translated.
  func message(in catalogue: Catalogue) -> String {
    let (phrase, values) = self.phrase
    return catalogue.text(phrase, values)
  }

  /// The catalogue's phrase and the values of its `{{tags}}`.
  var phrase: (english: String, values: [(name: String, value: String)]) {
    switch self {
    case .emptyText: (translatable("Please type some text."), [])
    case .textTooLong(let limit):
      (
        translatable("That text is too long: at most {{limit}} characters, please."),
        [("limit", String(limit))]
      )
    case .textTooLarge:
      (
        translatable(
          "That text is too long to keep: it has more accents, marks or symbols than any real text of {{limit}} characters (at most {{scalars}} Unicode code points and {{bytes}} bytes). Please shorten it."
        ),
        [
          ("limit", String(Limits.maximumTextLength)),
          ("scalars", String(Limits.maximumTextScalars)),
          ("bytes", String(Limits.maximumTextBytes)),
        ]
      )
    case .noteTooLong(let limit):
      (
        translatable("That note is too long: at most {{limit}} characters, please."),
        [("limit", String(limit))]
      )
    case .noteTooLarge:
      (
        translatable(
          "That note is too long to keep: at most {{scalars}} Unicode code points and {{bytes}} bytes. Please shorten it."
        ),
        [
          ("scalars", String(Limits.maximumNoteScalars)),
          ("bytes", String(Limits.maximumNoteBytes)),
        ]
      )
    case .tooManyLists(let limit):
      (
        translatable("You already have {{limit}} lists, the most there can be. Delete one first."),
        [("limit", String(limit))]
      )
    case .tooManyItems(let limit):
      (
        translatable(
          "This list already has {{limit}} items, the most it can hold. Delete some first."),
        [("limit", String(limit))]
      )
    case .storageFull(let limit):
      (
        translatable(
          "Your checklists are full: together they may take {{megabytes}} MB, and this change would go beyond that. Delete some items or lists first."
        ),
        [("megabytes", String(limit / 1_048_576))]
      )
    case .sharedListFull(let limit):
      (
        translatable(
          "This shared list is full: through its link it may take {{kilobytes}} KB, and this change would go beyond that. Delete some items first, or ask the list's owner."
        ),
        [("kilobytes", String(limit / 1024))]
      )
    case .ownersStorageFull:
      (
        translatable(
          "This shared list cannot grow: its owner's checklists are full. Delete some items first, or ask the list's owner."
        ), []
      )
    case .tooManyTemplates(let limit):
      (
        translatable(
          "You already have {{limit}} templates, the most there can be. Delete one first."),
        [("limit", String(limit))]
      )
    case .noSuchTemplate:
      (translatable("That template does not exist. It may have been deleted."), [])
    case .noSuchList: (translatable("That list does not exist. It may have been deleted."), [])
    case .noSuchItem: (translatable("That item does not exist. It may have been deleted."), [])
    case .dueDateOutOfRange:
      (translatable("Please choose a due date between the years 1970 and 9999."), [])
    case .deletedItemsListGone(let listName):
      (
        translatable(
          "These items were in the list “{{name}}”, which has been deleted since. Restore that list first, then these items."
        ),
        [("name", listName)]
      )
    }
  }
}
