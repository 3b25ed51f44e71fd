import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import Interchange
import Storage

/// A client's changes to to-dos (RFC 4791 §5.3.2, RFC 4918 §9.6): `PUT` of
/// one to-do (`If-None-Match: *` creates only, `If-Match` updates only that
/// version: `412` otherwise) and `DELETE` of one (it goes to Recently
/// Deleted, as on the web). Each is one call of the one write path
/// (`ChecklistStore.update`: Recently Deleted purged, the first run stored,
/// the owner's 2 MiB, live updates), with its preconditions checked inside
/// it, on the model the change is made on.
enum DAVWrite {
  /// `PUT /dav/lists/{collection}/{resource}`: `201` for a new to-do, `204` for a
  /// replaced one. No `ETag` comes back: the stored resource is written
  /// anew (the server's `PRODID`, the item's own lines), so a client reads
  /// it again.
  static func put(_ context: DAVContext) throws -> Response {
    do {
      guard !context.request.bodyTooLarge else {
        throw DAVRefusal.precondition(
          .contentTooLarge, "max-resource-size", namespace: DAVProperty.calDAV)
      }
      let (account, name) = try target(context)
      let zone = context.services.zone(of: account.owner)
      let todo: CalendarTodo
      do {
        todo = try CalendarTodo.read(context.request.body, zone: zone)
      } catch {
        throw refusal(error)
      }
      let salt = CalendarUID.salt(visitorKey: account.owner.key)
      let created = try update(context, account) { model throws(DAVRefusal) -> Bool in
        let list = try Report.list(context, in: model)
        let listID = list.id
        let existing = list.items.enumerated().first { DAVTodo.name(of: $0.element) == name }
        try checkPreconditions(
          context.request,
          current: existing.map { DAVTodo($0.element, position: $0.offset, salt: salt, zone: zone) }
        )
        if let clash = list.items.first(where: {
          CalendarUID.uid(of: $0, salt: salt) == todo.uid && DAVTodo.name(of: $0) != name
        }) {
          throw .uidConflict(DAVAddress.item(DAVTodo.name(of: clash), in: list))
        }
        let fields = todo.fields(resource: name)
        do {
          if let (index, item) = existing {
            let moved = todo.sortOrder.flatMap {
              (0..<list.items.count).contains($0) && $0 != index ? $0 : nil
            }
            // What a client sends back unchanged (the bytes it was served)
            // may still differ from what is stored (its kept lines now hold
            // the STATUS the server added; an item of the web gets its
            // calendar data): served the same, it changes nothing, so no
            // revision, tag or change is recorded.
            let replacement = try DataModel.item(from: fields, id: item.id)
            if moved == nil,
              DAVTodo(replacement, position: index, salt: salt, zone: zone).document
                == DAVTodo(item, position: index, salt: salt, zone: zone).document
            {
              return false
            }
            try model.replaceItem(
              id: item.id, inList: listID, with: fields, at: moved,
              moment: CheckMoment(now: context.now, zone: zone))
            return false
          }
          guard !Self.isServerName(name) else { throw DAVRefusal.serverName }
          let position = todo.sortOrder.flatMap { (0...list.items.count).contains($0) ? $0 : nil }
          try model.addItem(fields, toList: listID, at: position)
          return true
        } catch let error as ChecklistsError {
          throw refusal(error)
        } catch let refusal as DAVRefusal {
          throw refusal
        } catch {
          throw .badRequest(DAVMessage(verbatim: "\(error)"))
        }
      }
      return Response(status: created ? .created : .noContent)
    } catch let refusal as DAVRefusal {
      return refusal.response(in: context.catalogue)
    }
  }

  /// `DELETE /dav/lists/{collection}/{resource}`: the item goes to Recently
  /// Deleted; `204`.
  static func delete(_ context: DAVContext) throws -> Response {
    do {
      let (account, name) = try target(context)
      let zone = context.services.zone(of: account.owner)
      let salt = CalendarUID.salt(visitorKey: account.owner.key)
      try update(context, account) { model throws(DAVRefusal) in
        let list = try Report.list(context, in: model)
        let listID = list.id
        guard
          let (index, item) = list.items.enumerated().first(where: {
            DAVTodo.name(of: $0.element) == name
          })
        else { throw .notFound }
        try checkPreconditions(
          context.request, current: DAVTodo(item, position: index, salt: salt, zone: zone))
        do {
          try model.deleteItem(id: item.id, inList: listID, at: context.now, by: .app)
        } catch {
          throw .notFound
        }
      }
      return Response(status: .noContent)
    } catch {
      return error.response(in: context.catalogue)
    }
  }

