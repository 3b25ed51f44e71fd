import ChecklistsModel
import HTTPTypes

/// A request that cannot be answered with the page it asked for: the
/// status and the sentence the error page shows.
struct WebError: Error, Sendable {
  var status: HTTPResponse.Status
  /// The title and the sentence, in English: the catalogue's phrases,
  /// translated as the page is made.
  var title: String
  var message: String
  /// The values of the message's `{{tags}}`, filled in after its lookup.
  var messageValues: [(name: String, value: String)] = []
  /// The page adds "Nothing was changed." (translated) to the message.
  var nothingChanged = false
  /// Where the page's way back leads.
  var backHref = "/lists"
  var backLabel = translatable("All Lists")
  /// Extra header fields, e.g. `Allow` on a `405`.
  var headerFields: HTTPFields = [:]

  static let listNotFound = WebError(
    status: .notFound, title: translatable("List not found"),
    message: translatable(
      "This list does not exist. It may have been deleted, or the address is mistyped."))

  static let itemNotFound = WebError(
    status: .notFound, title: translatable("Item not found"),
    message: translatable(
      "This item does not exist. It may have been deleted, or the address is mistyped."))

  static let templateNotFound = WebError(
    status: .notFound, title: translatable("Template not found"),
    message: translatable(
      "This template does not exist. It may have been deleted, or the address is mistyped."),
    backHref: "/lists/new", backLabel: translatable("New List"))

  static let pageNotFound = WebError(
    status: .notFound, title: translatable("Page not found"),
    message: translatable("There is nothing at this address."))

  static func methodNotAllowed(allow: String) -> WebError {
    WebError(
      status: .methodNotAllowed, title: translatable("Method not allowed"),
      message: translatable("This address does not accept that kind of request."),
      headerFields: [.allow: allow])
  }

  static let forbidden = WebError(
    status: .forbidden, title: translatable("Request refused"),
    message:
      translatable(
        "This form could not be accepted: it did not come from this site's own page, the page was too old, or this browser does not keep this site's cookies. Nothing was changed. Go back, reload the page and try again."
      )
  )

  static let tooLarge = WebError(
    status: .contentTooLarge, title: translatable("Too much data"),
    message: translatable("What was sent is larger than this site accepts. Nothing was changed."))

  static let unsupportedMediaType = WebError(
    status: .unsupportedMediaType, title: translatable("Unsupported form encoding"),
    message: translatable(
      "The form was sent in an encoding this site does not read. Nothing was changed."))

  /// - Parameters:
  ///   - message: the catalogue's phrase; `values` fill its `{{tags}}`.
  static func badRequest(_ message: String, _ values: [(name: String, value: String)] = [])
    -> WebError
  {
    WebError(
      status: .badRequest, title: translatable("Bad request"), message: message,
      messageValues: values, nothingChanged: true)
  }

  static func unprocessable(
    _ message: String, _ values: [(name: String, value: String)] = [], backHref: String,
    backLabel: String
  ) -> WebError {
    WebError(
      status: .unprocessableContent, title: translatable("Not saved"), message: message,
      messageValues: values, nothingChanged: true, backHref: backHref, backLabel: backLabel)
  }

  /// What the model refused, in the visitor's language.
  static func unprocessable(_ error: ChecklistsError, backHref: String, backLabel: String)
    -> WebError
  {
    let (phrase, values) = error.phrase
    return unprocessable(phrase, values, backHref: backHref, backLabel: backLabel)
  }

  /// The message in `catalogue`'s language.
  func message(in catalogue: Catalogue) -> String {
    let text = catalogue.text(message, messageValues)
    guard nothingChanged else { return text }
    return text + " " + catalogue.text(translatable("Nothing was changed."))
  }

  static let unreadableData = WebError(
    status: .internalServerError, title: translatable("Your checklists could not be read"),
    message:
      translatable(
        "The file that holds your checklists is damaged. It has been kept aside, untouched, so that it can be recovered; tell whoever runs this site. Nothing else was changed."
      )
  )

  static let unreadableSettings = WebError(
    status: .internalServerError, title: translatable("Your settings could not be read"),
    message:
      translatable(
        "The file that holds your settings is damaged. It has been kept aside, untouched, so that it can be recovered; tell whoever runs this site. Your lists are not affected, and your settings are back to their defaults for now. Nothing else was changed."
      )
  )

  /// Too many of one visitor's changes at once (`DocumentLock`): the worker
  /// threads stay free for everyone else, and the browser may retry.
  static let busy = WebError(
    status: .serviceUnavailable, title: translatable("Busy, try again"),
    message:
      translatable(
        "Your checklists are busy with other changes sent at the same time. Nothing was changed by this one; try again in a moment."
      ),
    headerFields: [.retryAfter: "1"])

  /// The database that keeps the documents cannot be reached just now
  /// (a restart, a failover): nothing was changed, and the browser may
  /// retry once the connection is back.
  static let storeUnavailable = WebError(
    status: .serviceUnavailable, title: translatable("Unavailable for a moment"),
    message:
      translatable(
        "Your checklists cannot be reached for a moment. Nothing was changed by this request; try again in a few seconds."
      ),
    headerFields: [.retryAfter: "2"])

  static let internalError = WebError(
    status: .internalServerError, title: translatable("Something went wrong"),
    message: translatable(
      "The server could not complete this request. Nothing was changed; try again."))
}
