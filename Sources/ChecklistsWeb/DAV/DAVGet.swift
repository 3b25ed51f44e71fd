import FastCGI
import HTTPTypes

/// `GET /dav/lists/{collection}/{resource}`: one to-do's iCalendar document, with
/// its strong `ETag` (`ConditionalGET` answers `If-None-Match` with `304`).
enum DAVGet {
  static func todo(_ context: DAVContext) throws -> Response {
    do {
      let todo = try find(context)
      return Response(
        status: .ok,
        headerFields: HTTPFields([
          HTTPField(name: .contentType, value: DAVResponse.calendarType),
          HTTPField(name: .eTag, value: todo.etag),
          HTTPField(name: .cacheControl, value: "private, no-cache"),
        ]),
        body: todo.document)
    } catch let refusal as DAVRefusal {
      return refusal.response(in: context.catalogue)
    }
  }

  /// The to-do named `{resource}` in the route's `{collection}`: only its
  /// own document is written (a list's other items cost a name each).
  static func find(_ context: DAVContext) throws -> DAVTodo {
    guard let name = context.parameters.resource else { throw DAVRefusal.notFound }
    let (list, salt, zone) = try Report.list(context)
    guard
      let (position, item) = list.items.enumerated().first(where: {
        DAVTodo.name(of: $0.element) == name
      })
    else { throw DAVRefusal.notFound }
    return DAVTodo(item, position: position, salt: salt, zone: zone)
  }
}
