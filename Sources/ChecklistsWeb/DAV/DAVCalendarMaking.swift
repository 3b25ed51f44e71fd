import ChecklistsModel
import FastCGI
import Foundation
import HTTPTypes

/// `MKCALENDAR /dav/lists/{collection}/` (RFC 4791 §5.3.1): a new list,
/// made by a calendar app under the name it chose (Reminders' Add List,
/// the tester's calendars), which then addresses it by that name (its id
/// reaches it too). The body's `set` names the list (`displayname`; the
/// collection's name without one) and the properties it keeps as a
/// `PROPPATCH` keeps them; a `supported-calendar-component-set` must
/// include `VTODO`. One `ChecklistStore.update`, within the web's limits.
///
/// Refused, nothing made: an address a list has (its name or id) `405`
/// `DAV:resource-must-be-null`; a name that is not a `CalendarName` (digits
/// alone are the server's ids) `403` `CALDAV:calendar-collection-location-ok`;
/// components without `VTODO` `403` `CALDAV:supported-calendar-component`;
/// a property refused `403` with the status of each; the owner's lists or
/// room full `507`, as `PUT` answers them.
enum DAVCalendarMaking {
  static func mkcalendar(_ context: DAVContext) throws -> Response {
    do {
      guard let account = context.account, let name = context.parameters.collection else {
        throw DAVRefusal.notFound
      }
      let (model, _, _) = try Propfind.owned(context)
      guard model.checklist(calendarSegment: name) == nil else { throw taken }
      guard CalendarName.isValid(name) else {
        throw DAVRefusal.refused(
          .forbidden, "calendar-collection-location-ok", namespace: DAVProperty.calDAV,
          message: DAVMessage(
            translatable(
              "a new calendar’s name is 1 to {{limit}} letters, digits and -._~, not digits alone"),
            [("limit", String(CalendarName.maximumLength))]))
      }
      let asked = try self.asked(context.request.body)
      if !asked.refused.isEmpty {
        return refusedProperties(asked, href: DAVAddress.home + name + "/")
      }
      try DAVWrite.update(context, account) { model throws(DAVRefusal) in
        // Another request made it meanwhile.
        guard !model.calendarNameIsTaken(name) else { throw taken }
        var fitted = true
        do throws(ChecklistsError) {
          let id = try model.addList(name: asked.newName ?? name, calendarName: name)
          fitted = try model.changeProperties(ofList: id, setting: asked.set, removing: [])
        } catch {
          throw DAVWrite.refusal(error)
        }
        guard fitted else {
          throw .tooManyProperties
        }
      }
      return Response(
        status: .created,
        headerFields: HTTPFields([HTTPField(name: .cacheControl, value: "no-store")]))
    } catch let refusal as DAVRefusal {
      var response = refusal.response(in: context.catalogue)
      // A 405 names what the address takes (RFC 9110 §15.5.6).
      if response.status == .methodNotAllowed {
        response.headerFields[.allow] = DAVOptions.collectionAllow
      }
      return response
    }
  }

  /// `405` with `DAV:resource-must-be-null`: a list is there already.
  static let taken = DAVRefusal.refused(
    .methodNotAllowed, "resource-must-be-null", namespace: DAVProperty.dav,
    message: DAVMessage(translatable("a calendar is already there")))

  /// What the body asks (none: nothing but the name).
  static func asked(_ body: [UInt8]) throws(DAVRefusal) -> DAVCollectionChange.Patch {
    var patch = DAVCollectionChange.Patch()
    if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return patch }
    let root: DAVElement
    do { root = try DAVXMLReader.read(body) } catch { throw .xml(error) }
    guard root.isNamed(DAVProperty.calDAV, "mkcalendar") else {
      throw .badRequest(DAVMessage(translatable("the body is not a CALDAV:mkcalendar")))
    }
    for set in root.children where set.isNamed(DAVProperty.dav, "set") {
      for property in set.child(DAVProperty.dav, "prop")?.children ?? [] {
        if property.isNamed(DAVProperty.calDAV, "supported-calendar-component-set") {
          let components = property.children.filter { $0.isNamed(DAVProperty.calDAV, "comp") }
          guard components.contains(where: { $0.attribute?.uppercased() == "VTODO" }) else {
            throw .refused(
              .forbidden, "supported-calendar-component", namespace: DAVProperty.calDAV,
              message: DAVMessage(translatable("a list holds to-dos (VTODO) only")))
          }
          continue
        }
        patch.add(property, isSet: true)
      }
    }
    return patch
  }

  /// `403` with each property's status (RFC 4791 §5.3.1.2's
  /// `mkcalendar-response`), the rest `424`: nothing made.
  static func refusedProperties(_ patch: DAVCollectionChange.Patch, href: String) -> Response {
    var writer = MultistatusWriter()
    let refusedNames = patch.refused.map(\.0)
    var statuses: [(String, [DAVProperty])] = []
    for status in Set(patch.refused.map(\.1)).sorted() {
      statuses.append((status, patch.refused.filter { $0.1 == status }.map(\.0)))
    }
    let others = patch.named.filter { !refusedNames.contains($0) }
    if !others.isEmpty { statuses.append(("HTTP/1.1 424 Failed Dependency", others)) }
    writer.response(href: href, statuses: statuses)
    var response = DAVResponse.multistatus(writer.finish())
    response.status = .forbidden
    return response
  }
}
