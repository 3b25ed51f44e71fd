import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes
import ICalendar

/// `REPORT` on a list's collection (RFC 4791 §7.8, §7.9, RFC 6578):
/// `calendar-multiget` (the to-dos its `href`s name; an unknown one `404`
/// in its own response), `calendar-query` (the to-dos its filter takes) and
/// `sync-collection` (with no token every to-do and the collection's token;
/// with the current token nothing but it; with an older one of the list's
/// change log the to-dos changed since and a `404` for each one removed;
/// with any other `403` `DAV:valid-sync-token`, after which a client syncs
/// anew and compares the tags it has).
/// Any other report is `403` with `DAV:supported-report`; a filter this
/// server does not evaluate (`param-filter`) `403` with
/// `CALDAV:supported-filter`.
enum Report {
  static func answer(_ context: DAVContext) throws -> Response {
    do {
      let root: DAVElement
      do { root = try DAVXMLReader.read(context.request.body) } catch {
        throw DAVRefusal.xml(error)
      }
      let wanted = (root.child(DAVProperty.dav, "prop")?.children ?? []).map {
        DAVProperty(namespace: $0.namespace, name: $0.name)
      }
      var writer = MultistatusWriter()
      if root.isNamed(DAVProperty.calDAV, "calendar-multiget") {
        // Only the to-dos asked for are written: by name, one look-up each.
        let (list, salt, zone) = try self.list(context)
        var positions: [String: Int] = [:]
        for (position, item) in list.items.enumerated() {
          positions[DAVTodo.name(of: item)] = positions[DAVTodo.name(of: item)] ?? position
        }
        for href in root.children where href.isNamed(DAVProperty.dav, "href") {
          let path = href.text.trimmingCharacters(in: .whitespacesAndNewlines)
          if let name = name(at: path, in: list), let position = positions[name] {
            let todo = DAVTodo(list.items[position], position: position, salt: salt, zone: zone)
            respond(todo, in: list, wanted: wanted, to: &writer)
          } else {
            writer.missing(href: path)
          }
        }
      } else if root.isNamed(DAVProperty.calDAV, "calendar-query") {
        let (list, salt, zone) = try self.list(context)
        let collection = DAVCollection(list, salt: salt, zone: zone)
        let filter = root.child(DAVProperty.calDAV, "filter")
        for todo in collection.todos
        where try TodoFilter.matches(filter, todo.document, zone: zone) {
          respond(todo, in: list, wanted: wanted, to: &writer)
        }
      } else if root.isNamed(DAVProperty.dav, "sync-collection") {
        let owned = try Propfind.ownedVersioned(context)
        let list = try self.list(context, in: owned.model)
        let current = Propfind.tags(of: list, owned, context.services).syncToken
        let token =
          root.child(DAVProperty.dav, "sync-token")?.text
          .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if token.isEmpty {
          for todo in DAVCollection(list, salt: owned.salt, zone: owned.zone).todos {
            respond(todo, in: list, wanted: wanted, to: &writer)
          }
        } else if token != current.text {
          guard let names = changed(since: token, current: current, in: list) else {
            throw DAVRefusal.precondition(.forbidden, "valid-sync-token")
          }
          respond(names, in: list, owned, wanted: wanted, to: &writer)
        }
        writer.syncToken(current.text)
      } else {
        throw DAVRefusal.precondition(.forbidden, "supported-report")
      }
      return DAVResponse.multistatus(writer.finish())
    } catch let refusal as DAVRefusal {
      return refusal.response(in: context.catalogue)
    }
  }

  /// The resources changed since the state `token` names, from the list's
  /// change log; nil when the log cannot say (a token not of this server, of
  /// another zone, of a revision the log no longer keeps, or of the current
  /// revision with another tag).
  static func changed(since token: String, current: DAVSyncToken, in list: Checklist)
    -> [String]?
  {
    guard let old = DAVSyncToken(token), old.zone == current.zone,
      old.revision < current.revision
    else { return nil }
    return list.changes.names(after: old.revision)
  }

  /// `names` as a `sync-collection` answers them: each one the list has
  /// with the properties asked for, each one it no longer has as `404`.
  static func respond(
    _ names: [String], in list: Checklist, _ owned: Propfind.Owned, wanted: [DAVProperty],
    to writer: inout MultistatusWriter
  ) {
    guard !names.isEmpty else { return }
    var positions: [String: Int] = [:]
    for (position, item) in list.items.enumerated() where positions[item.resourceName] == nil {
      positions[item.resourceName] = position
    }
    for name in names {
      if let position = positions[name] {
        let todo = DAVTodo(
          list.items[position], position: position, salt: owned.salt, zone: owned.zone)
        respond(todo, in: list, wanted: wanted, to: &writer)
      } else {
        writer.missing(href: DAVAddress.item(name, in: list))
      }
    }
  }

  /// The route's `{collection}` as the signed-in owner has it, with the
  /// salt of its `UID`s and the owner's zone.
  static func list(_ context: DAVContext) throws -> (Checklist, String, TimeZone) {
    let (model, salt, zone) = try Propfind.owned(context)
    return (try list(context, in: model), salt, zone)
  }

