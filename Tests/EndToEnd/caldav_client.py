"""A CalDAV client's view of the server, by the `caldav` library: run with
the interpreter of its own virtual environment (`caldav_venv.python()`),
never the system's, since `caldav` brings `urllib3-future`, whose start-up
hook would replace urllib3 for every program of the interpreter it is
installed in.

Reads a JSON object on standard input (`url`, `user`, `password`, and
`ops`, changes to make first: `add` a to-do's iCalendar text to a calendar,
`rename` a to-do's summary, `complete` it, `delete` it, each named by its
calendar's name and the to-do's `uid`) and prints what the client finds: the principal, and each calendar with its
name, the components it takes and its to-dos (`UID`, `SUMMARY`, `STATUS`,
as the library's `todos()` reads them with a `calendar-query`)."""
import json
import sys

import caldav


def main():
    asked = json.load(sys.stdin)
    with caldav.DAVClient(url=asked["url"], username=asked["user"], password=asked["password"]) as client:
        principal = client.principal()
        by_name = {calendar.get_display_name(): calendar for calendar in principal.calendars()}
        for op in asked.get("ops", []):
            calendar = by_name[op["calendar"]]
            if op["op"] == "add":
                calendar.add_todo(op["ical"])
                continue
            todo = calendar.get_todo_by_uid(op["uid"])
            if op["op"] == "rename":
                todo.icalendar_component["summary"] = op["summary"]
                todo.save()
            elif op["op"] == "complete":
                todo.complete()
            elif op["op"] == "delete":
                todo.delete()
        calendars = []
        for calendar in principal.calendars():
            todos = []
            for todo in calendar.todos(include_completed=True):
                component = todo.icalendar_component
                todos.append({"uid": str(component.get("uid")), "summary": str(component.get("summary")),
                              "status": str(component.get("status"))})
            calendars.append({
                "url": str(calendar.url),
                "name": calendar.get_display_name(),
                "components": sorted(calendar.get_supported_components()),
                "todos": sorted(todos, key=lambda todo: todo["summary"]),
            })
    json.dump({"principal": str(principal.url), "calendars": calendars}, sys.stdout)


if __name__ == "__main__":
    main()
