import ChecklistsModel
import FastCGI
import Foundation

extension ChecklistScreen {
  /// `POST /lists/{list}/remove-checked`: delete every checked item of the
  /// list as one deletion; the list again, offering Undo. With nothing
  /// checked (a remove sent again, say) nothing changes and no Undo is
  /// offered.
  static func removeChecked(_ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    let deletion = try context.updateModel { model in
      try model.removeCheckedItems(inList: listID, at: context.now)
    }
    let page = "/lists/\(listID)"
    return .redirect(to: deletion.map { UndoNotice.location(page, removedChecked: $0) } ?? page)
  }
}
