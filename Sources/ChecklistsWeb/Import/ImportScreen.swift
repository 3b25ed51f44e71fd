import ChecklistsModel
import FastCGI
import FileSystem
import Foundation
import HTMLTemplates
import HTTPTypes
import Interchange
import Storage

/// Import (`GET /settings/import`): a file of lists to add, a preview of
/// what it holds, then Confirm or Cancel.
///
/// The upload (`POST /settings/import`, `ImportScreen+Upload`) reads the
/// file and keeps its lists as the owner's pending import
/// (`PendingImports`), nothing else; the preview
/// (`GET /settings/import/preview`) shows them; Confirm adds them in one
/// write, all or nothing, and Cancel drops them. A file that cannot be
/// imported is refused on this page with the reason, and neither it nor
/// anything read from it is kept.
enum ImportScreen {
  static let template = "import"
  static let previewTemplate = "import-preview"
  static let title = translatable("Import")
  static let previewTitle = translatable("Import Preview")
  /// The page's and the upload's address.
  static let path = "/settings/import"
  static let previewPath = "/settings/import/preview"
  /// The most an upload's body may hold: the server reads no more of it
  /// (`RouteTable.largerBodies`), and nginx's import location allows as much.
  static let maximumUploadBytes = ImportFile.maximumUploadBytes

  /// `GET /settings/import`: the form, and a link to the preview while an
  /// upload waits for its Confirm.
  static func show(_ context: ScreenContext) throws -> Response {
    try context.page(
      template, title: context.catalogue.text(title),
      pageContext(
        context, notice: notice(query: context.request.query).map { context.catalogue.text($0) },
        error: nil))
  }

  /// `GET /settings/import/preview`: the lists the upload read, each with
  /// its items, and Confirm and Cancel; the import page when nothing waits.
  static func preview(_ context: ScreenContext) throws -> Response {
    let owner = context.session.directory
    let stored: PendingImports.Stored?
    do {
      stored = try pendingFiles { try context.services.pendingImports.load(of: owner) }
    } catch is PendingImports.Unreadable {
      stored = nil
    }
    guard let stored, !stored.pending.isExpired(at: context.now) else {
      let notice = stored == nil ? Notice.nothingWaiting : Notice.expired
      return try context.page(
        template, title: context.catalogue.text(title),
        pageContext(context, notice: context.catalogue.text(notice.sentence), error: nil))
    }
    let refusal: String? =
      switch trial(of: stored.pending.lists, adding: context.model) {
      case .accepted: nil
      case .refused(let message): message.text(context.catalogue)
      }
    return try context.page(
      previewTemplate, title: context.catalogue.text(previewTitle),
      ImportPreview.context(
        stored, refusal: refusal, csrf: context.csrfToken, icons: context.icons,
        label: DueDateLabel(
          zone: VisitorTimeZone.current(context.preferences), now: context.now,
          words: context.dateWords),
        catalogue: context.catalogue))
  }

  /// What `lists` would be once added to `model`, tried on a copy.
  enum Trial {
    /// As they would be added: names and texts cleaned, due dates to the second.
    case accepted([ImportedList])
    /// Why they could not be added now (a limit of the model or the stored
    /// file's cap).
    case refused(Refusal)
  }

  /// Why lists could not be added: a sentence of the importer's (which
  /// list or item, and why), or a refusal of the model's; then "Nothing was
  /// changed.", in the visitor's language.
  enum Refusal {
    case importer(ImportPhrase)
    case model(ChecklistsError)

    func text(_ catalogue: Catalogue) -> String {
      switch self {
      case .importer(let phrase):
        return changedNothing(phrase, catalogue)
      case .model(let error):
        return WebError.unprocessable(error, backHref: "", backLabel: "").message(in: catalogue)
      }
    }
  }

  /// An importer's `phrase` in `catalogue`'s language, then "Nothing was changed.".
  static func changedNothing(_ phrase: ImportPhrase, _ catalogue: Catalogue) -> String {
    catalogue.text(phrase) + " " + catalogue.text(translatable("Nothing was changed."))
  }

  /// Tries `lists` on a copy of `model`: `DataModel.addImported`, then the
  /// 2 MiB cap of the file it would be written to.
  static func trial(of lists: [ImportedList], adding model: DataModel) -> Trial {
    var trial = model
    let ids: [Int]
    do throws(ImportRefusal) {
      ids = try trial.addImported(lists)
    } catch {
      return .refused(.importer(error.phrase))
    }
    if let full = ChecklistStore.sizeRefusal(trial, replacing: model) {
      return .refused(.model(full))
    }
    // The new lists are the last ones added: at most one look-up each;
    // the file's templates as read (their texts cleaned on Confirm).
    return .accepted(
      ids.compactMap(trial.checklist(id:)).map { list in
        ImportedList(
          name: list.name, icon: list.icon, sort: list.sort,
          items: list.items.map {
            ImportedItem(
              text: $0.text, checked: $0.checked, dueDate: $0.dueDate,
              shouldRemind: $0.shouldRemind, notes: $0.notes)
          })
      } + lists.filter(\.isTemplate))
  }

