import HTMLTemplates
import Storage

/// An owner's stored lists by name and number of items, as the link page
/// and Switch Back name them: what a browser puts aside by redeeming a
/// code, or would get back.
enum ListNames {
  /// `name` and `items` ("3 items") of each list stored for `directory`;
  /// empty when nothing is stored (nothing would be lost).
  static func of(
    _ directory: VisitorDirectory, in store: ChecklistStore,
    catalogue: Catalogue = Catalogue(madeFromEnglish: .english)
  ) throws -> [TemplateValue] {
    guard let model = try store.load(directory) else { return [] }
    return model.lists.map { list in
      let count = list.items.count
      return .object(
        TemplateObject([
          "name": .string(list.name),
          "items": .string(
            catalogue.text(
              translatable(one: "{{count}} item", other: "{{count}} items"), count: count)),
        ]))
    }
  }
}
