import HTTPTypes

/// The error pages of Devices and `/link`.
extension WebError {
  /// Too many wrong link codes from one address (`429`).
  static func tooManyAttempts(retryAfter seconds: Int) -> WebError {
    WebError(
      status: .tooManyRequests, title: translatable("Too many tries"),
      message: translatable(
        "Too many wrong codes were sent from here in the last minute. Nothing was changed; wait {{seconds}} seconds and try again."
      ), messageValues: [("seconds", String(seconds))],
      backHref: "/link", backLabel: translatable("Try Again"),
      headerFields: [.retryAfter: String(seconds)])
  }

  /// Too many app passwords made or ended by one owner in the last hour
  /// (`429`).
  static func tooManyAppChanges(retryAfter seconds: Int) -> WebError {
    WebError(
      status: .tooManyRequests, title: translatable("Too many calendar apps at once"),
      message: translatable(
        "Calendar app passwords were made or disconnected {{count}} times in the last hour. Nothing was changed; wait {{minutes}} minutes and try again."
      ),
      messageValues: [
        ("count", String(DevicesScreen.appChangeLimit)), ("minutes", String(seconds / 60 + 1)),
      ],
      backHref: "/settings/devices#apps", backLabel: DevicesScreen.title,
      headerFields: [.retryAfter: String(seconds)])
  }

  /// The owner's devices file cannot be read (`503`, see
  /// `DeviceStore.Unreadable`).
  static let devicesUnreadable = WebError(
    status: .serviceUnavailable, title: translatable("Your lists are closed for now"),
    message: translatable(
      "The file that says which browsers may use these lists cannot be read, so no browser is let in until it is repaired. Nothing was changed or lost; tell whoever runs this site (checklists check names the file)."
    ),
    headerFields: [.retryAfter: "3600"])

  /// A browser linked a moment ago asked to sign out an older one (`403`).
  static func newBrowser(until: String) -> WebError {
    WebError(
      status: .forbidden, title: translatable("Not from this browser yet"),
      message: translatable(
        "This browser was linked less than 24 hours ago: until {{time}} it can sign out only itself and browsers linked after it, so that a code in the wrong hands cannot sign you out everywhere. Nothing was changed; sign out from an older browser instead."
      ), messageValues: [("time", until)],
      backHref: "/settings/devices", backLabel: DevicesScreen.title)
  }
}
