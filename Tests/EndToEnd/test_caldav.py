"""CalDAV through nginx, as far as it goes so far: an app password made on
Settings → Devices, discovery from /.well-known/caldav, every list a to-do
calendar and every item a to-do as the `caldav` library sees them (run from
its own virtual environment, see caldav_venv.py), changes on the web seen at
the next look; hostile requests refused with a clear 4xx and nothing
stored."""
import re

import pytest
import requests

import caldav_venv
from hosts import running_hosts
from stack import Stack
from visitor import Visitor

APP_FIELD = re.compile(r'<input type="text" id="app-(server|user|password)" value="([^"]+)"')
LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>
<d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&lol2;</d:displayname></d:prop></d:propfind>"""


def connect(visitor):
    """Connects a calendar app on the visitor's Devices screen: what it shows."""
    page = visitor.post("/settings/devices/apps")
    assert page.status_code == 200, (page.status_code, page.text[:300])
    assert page.headers["Cache-Control"] == "no-store"
    return dict(APP_FIELD.findall(page.text))


def stored(stack):
    return {path: path.read_bytes() for path in (stack.data / "users").rglob("*.plist")}


def test_a_client_discovers_every_list_as_a_to_do_calendar_and_sees_a_rename(stack):
    owner = Visitor(stack)
    groceries = owner.create_list("Groceries")
    owner.add_item(groceries, "Milk")
    app = connect(owner)
    assert app["server"] == stack.url("/dav/")
    assert app["user"] == "app-1"

    found = requests.request("PROPFIND", stack.url("/.well-known/caldav"), allow_redirects=False)
    assert found.status_code == 301 and found.headers["Location"] == "/dav/"

    seen = caldav_venv.discover(app["server"], app["user"], app["password"])
    assert seen["principal"] == stack.url("/dav/principal/")
    calendars = {calendar["name"]: calendar for calendar in seen["calendars"]}
    assert set(calendars) == {"Groceries", "List"}
    assert calendars["Groceries"]["url"] == stack.url(f"/dav/lists/{groceries}/")
    assert all(calendar["components"] == ["VTODO"] for calendar in calendars.values())

    todos = calendars["Groceries"]["todos"]
    assert [(todo["summary"], todo["status"]) for todo in todos] == [("Milk", "NEEDS-ACTION")]
    assert calendars["List"]["todos"] == []

    # Changes on the web: a rename, a check, a new item, each seen at the next look.
    renamed = owner.post(f"/lists/{groceries}", {"name": "Market", "icon": "folder"})
    assert renamed.status_code == 303, renamed.status_code
    assert owner.post(f"/lists/{groceries}/items/1/toggle").status_code == 303
    owner.add_item(groceries, "Eggs")
    again = {calendar["name"]: calendar for calendar in
             caldav_venv.discover(app["server"], app["user"], app["password"])["calendars"]}
    assert set(again) == {"Market", "List"}
    assert [(todo["summary"], todo["status"]) for todo in again["Market"]["todos"]] == [
        ("Eggs", "NEEDS-ACTION"), ("Milk", "COMPLETED")]
    assert again["Market"]["todos"][1]["uid"] == todos[0]["uid"]  # the same to-do

    # sync-collection: the current token says nothing changed; after a change
    # on the web, the older token gets only that to-do, after a delete from
    # an app a 404 for it; a token the server never gave asks for a fresh
    # sync (valid-sync-token).
    def sync(token):
        return requests.request(
            "REPORT", stack.url(f"/dav/lists/{groceries}/"), auth=(app["user"], app["password"]),
            headers={"Content-Type": "application/xml"},
            data=f'<d:sync-collection xmlns:d="DAV:"><d:sync-token>{token}</d:sync-token>'
                 '<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>')
    full = sync("")
    assert full.status_code == 207 and full.text.count("<d:response>") == 2
    token = re.search(r"<d:sync-token>([^<]+)</d:sync-token>", full.text).group(1)
    unchanged = sync(token)
    assert unchanged.status_code == 207 and "<d:response>" not in unchanged.text
    owner.add_item(groceries, "Bread")
    added = sync(token)
    assert added.status_code == 207 and added.text.count("<d:response>") == 1, added.text
    assert f"/dav/lists/{groceries}/3.ics</d:href>" in added.text
    newer = re.search(r"<d:sync-token>([^<]+)</d:sync-token>", added.text).group(1)
    assert newer != token
    gone = requests.request("DELETE", stack.url(f"/dav/lists/{groceries}/3.ics"),
                            auth=(app["user"], app["password"]))
    assert gone.status_code == 204, gone.status_code
    removed = sync(newer)
    assert removed.status_code == 207 and removed.text.count("<d:response>") == 1, removed.text
    assert (f"<d:href>/dav/lists/{groceries}/3.ics</d:href>"
            "<d:status>HTTP/1.1 404 Not Found</d:status>") in removed.text
    stale = sync("urn:checklists:sync:0-00000000-0")
    assert stale.status_code == 403 and "<d:valid-sync-token/>" in stale.text


