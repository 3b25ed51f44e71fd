"""Repeating items through nginx, as a browser without JavaScript uses
them: the item form's Repeat fields (303, or 400 with the form again and
nothing stored), a check that moves the item to its next due date unchecked
with its last done shown (twice), the calendar feed's RRULE, and a CalDAV
to-do whose RRULE lies outside the subset served back verbatim."""
import re
from datetime import datetime, timedelta, timezone

import requests

from test_calendar import create_address, fetch
from test_caldav import connect
from visitor import Visitor

ROW = re.compile(r'formaction="?\d+/items/(\d+)/toggle(\?due=\d+)?[" ]')


def due_shown(page, item):
    """The due date of the row of `item` (its <time datetime>), in UTC."""
    row = re.search(rf'<li><button class=check formaction="?\d+/items/{item}/toggle[^>]*>.*?</li>',
                    page, re.S).group(0)
    return re.search(r'<time[^>]* datetime=([^ >]+)', row).group(1), row


def test_a_weekly_item_checked_twice_moves_twice_and_says_when_it_was_done(stack):
    visitor = Visitor(stack)
    assert visitor.post("/settings", {"OpenLastList": "on", "TimeZone": "Europe/Berlin"}) \
        .status_code == 303
    chores = visitor.create_list("Chores")
    visitor.add_item(chores, "Water the plants")
    page = visitor.get(f"/lists/{chores}").text
    item = ROW.search(page).group(1)
    # A plain row's toggle names no due date: rows that do not repeat are as before.
    assert ROW.search(page).group(2) is None and "repeats" not in page

    form = visitor.get(f"/lists/{chores}/items/{item}/edit").text
    assert '<select id="item-repeat" name="repeat"' in form
    assert 'name="weekday" value="MO"' in form

    # Next Monday and Thursday, at 09:00 Berlin time, from a Monday well ahead.
    today = datetime.now(timezone.utc).date()
    monday = today + timedelta(days=(7 - today.weekday()) % 7 + 7)
    fields = {"text": "Water the plants", "dueDate": f"{monday.isoformat()}T09:00",
              "dueDateZone": "Europe/Berlin", "notes": "", "repeat": "weekly", "interval": "1",
              "weekday": ["MO", "TH"], "monthDay": ""}

    # Refused: no due date, a bad interval, an unknown choice; nothing stored.
    before = visitor.get(f"/lists/{chores}").text
    for change, words in [({"dueDate": ""}, "needs a due date"),
                          ({"interval": "0"}, "whole number from 1 to 1000"),
                          ({"interval": "many"}, "whole number from 1 to 1000"),
                          ({"repeat": "hourly"}, "Choose how the item repeats")]:
        refused = visitor.post(f"/lists/{chores}/items/{item}", {**fields, **change})
        assert refused.status_code == 400, (change, refused.status_code)
        assert words in refused.text and 'id="form-error"' in refused.text
        assert 'id="item-repeat" name="repeat" aria-describedby="item-repeat-help form-error"' \
            in refused.text
    assert visitor.get(f"/lists/{chores}").text == before

    saved = visitor.post(f"/lists/{chores}/items/{item}", fields)
    assert saved.status_code == 303 and saved.headers["Location"] == f"/lists/{chores}"
    page = visitor.get(f"/lists/{chores}").text
    due, row = due_shown(page, item)
    assert "Repeats weekly" in row and "Last done" not in row
    assert 'aria-pressed=false' in row
    # 09:00 in Berlin is 08:00Z in winter and 07:00Z in summer.
    first = datetime.fromisoformat(due.replace("Z", "+00:00"))
    assert first.date() == monday and first.hour in (7, 8)
    form = visitor.get(f"/lists/{chores}/items/{item}/edit").text
    assert '<option value="weekly" selected>' in form
    assert 'value="MO" checked' in form and 'value="TH" checked' in form

    expected = [monday + timedelta(days=3), monday + timedelta(days=7)]
    for wanted in expected:
        toggle = ROW.search(visitor.get(f"/lists/{chores}").text)
        address = f"/lists/{chores}/items/{item}/toggle{toggle.group(2)}"
        checked = visitor.post(address, {"check": "1"})
        assert checked.status_code == 303
        # The same check sent again (a retry) finds the item moved on: no-op.
        assert visitor.post(address, {"check": "1"}).status_code == 303
        due, row = due_shown(visitor.get(f"/lists/{chores}").text, item)
        moved = datetime.fromisoformat(due.replace("Z", "+00:00"))
        assert moved.date() == wanted, (due, wanted)
        assert moved.hour in (7, 8)
        assert 'aria-pressed=false' in row
        assert re.search(r"Last done \d{1,2} [A-Z][a-z]{2}", row), row

    # The calendar feed carries the rule (with Remind me on).
    fields["shouldRemind"] = "on"
    assert visitor.post(f"/lists/{chores}/items/{item}", fields).status_code == 303
    _, secret = create_address(visitor)
    feed = fetch(stack, secret).text
    assert "RRULE:FREQ=WEEKLY;BYDAY=MO,TH\r\n" in feed
    # The VTODO export too.
    exported = visitor.get("/settings/export/checklists.ics").text
    assert "RRULE:FREQ=WEEKLY;BYDAY=MO,TH\r\n" in exported
    # And the JSON export.
    items = [i for l in visitor.get("/settings/export/checklists.json").json()["lists"]
             for i in l["items"]]
    assert [i.get("recurrence") for i in items] == ["FREQ=WEEKLY;BYDAY=MO,TH"]

    # Never: it stops repeating; a check then checks it.
    fields["repeat"] = "never"
    assert visitor.post(f"/lists/{chores}/items/{item}", fields).status_code == 303
    page = visitor.get(f"/lists/{chores}").text
    assert "Repeats" not in page and ROW.search(page).group(2) is None
    assert visitor.post(f"/lists/{chores}/items/{item}/toggle", {"check": "1"}).status_code == 303
    assert 'aria-pressed=true' in due_shown(visitor.get(f"/lists/{chores}").text, item)[1]


