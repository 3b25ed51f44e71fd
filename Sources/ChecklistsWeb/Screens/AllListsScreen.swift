import ChecklistsModel
import HTMLTemplates

/// All Lists (`GET /lists`, and `GET /` when it does not redirect): one row
/// per list, in the model's order (by name).
enum AllListsScreen {
  static let template = "all-lists"
  static let title = "All Lists"

  static func context(model: DataModel, icons: IconLibrary) -> TemplateValue {
    let rows: [TemplateValue] = model.lists.map { list in
      [
        "id": .int(list.id),
        "name": .string(list.name),
        "subtitle": .string(list.subtitle),
        "icon": icons.value(for: list.icon),
      ]
    }
    return ["hasLists": .bool(!rows.isEmpty), "lists": .list(rows)]
  }
}