CHECK_ROW = re.compile(r'<button class=check formaction=\S+ aria-pressed=(true|false)[^>]*>([^<]*)</button>')
CLIENT_TODO = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//Example//Tasks//EN\r
BEGIN:VTODO\r
UID:client-todo-1\r
DTSTAMP:20250220T101500Z\r
SUMMARY:Order the cake\r
DESCRIPTION:From the bakery on the corner\r
PRIORITY:1\r
CATEGORIES:Party\r
X-CLIENT-ONLY;X-FLAG=yes:something the server has no field for\r
END:VTODO\r
END:VCALENDAR\r
"""


def rows(visitor, list_id):
    """(text, checked) of each row of a list's page."""
    page = visitor.get(f"/lists/{list_id}")
    assert page.status_code == 200, page.status_code
    return [(text, pressed == "true") for pressed, text in CHECK_ROW.findall(page.text)]


@pytest.fixture(params=["files", "postgres"])
def either_store(request):
    """The stack on files, or two hosts on one PostgreSQL database: CalDAV's
    changes go through the same ChecklistStore either way."""
    if request.param == "files":
        running = Stack()
        try:
            yield running.start()
        finally:
            running.stop()
    else:
        with running_hosts("postgres", request, backends=2) as hosts:
            yield hosts


def test_a_client_creates_edits_completes_and_deletes_to_dos_seen_on_the_web(either_store):
    stack = either_store
    owner = Visitor(stack)
    party = owner.create_list("Party")
    app = connect(owner)
    credentials = (app["server"], app["user"], app["password"])

    # The page open on the list sees the app's change at its next poll.
    tag = owner.get(f"/lists/{party}").headers["ETag"]
    caldav_venv.discover(*credentials, ops=[{"op": "add", "calendar": "Party", "ical": CLIENT_TODO}])
    polled = owner.get(f"/lists/{party}", headers={"If-None-Match": tag})
    assert polled.status_code == 200 and "Order the cake" in polled.text, polled.status_code
    assert rows(owner, party) == [("Order the cake", False)]

    # An edit on the web keeps what the client wrote, and a sync from the
    # token before it gets that to-do alone (the list's change log, kept in
    # either store).
    def sync(token):
        answer = requests.request(
            "REPORT", stack.url(f"/dav/lists/{party}/"), auth=(app["user"], app["password"]),
            headers={"Content-Type": "application/xml"},
            data=f'<d:sync-collection xmlns:d="DAV:"><d:sync-token>{token}</d:sync-token>'
                 '<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>')
        assert answer.status_code == 207, answer.status_code
        return answer.text
    before_edit = re.search(r"<d:sync-token>([^<]+)</d:sync-token>", sync("")).group(1)
    assert owner.post(f"/lists/{party}/items/1", {"text": "Order the big cake"}).status_code == 303
    assert sync(before_edit).count("<d:response>") == 1
    seen = caldav_venv.discover(*credentials, ops=[
        {"op": "complete", "calendar": "Party", "uid": "client-todo-1"}])
    assert rows(owner, party) == [("Order the big cake", True)]
    fetched = requests.get(stack.url(f"/dav/lists/{party}/"), auth=(app["user"], app["password"]))
    assert fetched.status_code == 405  # a collection is read with PROPFIND and REPORT
    todo_path = [todo for todo in seen["calendars"] if todo["name"] == "Party"][0]["todos"][0]
    assert todo_path["summary"] == "Order the big cake" and todo_path["status"] == "COMPLETED"
    query = requests.request(
        "REPORT", stack.url(f"/dav/lists/{party}/"), auth=(app["user"], app["password"]),
        headers={"Depth": "1", "Content-Type": "application/xml"},
        data=f"""<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
          <d:prop><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"/></c:filter>
          </c:calendar-query>""")
    text = query.text
    for kept in ("DESCRIPTION:From the bakery on the corner", "PRIORITY:1", "CATEGORIES:Party",
                 "X-CLIENT-ONLY;X-FLAG=yes:something the server has no field for"):
        assert kept in text, kept

    caldav_venv.discover(*credentials, ops=[
        {"op": "rename", "calendar": "Party", "uid": "client-todo-1", "summary": "Order two cakes"}])
    assert rows(owner, party) == [("Order two cakes", True)]

    caldav_venv.discover(*credentials, ops=[{"op": "delete", "calendar": "Party", "uid": "client-todo-1"}])
    assert rows(owner, party) == []
    assert "Order two cakes" in owner.get("/deleted").text

    # A colour and an order set by the app are kept as sent, in either store.
    auth = (app["user"], app["password"])
    patched = requests.request(
        "PROPPATCH", stack.url(f"/dav/lists/{party}/"), auth=auth,
        headers={"Content-Type": "application/xml"},
        data='<d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop>'
             '<a:calendar-color>#FF2968FF</a:calendar-color><a:calendar-order>2</a:calendar-order>'
             '</d:prop></d:set></d:propertyupdate>')
    assert patched.status_code == 207 and "424" not in patched.text, patched.text
    found = requests.request(
        "PROPFIND", stack.url(f"/dav/lists/{party}/"), auth=auth, headers={"Depth": "0"},
        data='<d:propfind xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/"><d:prop>'
             '<a:calendar-color/><a:calendar-order/></d:prop></d:propfind>')
    assert ">#FF2968FF</x:calendar-color>" in found.text and ">2</x:calendar-order>" in found.text, found.text