  /// `POST /settings/import/confirm` (`digest`): the lists the preview
  /// showed added beside the visitor's, in one write, then `303` to All
  /// Lists saying how many. Under the owner's import lock, so that Confirm
  /// sent twice adds them once; a preview replaced by a later upload, an
  /// expired one and one the model refuses add nothing.
  static func confirm(_ context: ChangeContext) throws -> Response {
    let imports = context.services.pendingImports
    let owner = context.session.directory
    let digest = context.form["digest"] ?? ""
    let outcome = try pendingFiles {
      try imports.withLock(owner) { () throws -> Confirmation in
        let stored: PendingImports.Stored?
        do {
          stored = try imports.load(of: owner, locked: true)
        } catch is PendingImports.Unreadable {
          stored = nil  // set aside: nothing waits
        }
        guard let stored else { return .nothingWaiting }
        guard !stored.pending.isExpired(at: context.now) else {
          try imports.remove(of: owner)
          return .expired
        }
        guard SecretDigest.constantTimeEqual(stored.digest, digest) else { return .replaced }
        do {
          try context.updateModel { model in try model.addImported(stored.pending.lists) }
        } catch let refusal as ImportRefusal {
          try imports.remove(of: owner)
          return .refused(.importer(refusal.phrase))
        } catch let error as ChecklistsError {
          try imports.remove(of: owner)
          return .refused(.model(error))
        }
        try imports.remove(of: owner)
        return .imported(
          lists: stored.pending.lists.count,
          items: stored.pending.lists.reduce(0) { $0 + $1.items.count })
      }
    }
    switch outcome {
    case .imported(let lists, let items):
      return .redirect(to: ImportNotice.location(lists: lists, items: items))
    case .nothingWaiting:
      return .redirect(to: "\(path)?\(Notice.nothingWaiting.rawValue)")
    case .expired:
      return try refused(
        context, context.catalogue.text(Notice.expired.sentence), status: .gone)
    case .replaced:
      return try refused(
        context,
        context.catalogue.text(
          translatable(
            "Another file was uploaded after that preview was shown. Nothing was changed; review the newer one before you confirm it."
          )),
        status: .conflict)
    case .refused(let refusal):
      return try refused(context, refusal.text(context.catalogue), status: .unprocessableContent)
    }
  }

  /// `POST /settings/import/cancel`: the pending import dropped.
  static func cancel(_ context: ChangeContext) throws -> Response {
    let imports = context.services.pendingImports
    let owner = context.session.directory
    try pendingFiles { try imports.withLock(owner) { try imports.remove(of: owner) } }
    return .redirect(to: "\(path)?\(Notice.cancelled.rawValue)")
  }

  /// What Confirm found.
  enum Confirmation {
    case imported(lists: Int, items: Int)
    case nothingWaiting
    case expired
    case replaced
    case refused(Refusal)
  }

  /// The sentences of the page after a change, by the redirect's query.
  enum Notice: String {
    case cancelled
    case nothingWaiting = "nothing-waiting"
    case expired

    var sentence: String {
      switch self {
      case .cancelled: translatable("Import cancelled. Nothing was added.")
      case .nothingWaiting:
        translatable(
          "Nothing is waiting to be imported. If you confirmed an import just now, its lists are in All Lists."
        )
      case .expired:
        translatable(
          "The file you uploaded waited more than an hour for its Confirm and was dropped. Nothing was added; upload it again."
        )
      }
    }
  }

  static func notice(query: String) -> String? {
    Notice(rawValue: query)?.sentence
  }

  /// The import page again, with why and its status; nothing was changed.
  static func refused<Input>(
    _ context: RequestContext<Input>, _ message: String, status: HTTPResponse.Status
  ) throws -> Response {
    var response = try context.refusedForm(
      template, title: context.catalogue.text(title),
      pageContext(context, notice: nil, error: message), status: status)
    response.headerFields[.cacheControl] = "no-store"
    return response
  }

  /// The import page's values.
  static func pageContext<Input>(
    _ context: RequestContext<Input>, notice: String?, error: String?
  ) throws -> TemplateValue {
    var values: [String: TemplateValue] = [
      "csrf": .string(context.csrfToken),
      "accept": .string(ImportFile.accept),
      "maximumSize": .string(maximumSizeText(context.catalogue)),
    ]
    if let notice { values["notice"] = .string(notice) }
    if let error { values["error"] = .string(error) }
    if let waiting = try waitingImport(context) {
      let label = DueDateLabel(
        zone: VisitorTimeZone.current(context.preferences), now: context.now,
        words: context.dateWords)
      values["waiting"] = [
        "fileName": .string(waiting.fileName),
        "uploaded": .string(label.text(waiting.created)),
        "uploadedISO": .string(DueDateLabel.machineReadable(waiting.created)),
      ]
    }
    return .object(TemplateObject(values))
  }

  /// "1 MB", in the catalogue's language.
  static func maximumSizeText(_ catalogue: Catalogue) -> String {
    catalogue.text(translatable("{{count}} MB"), [("count", String(maximumUploadBytes >> 20))])
  }

  /// The owner's pending import when one waits for its Confirm.
  static func waitingImport<Input>(_ context: RequestContext<Input>) throws -> PendingImport? {
    let stored = try? pendingFiles {
      try context.services.pendingImports.load(of: context.session.directory)
    }
    guard let pending = stored?.pending, !pending.isExpired(at: context.now) else { return nil }
    return pending
  }

  /// Runs a change of the pending import's file, its failures told as the
  /// store's (a busy lock is `503`, a failed system call `500`).
  static func pendingFiles<T>(_ body: () throws -> T) throws -> T {
    try StoreError.reporting(body)
  }
}
