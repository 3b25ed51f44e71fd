"""Lists used again, through nginx as a browser without JavaScript uses
them: Duplicate List and Save as Template on Edit List, New List from a
template on New List (plain forms, 303, GET). A template is never a list:
not on All Lists, not in the JSON export but flagged, not a CalDAV
collection."""
import re

import requests

from test_caldav import connect
from visitor import Visitor

ROW = re.compile(r'formaction=\d+/items/(\d+)/toggle aria-pressed=(true|false) name=check value=[01]>([^<]*)</button>')


def rows(visitor, list_id):
    return [(text, pressed == "true") for _, pressed, text in ROW.findall(visitor.get(f"/lists/{list_id}").text)]


def test_a_template_starts_new_lists_and_a_duplicate_copies_one(stack):
    visitor = Visitor(stack)
    trip = visitor.create_list("Trip", icon="trips")
    for text in ("Passport", "Tickets", "Socks"):
        visitor.add_item(trip, text)
    first = ROW.search(visitor.get(f"/lists/{trip}").text).group(1)
    assert visitor.post(f"/lists/{trip}/items/{first}/toggle", {"check": "1"}).status_code == 303

    duplicated = visitor.post(f"/lists/{trip}/duplicate")
    assert duplicated.status_code == 303
    copy = int(duplicated.headers["Location"].rsplit("/", 1)[1])
    assert rows(visitor, copy) == rows(visitor, trip) == [
        ("Passport", True), ("Tickets", False), ("Socks", False)]
    assert "Trip copy" in visitor.get(f"/lists/{copy}").text

    saved = visitor.post(f"/lists/{trip}/save-as-template")
    assert saved.status_code == 303 and saved.headers["Location"] == "/lists/new#templates"
    new_list = visitor.get("/lists/new").text
    template = re.search(r'action="/templates/(\d+)/new-list"', new_list).group(1)
    made = visitor.post(f"/templates/{template}/new-list")
    assert made.status_code == 303
    made_id = int(made.headers["Location"].rsplit("/", 1)[1])
    assert rows(visitor, made_id) == [("Passport", False), ("Tickets", False), ("Socks", False)]

    # Never a list: All Lists, the list's own address, the export's flag, CalDAV.
    assert sorted(visitor.list_ids()) == sorted([1, trip, copy, made_id])
    assert visitor.get(f"/lists/{template}").status_code == 404
    exported = visitor.get("/settings/export/checklists.json").json()
    flagged = [l for l in exported["lists"] if l.get("template")]
    assert [(l["name"], [i["text"] for i in l["items"]]) for l in flagged] == [
        ("Trip", ["Passport", "Tickets", "Socks"])]
    app = connect(visitor)
    home = requests.request("PROPFIND", stack.url("/dav/lists/"), auth=(app["user"], app["password"]),
                            headers={"Depth": "1"})
    assert home.status_code == 207
    assert f"/dav/lists/{template}/" not in home.text and f"/dav/lists/{made_id}/" in home.text

    # Deleted, it is offered no more; its lists stay.
    assert visitor.post(f"/templates/{template}/delete").status_code == 303
    assert 'id="templates"' not in visitor.get("/lists/new").text
    assert rows(visitor, made_id)[0] == ("Passport", False)
