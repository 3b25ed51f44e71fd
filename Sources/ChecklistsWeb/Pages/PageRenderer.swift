import FastCGI
import HTMLTemplates
import HTTPTypes

/// Renders a screen's template inside the layout, into the bytes of a page.
struct PageRenderer: Sendable {
  let templates: TemplateLibrary
  let assets: Assets
  /// The layout's `assets`, the same on every page: built once.
  private let assetsValue: TemplateValue

  init(templates: TemplateLibrary, assets: Assets) {
    self.templates = templates
    self.assets = assets
    assetsValue = ["css": .string(assets.stylesheet), "js": .string(assets.script)]
  }

  /// The screen rendered straight into the layout's `content` slot (raw:
  /// it comes from a template, never from a visitor), in one buffer;
  /// `layout` is the site's, or the shared pages' (`SharedPages.layout`).
  func render(
    _ screen: String, title: String, context: TemplateValue, layout: String = "layout"
  ) throws(TemplateError) -> [UInt8] {
    var page: [UInt8] = []
    let values: TemplateValue = .object(
      TemplateObject(fields: [(Self.titleKey, .string(title)), (Self.assetsKey, assetsValue)]))
    try templates.render(
      screen, context: context, inLayout: layout, context: values, slot: "content", into: &page)
    return page
  }

  private static let titleKey = TemplateKey("title")
  private static let assetsKey = TemplateKey("assets")

  /// A `text/html` response of a rendered page.
  func response(
    _ screen: String, title: String, context: TemplateValue, status: HTTPResponse.Status = .ok
  ) throws(TemplateError) -> Response {
    .html(try render(screen, title: title, context: context), status: status)
  }

  /// The error page's bytes; `showStatus` false leaves out "Error N" (the
  /// static 50x page stands for several statuses).
  func errorPage(_ error: WebError, showStatus: Bool = true, layout: String = "layout")
    throws(TemplateError) -> [UInt8]
  {
    var context: [String: TemplateValue] = [
      "title": .string(error.title),
      "message": .string(error.message),
      "back": ["href": .string(error.backHref), "label": .string(error.backLabel)],
    ]
    if showStatus { context["status"] = .int(error.status.code) }
    return try render(
      "error", title: error.title, context: .object(TemplateObject(context)), layout: layout)
  }

  /// The page for an error, with its status and its own headers.
  func errorResponse(_ error: WebError, layout: String = "layout") -> Response {
    do {
      return .html(
        try errorPage(error, layout: layout), status: error.status,
        headerFields: error.headerFields)
    } catch {
      // The templates were checked at start-up; this is a last resort.
      return .plainText(Array("Internal error\n".utf8), status: .internalServerError)
    }
  }
}