  // MARK: Internals

  /// The signed-in account and the route's resource name.
  static func target(_ context: DAVContext) throws(DAVRefusal) -> (DAVAccount, String) {
    guard let account = context.account, let name = context.parameters.resource else {
      throw .notFound
    }
    return (account, name)
  }

  /// `If-None-Match: *` wants no resource there, `If-Match` this one's tag
  /// (or `*`, any): `412` otherwise.
  static func checkPreconditions(_ request: Request, current: DAVTodo?) throws(DAVRefusal) {
    if let none = request.headerFields[.ifNoneMatch] {
      let tags = tags(none)
      if current != nil && (tags.contains("*") || tags.contains(current!.etag)) {
        throw .preconditionFailed
      }
    }
    if let match = request.headerFields[.ifMatch] {
      let tags = tags(match)
      guard let current, tags.contains("*") || tags.contains(current.etag) else {
        throw .preconditionFailed
      }
    }
  }

  static func tags(_ value: String) -> [String] {
    value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
  }

  /// A name of the form the server gives an item made on the web (`<id>.ics`):
  /// a client may replace such a resource, never make a new one under it.
  static func isServerName(_ name: String) -> Bool {
    name.hasSuffix(".ics") && name.dropLast(4).allSatisfy(\.isASCII)
      && name.dropLast(4).allSatisfy(\.isNumber) && name.count > 4
  }

  /// The change through the one write path; its refusals as they were
  /// thrown, the store's as `503` or `500`.
  @discardableResult
  static func update<T>(
    _ context: DAVContext, _ account: DAVAccount,
    _ change: (inout DataModel) throws(DAVRefusal) -> T
  ) throws(DAVRefusal) -> T {
    let preferences = context.services.defaults.visitor(directory: account.owner.path)
    do {
      // An app may forget only what apps deleted, to purge or to make
      // room: the owner's Recently deleted and the links' are not its own.
      return try context.services.store.update(
        account.owner, at: context.now, firstRun: preferences, forgettable: \.throughApp
      ) { model in try change(&model) }
    } catch let refusal as DAVRefusal {
      throw refusal
    } catch let error as ChecklistsError {
      throw refusal(error)
    } catch let error as StoreError {
      throw .store(error)
    } catch {
      throw .badRequest(DAVMessage(verbatim: "\(error)"))
    }
  }

  /// A to-do the mapping refused, as CalDAV's preconditions say it.
  static func refusal(_ error: CalendarTodoError) -> DAVRefusal {
    let name: String
    switch error {
    case .syntax, .notACalendar: name = "valid-calendar-data"
    case .unsupportedComponent, .noTodo: name = "supported-calendar-component"
    case .tooMuchKept: name = "max-resource-size"
    case .moreThanOneTodo, .badUID, .noSummary, .text, .notes, .badDueDate:
      name = "valid-calendar-object-resource"
    }
    return .refused(
      .forbidden, name, namespace: DAVProperty.calDAV, message: DAVMessage(todo: error))
  }

  /// A change the model refused: a limit (`403`, or `507` when the owner's
  /// room or the list is full), or a list gone.
  static func refusal(_ error: ChecklistsError) -> DAVRefusal {
    switch error {
    case .storageFull, .tooManyItems, .tooManyLists, .ownersStorageFull, .sharedListFull:
      .refused(
        .insufficientStorage, "max-resource-size", namespace: DAVProperty.calDAV,
        message: DAVMessage(refusal: error))
    case .noSuchList, .noSuchItem: .notFound
    default:
      .refused(
        .forbidden, "valid-calendar-object-resource", namespace: DAVProperty.calDAV,
        message: DAVMessage(refusal: error))
    }
  }
}

extension HTTPResponse.Status {
  /// `507 Insufficient Storage` (RFC 4918 §11.5).
  static let insufficientStorage = HTTPResponse.Status(
    code: 507, reasonPhrase: "Insufficient Storage")
}
