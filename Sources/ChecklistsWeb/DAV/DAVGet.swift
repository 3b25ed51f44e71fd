import FastCGI
import HTTPTypes

/// `GET /dav/lists/{list}/{resource}`: one to-do's iCalendar document, with
/// its strong `ETag` (`ConditionalGET` answers `If-None-Match` with `304`).
enum DAVGet {
  static func todo(_ context: DAVContext) throws -> Response {
    do {
      let (_, todo) = try find(context)
      return Response(
        status: .ok,
        headerFields: HTTPFields([
          HTTPField(name: .contentType, value: DAVResponse.calendarType),
          HTTPField(name: .eTag, value: todo.etag),
          HTTPField(name: .cacheControl, value: "private, no-cache"),
        ]),
        body: todo.document)
    } catch let refusal as DAVRefusal {
      return refusal.response
    }
  }

  /// The collection of the route's `{list}` and its to-do named `{resource}`.
  static func find(_ context: DAVContext) throws -> (DAVCollection, DAVTodo) {
    let collection = try Report.collection(context)
    guard let name = context.parameters.resource,
      let todo = collection.todos.first(where: { $0.name == name })
    else { throw DAVRefusal.notFound }
    return (collection, todo)
  }
}
