"""An item's note through nginx, as a browser without JavaScript uses it
(the item form, 303, the list page), on a shared page, in the JSON export
and its import, and over CalDAV as the to-do's DESCRIPTION: a note a
calendar app writes shows on the web, one written on the web reaches the
app."""
import json
import re

import requests

from test_caldav import connect
from visitor import Visitor

NOTE = "Позвонить после 9, «Ёлка» & <b>\nSecond line, Café"
SHOWN = "Позвонить после 9, «Ёлка» &amp; &lt;b&gt;\nSecond line, Café"
ROW = re.compile(r'formaction=\d+/items/(\d+)/toggle ')


def test_a_note_typed_in_the_item_form_shows_under_the_item_and_travels_in_json(stack):
    visitor = Visitor(stack)
    groceries = visitor.create_list("Groceries")
    visitor.add_item(groceries, "Call the baker")
    item = ROW.search(visitor.get(f"/lists/{groceries}").text).group(1)
    form = visitor.get(f"/lists/{groceries}/items/{item}/edit").text
    assert '<textarea id="item-notes" name="notes"' in form
    saved = visitor.post(f"/lists/{groceries}/items/{item}",
                         {"text": "Call the baker", "dueDate": "",
                          "notes": "\r\n" + NOTE.replace("\n", "\r\n") + "   \r\n"})
    assert saved.status_code == 303 and saved.headers["Location"] == f"/lists/{groceries}"
    assert f'<p class=notes>{SHOWN}</p>' in visitor.get(f"/lists/{groceries}").text

    # A read-only link shows it too.
    assert visitor.post(f"/lists/{groceries}/share/read-only").status_code == 303
    link = re.search(r'id="share-read-only" value="[^"]*(/s/[0-9a-f]{32})"',
                     visitor.get(f"/lists/{groceries}/edit").text).group(1)
    assert f'<p class=notes>{SHOWN}</p>' in requests.get(stack.url(link)).text

    # Too long: the form again, as typed, and nothing stored.
    long = "ж" * 4001
    refused = visitor.post(f"/lists/{groceries}/items/{item}",
                           {"text": "Call the baker", "dueDate": "", "notes": long})
    assert refused.status_code == 422 and f">{long}</textarea>" in refused.text
    assert f'<p class=notes>{SHOWN}</p>' in visitor.get(f"/lists/{groceries}").text

    # The JSON export carries it; importing that file gives it back.
    exported = visitor.get("/settings/export/checklists.json")
    assert exported.status_code == 200
    items = [i for l in exported.json()["lists"] for i in l["items"]]
    assert [i.get("notes") for i in items if i["text"] == "Call the baker"] == [NOTE]
    other = Visitor(stack)
    assert other.import_file("lists.json", exported.content).status_code == 303
    again = other.get("/settings/export/checklists.json").json()
    assert [i.get("notes") for l in again["lists"] for i in l["items"]
            if i["text"] == "Call the baker"] == [NOTE]

    # So does the Markdown export, as a paragraph under the task, and its import.
    markdown = visitor.get("/settings/export/checklists.md")
    assert markdown.status_code == 200
    assert "- [ ] Call the baker\n\n  Позвонить после 9, «Ёлка» &amp; &lt;b>\\\n  Second line, Café\n" \
        in markdown.text, markdown.text
    third = Visitor(stack)
    assert third.import_file("lists.md", markdown.content).status_code == 303
    again = third.get("/settings/export/checklists.json").json()
    assert [i.get("notes") for l in again["lists"] for i in l["items"]
            if i["text"] == "Call the baker"] == [NOTE]


TODO = "\r\n".join([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Notes//EN", "BEGIN:VTODO",
    "UID:note-todo-1", "DTSTAMP:20250101T000000Z", "SUMMARY:Pick up the cake",
    "DESCRIPTION;LANGUAGE=ru:Заказ № 12\\, оплачен\\nSecond line",
    "PRIORITY:1", "END:VTODO", "END:VCALENDAR", ""])


def test_a_note_written_by_a_calendar_app_shows_on_the_web_and_back(stack):
    owner = Visitor(stack)
    party = owner.create_list("Party")
    app = connect(owner)
    auth = (app["user"], app["password"])
    address = stack.url(f"/dav/lists/{party}/note-todo-1.ics")
    put = requests.put(address, data=TODO.encode(), auth=auth,
                       headers={"Content-Type": "text/calendar"})
    assert put.status_code == 201, (put.status_code, put.text[:300])
    page = owner.get(f"/lists/{party}").text
    assert '<p class=notes>Заказ № 12, оплачен\nSecond line</p>' in page
    # Unedited, the app gets its own line back.
    assert "DESCRIPTION;LANGUAGE=ru:Заказ № 12\\, оплачен\\nSecond line" in \
        requests.get(address, auth=auth).text.replace("\r\n ", "")

    item = ROW.search(page).group(1)
    assert owner.post(f"/lists/{party}/items/{item}",
                      {"text": "Pick up the cake", "dueDate": "",
                       "notes": "Paid; bring a box\nThanks"}).status_code == 303
    served = requests.get(address, auth=auth).text.replace("\r\n ", "")
    assert "DESCRIPTION:Paid\\; bring a box\\nThanks" in served
    assert "Заказ" not in served and "PRIORITY:1" in served

    # A DESCRIPTION too long for a note is refused with a reason; nothing changes.
    before = owner.get(f"/lists/{party}").text
    long = TODO.replace("Заказ № 12", "x" * 4001)
    refused = requests.put(address, data=long.encode(), auth=auth,
                           headers={"Content-Type": "text/calendar"})
    assert 400 <= refused.status_code < 500 and "DESCRIPTION" in refused.text, refused.status_code
    assert owner.get(f"/lists/{party}").text == before
