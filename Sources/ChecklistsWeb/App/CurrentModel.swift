import ChecklistsModel

/// The visitor's checklists as a screen shows them: what is stored, or the
/// first-run list while nothing is (shown, never stored, on a `GET`).
struct CurrentModel {
  var model: DataModel
  /// True while the visitor has stored nothing and has not finished their
  /// first run: `model` is then the first-run list.
  var isFirstRun: Bool
}