CUSTOM = "FREQ=MONTHLY;BYDAY=-1FR;BYMONTH=1,4,7,10;X-OWN=Quarterly review"
TODO = "\r\n".join([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Repeat//EN", "BEGIN:VTODO",
    "UID:repeat-todo-1", "DTSTAMP:20250101T000000Z", "SUMMARY:Quarterly review",
    "DUE:20270129T090000Z", f"RRULE:{CUSTOM}", "PRIORITY:1", "END:VTODO", "END:VCALENDAR", ""])


def test_a_calendar_apps_rule_outside_the_subset_comes_back_verbatim(stack):
    owner = Visitor(stack)
    work = owner.create_list("Work")
    app = connect(owner)
    auth = (app["user"], app["password"])
    address = stack.url(f"/dav/lists/{work}/repeat-todo-1.ics")
    put = requests.put(address, data=TODO.encode(), auth=auth,
                       headers={"Content-Type": "text/calendar"})
    assert put.status_code == 201, (put.status_code, put.text[:300])
    unfolded = lambda text: text.replace("\r\n ", "")  # noqa: E731
    served = requests.get(address, auth=auth)
    assert f"\r\nRRULE:{CUSTOM}\r\n" in unfolded(served.text)
    page = owner.get(f"/lists/{work}").text
    assert "Repeats (custom)" in page
    item = ROW.search(page).group(1)
    # Its form offers the rule as it is; saving it unchanged keeps it to the byte.
    form = owner.get(f"/lists/{work}/items/{item}/edit").text
    assert '<option value="custom" selected>' in form
    assert owner.post(f"/lists/{work}/items/{item}", {
        "text": "Quarterly review", "dueDate": "2027-01-29T09:00", "dueDateZone": "UTC",
        "notes": "", "repeat": "custom", "interval": "1", "monthDay": ""}).status_code == 303
    again = requests.get(address, auth=auth)
    assert unfolded(again.text) == unfolded(served.text)
    # Checked, it is checked (never reinterpreted), and keeps its rule.
    assert owner.post(f"/lists/{work}/items/{item}/toggle", {"check": "1"}).status_code == 303
    checked = unfolded(requests.get(address, auth=auth).text)
    assert f"\r\nRRULE:{CUSTOM}\r\n" in checked and "STATUS:COMPLETED" in checked


def test_a_calendar_app_completing_a_repeating_to_do_moves_it_on(stack):
    owner = Visitor(stack)
    assert owner.post("/settings", {"OpenLastList": "on", "TimeZone": "UTC"}).status_code == 303
    work = owner.create_list("Work")
    app = connect(owner)
    auth = (app["user"], app["password"])
    address = stack.url(f"/dav/lists/{work}/daily-1.ics")
    todo = TODO.replace("UID:repeat-todo-1", "UID:daily-1").replace(
        f"RRULE:{CUSTOM}", "RRULE:FREQ=DAILY;INTERVAL=2")
    assert requests.put(address, data=todo.encode(), auth=auth,
                        headers={"Content-Type": "text/calendar"}).status_code == 201
    assert "Repeats every 2 days" in owner.get(f"/lists/{work}").text
    done = todo.replace("PRIORITY:1", "PRIORITY:1\r\nSTATUS:COMPLETED")
    assert requests.put(address, data=done.encode(), auth=auth,
                        headers={"Content-Type": "text/calendar"}).status_code == 204
    served = requests.get(address, auth=auth).text
    assert "DUE:20270131T090000Z" in served and "STATUS:NEEDS-ACTION" in served
    assert "RRULE:FREQ=DAILY;INTERVAL=2" in served
    assert "Last done" in owner.get(f"/lists/{work}").text
