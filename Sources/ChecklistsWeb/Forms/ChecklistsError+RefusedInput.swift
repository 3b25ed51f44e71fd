import ChecklistsModel

extension ChecklistsError {
  /// True for what the visitor typed or asked for beyond a limit; a form
  /// comes back with the reason. Unknown ids are `404` pages instead.
  var isRefusedInput: Bool {
    switch self {
    case .noSuchList, .noSuchItem, .noSuchTemplate: false
    default: true
    }
  }
}
