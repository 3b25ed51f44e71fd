"""A scheduled reset through nginx, as a browser without JavaScript uses it:
the rule set on Edit List (a plain form, 303), items checked, the backend
restarted with its clock moved (CHECKLISTS_CLOCK_OFFSET_SECONDS, test-only)
past the boundary, and the first GET finds every item unchecked; checked
again, they stay checked until the next boundary."""
import datetime
import re
import time

from visitor import Visitor

ROW = re.compile(r'formaction=\d+/items/(\d+)/toggle aria-pressed=(true|false) name=check value=[01]>([^<]*)</button>')


def rows(visitor, list_id):
    page = visitor.get(f"/lists/{list_id}")
    assert page.status_code == 200
    return [(text, pressed == "true") for _, pressed, text in ROW.findall(page.text)]


def next_tuesday_six(after):
    """The first Tuesday 06:00 UTC after `after` (an aware datetime)."""
    day = after.replace(hour=6, minute=0, second=0, microsecond=0)
    while day <= after or day.isoweekday() != 2:
        day += datetime.timedelta(days=1)
    return day


def restart_at(stack, monkeypatch, instant):
    """Restarts the backend with its clock at `instant` (give or take the
    seconds the test takes)."""
    offset = (instant - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
    monkeypatch.setenv("CHECKLISTS_CLOCK_OFFSET_SECONDS", str(int(offset)))
    stack.stop_backend()
    stack.start_backend()


def test_a_weekly_reset_unchecks_every_item_once_after_its_boundary(stack, monkeypatch):
    visitor = Visitor(stack)
    chores = visitor.create_list("Chores")
    for text in ("Dishes", "Laundry"):
        visitor.add_item(chores, text)

    edit = visitor.get(f"/lists/{chores}/edit").text
    assert "Scheduled Reset" in edit and 'name="reset" value="none" checked' in edit
    refused = visitor.post(f"/lists/{chores}", {"name": "Chores", "icon": "folder", "reset": "weekly",
                                                 "resetTime": "06:00"})
    assert refused.status_code == 400 and "Please choose at least one day of the week." in refused.text
    saved = visitor.post(f"/lists/{chores}", {"name": "Chores", "icon": "folder", "reset": "weekly",
                                               "resetTime": "06:00", "resetWeekday": ["2"]})
    assert saved.status_code == 303 and saved.headers["Location"] == f"/lists/{chores}"
    page = visitor.get(f"/lists/{chores}").text
    assert "Resets every week on Tuesday at 06:00; next: " in page

    for item_id, _, _ in ROW.findall(page):
        assert visitor.post(f"/lists/{chores}/items/{item_id}/toggle", {"check": "1"}).status_code == 303
    assert rows(visitor, chores) == [("Dishes", True), ("Laundry", True)]

    boundary = next_tuesday_six(datetime.datetime.now(datetime.timezone.utc))
    restart_at(stack, monkeypatch, boundary - datetime.timedelta(minutes=2))
    assert rows(visitor, chores) == [("Dishes", True), ("Laundry", True)], "reset early"

    restart_at(stack, monkeypatch, boundary + datetime.timedelta(seconds=30))
    assert rows(visitor, chores) == [("Dishes", False), ("Laundry", False)]
    stored = (next(stack.data.rglob("Checklists.plist"))).read_text()
    assert f"<date>{boundary.strftime('%Y-%m-%dT%H:%M:%SZ')}</date>" in stored

    # Checked again: it stays checked, request after request, until the next boundary.
    first = ROW.search(visitor.get(f"/lists/{chores}").text).group(1)
    assert visitor.post(f"/lists/{chores}/items/{first}/toggle", {"check": "1"}).status_code == 303
    assert rows(visitor, chores) == [("Dishes", True), ("Laundry", False)]
    assert rows(visitor, chores) == [("Dishes", True), ("Laundry", False)]
    restart_at(stack, monkeypatch, boundary + datetime.timedelta(days=6, hours=23))
    assert rows(visitor, chores) == [("Dishes", True), ("Laundry", False)]
    restart_at(stack, monkeypatch, boundary + datetime.timedelta(days=7, minutes=1))
    assert rows(visitor, chores) == [("Dishes", False), ("Laundry", False)]


def test_a_clock_offset_that_is_no_number_stops_the_start(stack, monkeypatch):
    monkeypatch.setenv("CHECKLISTS_CLOCK_OFFSET_SECONDS", "soon")
    stack.stop_backend()
    stack.socket.unlink(missing_ok=True)
    stack_log = stack.dir / "logs/backend.log"
    try:
        stack.start_backend()
    except RuntimeError:
        pass
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "is not a number of seconds" not in stack_log.read_text():
        time.sleep(0.1)
    assert "CHECKLISTS_CLOCK_OFFSET_SECONDS is not a number of seconds" in stack_log.read_text()
