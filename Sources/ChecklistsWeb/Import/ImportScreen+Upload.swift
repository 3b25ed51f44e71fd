import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Interchange
import Storage

extension ImportScreen {
  /// The upload form's file field.
  static let fileField = "file"
  /// The characters of a file's name kept (a browser sends at most 255 bytes).
  static let maximumFileNameLength = 255

  /// `POST /settings/import` (`multipart/form-data`: `csrf`, `file`): the
  /// file read by its format's parser and tried on a copy of the visitor's
  /// lists; if they can be added, kept as the owner's pending import
  /// (replacing any other) and `303` to its preview. Anything else is the
  /// import page again with the reason: nothing is changed, and neither
  /// the file nor anything read from it is kept.
  static func upload(_ context: UploadContext) throws -> Response {
    let form: MultipartForm
    switch context.input {
    case .form(let read): form = read
    case .refused(let refusal): return try refused(context, refusal)
    }
    let file: MultipartForm.Part
    switch chosenFile(form) {
    case .success(let part): file = part
    case .failure(let problem):
      return try refused(
        context,
        changedNothing(
          problem.message, problem.values.map { (name: $0.key, value: $0.value) }, context),
        status: problem.status)
    }
    // Shown on the preview and kept with the pending import: a name, not a
    // payload, without the control characters no browser sends.
    let printable = (file.fileName ?? "").unicodeScalars.filter {
      $0.properties.generalCategory != .control
    }
    let fileName = String(String(String.UnicodeScalarView(printable)).prefix(maximumFileNameLength))
    guard !file.body.isEmpty else {
      return try refused(
        context,
        changedNothing(
          translatable("The file “{{file}}” is empty."), [("file", shortened(fileName))], context),
        status: .unprocessableContent)
    }
    guard let format = ImportFile.format(of: file.body, fileName: fileName) else {
      return try refused(
        context, changedNothing(ImportFile.unrecognised(fileName).phrase, context.catalogue),
        status: .unsupportedMediaType)
    }
    let lists: [ImportedList]
    do throws(ImportFailure) {
      lists = try ImportFile.lists(
        from: file.body, format: format, fileName: fileName,
        // Translators: the name of an imported list the file gives no
        // name (a Markdown file of tasks without a heading, whose own
        // name is empty).
        unnamed: context.catalogue.text(translatable("Imported")))
    } catch {
      return try refused(
        context, changedNothing(error.phrase, context.catalogue), status: .unprocessableContent)
    }
    guard !lists.isEmpty else {
      return try refused(
        context,
        changedNothing(
          translatable("The file “{{file}}” holds no lists."), [("file", shortened(fileName))],
          context),
        status: .unprocessableContent)
    }
    // Kept as they will be added, so that the preview shows exactly that.
    let cleaned: [ImportedList]
    switch trial(of: lists, adding: try context.currentModel().model) {
    case .accepted(let lists): cleaned = lists
    case .refused(let message):
      return try refused(context, message.text(context.catalogue), status: .unprocessableContent)
    }
    let pending = PendingImport(
      created: context.now, fileName: fileName, format: format.rawValue, lists: cleaned)
    let imports = context.services.pendingImports
    let owner = context.session.directory
    try pendingFiles { try imports.withLock(owner) { _ = try imports.save(pending, for: owner) } }
    return .redirect(to: previewPath)
  }

  /// Why an upload is not a file to read: the catalogue's phrase, the
  /// values of its `{{tags}}`, the status.
  struct Problem: Error, Equatable {
    var message: String
    var values: [String: String] = [:]
    var status: HTTPResponse.Status
  }

  /// The form's one file: a `file` part with a file name, beside the
  /// `csrf` field and nothing else.
  static func chosenFile(_ form: MultipartForm) -> Result<MultipartForm.Part, Problem> {
    if let other = form.parts.first(where: { $0.name != fileField && $0.name != CSRF.fieldName }) {
      return .failure(
        Problem(
          message: translatable(
            "The upload holds a field this page does not send (“{{field}}”). Choose the file with the form below."
          ), values: ["field": shortened(other.name)], status: .badRequest))
    }
    let files = form.parts.filter { $0.name == fileField }
    guard files.count <= 1 else {
      return .failure(
        Problem(
          message: translatable("Choose one file at a time."), status: .badRequest))
    }
    guard let file = files.first, let name = file.fileName, !name.isEmpty || !file.body.isEmpty
    else {
      return .failure(
        Problem(
          message: translatable("No file was chosen. Choose a file to import."),
          status: .badRequest))
    }
    return .success(file)
  }

  /// The import page again for a body that was not read as a form.
  static func refused(_ context: UploadContext, _ refusal: Upload.Refusal) throws -> Response {
    switch refusal {
    case .tooLarge:
      try refused(
        context,
        context.catalogue.text(
          translatable(
            "That file is larger than {{size}}, the most an import takes. Nothing was changed."),
          [("size", maximumSizeText(context.catalogue))]),
        status: .contentTooLarge)
    case .notMultipart:
      try refused(
        context,
        changedNothing(
          translatable(
            "The file did not arrive as a file upload. Choose it with the form below."), [],
          context),
        status: .unsupportedMediaType)
    case .malformed:
      try refused(
        context,
        changedNothing(
          translatable(
            "The upload could not be read: it was cut short or is out of shape. Choose the file again with the form below."
          ), [], context),
        status: .badRequest)
    }
  }

  /// `phrase` translated, its `values` filled, then "Nothing was changed.".
  static func changedNothing<Input>(
    _ phrase: String, _ values: [(name: String, value: String)],
    _ context: RequestContext<Input>
  ) -> String {
    WebError(
      status: .badRequest, title: "", message: phrase, messageValues: values,
      nothingChanged: true
    ).message(in: context.catalogue)
  }

  /// A file name short enough for a sentence.
  static func shortened(_ name: String) -> String {
    name.count > 60 ? String(name.prefix(60)) + "…" : name
  }
}