  /// The list the route's `{collection}` names in `model`: by the name a
  /// client gave it, or by its id; `404` otherwise.
  static func list(_ context: DAVContext, in model: DataModel) throws(DAVRefusal) -> Checklist {
    guard let segment = context.parameters.collection,
      let list = model.checklist(calendarSegment: segment)
    else { throw .notFound }
    return list
  }

  /// The resource name an `href` names in this list's collection (an
  /// absolute path or a URL, under the list's name or its id), else nil.
  static func name(at href: String, in list: Checklist) -> String? {
    var path = Substring(href)
    if let scheme = path.range(of: "://") {
      path = path[scheme.upperBound...].drop { $0 != "/" }
    }
    for prefix in [DAVAddress.collection(list), "\(DAVAddress.home)\(list.id)/"]
    where path.hasPrefix(prefix) {
      return RoutePattern.resourceName(Array(path.dropFirst(prefix.count).utf8))
    }
    return nil
  }

  static func respond(
    _ todo: DAVTodo, in list: Checklist, wanted: [DAVProperty],
    to writer: inout MultistatusWriter
  ) {
    var properties = Propfind.properties(of: todo)
    properties.append((.calendarData, .text(String(decoding: todo.document, as: UTF8.self))))
    let asked = wanted.isEmpty ? [.getETag, .calendarData] : wanted
    let found = asked.compactMap { name in properties.first { $0.0 == name } }
    let missing = asked.filter { name in !properties.contains { $0.0 == name } }
    writer.response(href: DAVAddress.item(todo.name, in: list), found: found, missing: missing)
  }
}

/// A `calendar-query` filter (RFC 4791 §9.7) evaluated on one to-do: the
/// `VCALENDAR` comp-filter, a `VTODO` one (another component matches
/// nothing here), its `time-range` (`TodoTimes`: RFC 4791 §9.9's table),
/// and its prop-filters (`is-not-defined`, `text-match` with
/// `negate-condition`, case-insensitive, and `time-range` on a date
/// property). Floating and all-day dates are read in `zone`, the owner's.
enum TodoFilter {
  static func matches(_ filter: DAVElement?, _ document: [UInt8], zone: TimeZone) throws -> Bool {
    guard let filter else { return true }
    guard let calendarFilter = filter.child(DAVProperty.calDAV, "comp-filter"),
      calendarFilter.attribute == "VCALENDAR"
    else {
      throw DAVRefusal.badRequest(
        DAVMessage(translatable("a calendar-query filters VCALENDAR")))
    }
    let components = calendarFilter.children.filter {
      $0.isNamed(DAVProperty.calDAV, "comp-filter")
    }
    guard !components.isEmpty else { return true }
    guard let todo = try? Component.parse(try ContentLineReader.read(document)).components.first
    else { return false }
    for component in components {
      guard component.attribute == todo.name else {
        // No such component here: only is-not-defined is true of it.
        if component.child(DAVProperty.calDAV, "is-not-defined") == nil { return false }
        continue
      }
      if component.child(DAVProperty.calDAV, "is-not-defined") != nil { return false }
      if let range = component.child(DAVProperty.calDAV, "time-range"),
        try !todoInRange(todo, range, zone: zone)
      {
        return false
      }
      for property in component.children where property.isNamed(DAVProperty.calDAV, "prop-filter") {
        if try !propertyMatches(property, todo, zone: zone) { return false }
      }
    }
    return true
  }

  static func todoInRange(_ todo: Component, _ range: DAVElement, zone: TimeZone) throws -> Bool {
    let (start, end) = try bounds(range)
    return TodoTimes(todo, zone: zone).overlaps(start: start, end: end)
  }

  static func propertyMatches(_ filter: DAVElement, _ todo: Component, zone: TimeZone) throws
    -> Bool
  {
    guard filter.child(DAVProperty.calDAV, "param-filter") == nil else {
      throw DAVRefusal.precondition(.forbidden, "supported-filter", namespace: DAVProperty.calDAV)
    }
    let name = (filter.attribute ?? "").uppercased()
    let lines = todo.properties.filter { $0.name == name }
    if filter.child(DAVProperty.calDAV, "is-not-defined") != nil { return lines.isEmpty }
    guard !lines.isEmpty else { return false }
    if let range = filter.child(DAVProperty.calDAV, "time-range") {
      let (start, end) = try bounds(range)
      return lines.contains { line in
        TodoTimes.instant(line, zone: zone).map { $0 >= start && $0 < end } ?? false
      }
    }
    if let match = filter.child(DAVProperty.calDAV, "text-match") {
      let negate = match.attributes["negate-condition"] == "yes"
      let needle = match.text.lowercased()
      return lines.contains { $0.textValue.lowercased().contains(needle) } != negate
    }
    return true
  }

  /// A time-range's `start` and `end` (UTC date-times; either may be left out).
  static func bounds(_ range: DAVElement) throws -> (Date, Date) {
    func read(_ name: String, default value: Date) throws -> Date {
      guard let text = range.attributes[name] else { return value }
      let line = ContentLine(name: "X", parameters: [], value: text, text: "X:\(text)")
      guard let date = TodoTimes.instant(line, zone: .gmt) else {
        throw DAVRefusal.badRequest(
          DAVMessage(
            translatable("time-range {{attribute}} is not a UTC date-time"),
            [("attribute", name)]))
      }
      return date
    }
    return (
      try read("start", default: .distantPast), try read("end", default: .distantFuture)
    )
  }
}
