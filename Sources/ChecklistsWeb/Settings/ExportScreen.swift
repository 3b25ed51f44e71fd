import ChecklistsModel
import FastCGI
import FileSystem
import Foundation
import HTMLTemplates
import HTTPTypes
import Interchange
import Storage

/// Export (`GET /settings/export`): every list and item of the owner, as a
/// download in each format, each named for the day in the visitor's zone
/// (`checklists-2025-05-12.json`).
///
/// A download is made from the lists as they stand, sent with
/// `Content-Disposition: attachment`, `Cache-Control: no-store` (it is the
/// owner's data: no cache keeps it, not even the browser's) and
/// `X-Content-Type-Options: nosniff`; no route of it is `revisited`, so the
/// response memo never keeps one.
enum ExportScreen {
  static let template = "export"
  static let title = translatable("Export")

  /// One kind of download.
  struct Download: Sendable {
    /// The last segment of its address (`/settings/export/checklists.json`)
    /// and the file name's extension.
    var fileExtension: String
    var contentType: String
  }

  static let json = Download(fileExtension: "json", contentType: "application/json")
  static let markdown = Download(
    fileExtension: "md", contentType: "text/markdown; charset=utf-8; variant=GFM")
  static let calendar = Download(
    fileExtension: "ics", contentType: "text/calendar; charset=utf-8")
  static let propertyList = Download(
    fileExtension: "plist", contentType: "application/x-plist")

  /// `GET /settings/export`: a download of each format, with what it holds.
  static func show(_ context: ScreenContext) throws -> Response {
    try context.page(
      template, title: context.catalogue.text(title), ["date": .string(day(context))])
  }

  /// `GET /settings/export/checklists.json`: our JSON (`docs/json-format.md`).
  static func exportJSON(_ context: ScreenContext) throws -> Response {
    download(JSONExport.document(context.model, exportedAt: context.now), json, context)
  }

  /// `GET /settings/export/checklists.md`: a GitHub-flavoured task list.
  static func exportMarkdown(_ context: ScreenContext) throws -> Response {
    download(MarkdownExport.document(context.model), markdown, context)
  }

  /// `GET /settings/export/checklists.ics`: every item as a `VTODO`.
  static func exportCalendar(_ context: ScreenContext) throws -> Response {
    download(
      CalendarExport.document(
        context.model, visitorKey: context.session.directory.key, exportedAt: context.now,
        zone: VisitorTimeZone.current(context.preferences)),
      calendar, context)
  }

  /// `GET /settings/export/Checklists.plist`: the owner's file byte for
  /// byte as stored; before their first change (nothing stored), what
  /// that first change would store of the lists they are shown.
  static func exportPropertyList(_ context: ScreenContext) throws -> Response {
    let path = context.session.directory.checklistsPath
    let stored: Data?
    do {
      stored = try context.services.documents.read(path)
    } catch {
      throw StoreError.io(error)
    }
    let bytes = try stored ?? ChecklistsFile.encode(context.model, format: .xml)
    return download(Array(bytes), propertyList, context)
  }

  /// `bytes` as a file to save.
  static func download(_ bytes: [UInt8], _ kind: Download, _ context: ScreenContext) -> Response {
    let name = fileName(context, extension: kind.fileExtension)
    return Response(
      status: .ok,
      headerFields: [
        .contentType: kind.contentType,
        .contentDisposition: "attachment; filename=\"\(name)\"",
        .cacheControl: "no-store",
        .xContentTypeOptions: "nosniff",
      ], body: bytes)
  }

  /// `checklists-YYYY-MM-DD.<extension>`.
  static func fileName(_ context: ScreenContext, extension fileExtension: String) -> String {
    "checklists-\(day(context)).\(fileExtension)"
  }

  /// `YYYY-MM-DD`, today in the visitor's zone.
  static func day(_ context: ScreenContext) -> String {
    let day = WallClockTime(context.now, in: VisitorTimeZone.current(context.preferences))
    return "\(day.year)-\(WallClockTime.padded(day.month))-\(WallClockTime.padded(day.day))"
  }
}