def test_hostile_requests_are_a_clear_4xx_and_store_nothing(stack):
    owner = Visitor(stack)
    owner.add_item(owner.list_ids()[0], "Milk")
    app = connect(owner)
    auth = (app["user"], app["password"])
    before = stored(stack)

    def propfind(path, body="", depth="1", **kwargs):
        headers = {"Content-Type": "application/xml"}
        if depth is not None:
            headers["Depth"] = depth
        return requests.request("PROPFIND", stack.url(path), data=body.encode(), headers=headers,
                                auth=kwargs.get("auth", auth))

    laughs = propfind("/dav/lists/", LAUGHS)
    assert laughs.status_code == 400 and "document type declaration" in laughs.text
    for depth in ("infinity", None):
        infinite = propfind("/dav/lists/", depth=depth)
        assert infinite.status_code == 403 and "<d:propfind-finite-depth/>" in infinite.text
    huge = propfind("/dav/lists/", "<d:propfind xmlns:d='DAV:'>" + "x" * 70_000 + "</d:propfind>")
    assert huge.status_code == 413

    def put(name, body):
        return requests.put(stack.url(f"/dav/lists/1/{name}"), data=body.encode(), auth=auth,
                            headers={"Content-Type": "text/calendar"})
    event = put("e.ics", CLIENT_TODO.replace("VTODO", "VEVENT"))
    assert event.status_code == 403 and "supported-calendar-component" in event.text
    malformed = put("m.ics", "BEGIN:VCALENDAR\r\nnot iCalendar at all\r\n")
    assert malformed.status_code == 403 and "valid-calendar-data" in malformed.text
    two = CLIENT_TODO.replace("END:VCALENDAR", "BEGIN:VTODO\r\nUID:2\r\nSUMMARY:y\r\nEND:VTODO\r\nEND:VCALENDAR")
    assert put("t.ics", two).status_code == 403
    assert put("h.ics", CLIENT_TODO + "X" * 70_000).status_code == 413
    # The password is for /dav/ only: a browser screen ignores it.
    screen = requests.get(stack.url("/settings/devices"), auth=auth)
    assert "app-1" not in screen.text and "Milk" not in requests.get(stack.url("/lists/1"), auth=auth).text

    stranger = propfind("/dav/lists/", auth=None)
    assert stranger.status_code == 401
    assert stranger.headers["WWW-Authenticate"] == 'Basic realm="Checklists", charset="UTF-8"'
    for _ in range(10):
        assert propfind("/dav/lists/", auth=(app["user"], "WRONG-PASSWORD")).status_code == 401
    limited = propfind("/dav/lists/")
    assert limited.status_code == 429 and "too many wrong passwords" in limited.text
    assert int(limited.headers["Retry-After"]) > 0
    assert stored(stack) == before
