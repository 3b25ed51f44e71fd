import HTTPTypes

/// The error pages of Devices and `/link`.
extension WebError {
  /// The owner's devices file cannot be read (`503`, see
  /// `DeviceStore.Unreadable`).
  static let devicesUnreadable = WebError(
    status: .serviceUnavailable, title: "Your lists are closed for now",
    message:
      "The file that says which browsers may use these lists cannot be read, so no browser is let in until it is repaired. Nothing was changed or lost; tell whoever runs this site (checklists check names the file).",
    headerFields: [.retryAfter: "3600"])
}
