"""The private calendar address through nginx: made in Settings, its feed
read by two independent iCalendar parsers (icalendar, and vobject with its
validation), conditional requests, replaced and wrong secrets answered as
unknown addresses, and the secret in no log. A Chromium screenshot of
Settings with the address.

Due dates and Remind me are set in the visitor's Checklists.plist, as the
backend's own store would write them (the stored file is the interface;
the backend notices a replaced file by its identity).
"""
import datetime
import hashlib
import os
import plistlib
import re
import time

import icalendar
import pytest
import requests
import vobject
from selenium.webdriver.common.by import By

from test_browser import DESKTOP, PHONE, SCREENSHOTS, chromium, profile, wait  # noqa: F401 (profile: fixture)
from visitor import Visitor

ADDRESS = re.compile(r'value="(http://[^"/]+/calendar/([0-9a-f]{64})\.ics)" readonly')
WEBCAL = re.compile(r'href="(webcal://[^"]+)"')


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


def checklists_path(stack, visitor):
    visitor_id = visitor.cookie("visitor").split(".")[0]
    key = hashlib.sha256(visitor_id.encode()).hexdigest()
    return stack.data / "users" / key[:2] / key / "Checklists.plist"


def set_due(stack, visitor, dues):
    """Gives items (by id) a due date and Remind me: {id: (aware datetime or None, remind)}."""
    path = checklists_path(stack, visitor)
    with open(path, "rb") as file:
        stored = plistlib.load(file)
    for checklist in stored["lists"]:
        for item in checklist["items"]:
            if item["id"] in dues:
                due, remind = dues[item["id"]]
                item.pop("dueDate", None)
                item.pop("shouldRemind", None)
                if due is not None:
                    # plistlib writes a naive datetime as UTC.
                    item["dueDate"] = due.astimezone(datetime.timezone.utc).replace(tzinfo=None)
                if remind:
                    item["shouldRemind"] = True
    stored["version"] = max(stored.get("version", 1), 2)
    temporary = path.with_name(".Checklists.plist.test")
    with open(temporary, "wb") as file:
        plistlib.dump(stored, file, fmt=plistlib.FMT_XML)
    os.replace(temporary, path)


def create_address(visitor):
    response = visitor.post("/settings/calendar")
    assert response.status_code == 303, response.status_code
    page = visitor.get("/settings")
    assert page.headers["Referrer-Policy"] == "same-origin"
    found = ADDRESS.search(page.text)
    assert found, page.text
    assert WEBCAL.search(page.text).group(1) == found.group(1).replace("http://", "webcal://", 1)
    return found.group(1), found.group(2)


def feed_path(secret):
    return f"/calendar/{secret}.ics"


def fetch(stack, secret, **headers):
    """What a calendar app sends: no cookie."""
    return requests.get(stack.url(feed_path(secret)), headers=headers, allow_redirects=False)


def check_lines(body: bytes):
    """RFC 5545 §3.1: CRLF line ends, no line longer than 75 octets."""
    assert body.endswith(b"\r\n")
    for line in body.split(b"\r\n")[:-1]:
        assert b"\n" not in line and b"\r" not in line
        assert len(line) <= 75, line
        line.decode("utf-8")  # never folded inside a character


def parse_both(body: bytes):
    """The events by UID, as icalendar reads them; vobject must agree."""
    check_lines(body)
    calendar = icalendar.Calendar.from_ical(body)
    assert str(calendar["VERSION"]) == "2.0"
    assert str(calendar["CALSCALE"]) == "GREGORIAN"
    assert "PRODID" in calendar and str(calendar["X-WR-CALNAME"]) == "Checklists"
    events = {}
    for event in calendar.walk("VEVENT"):
        alarms = event.walk("VALARM")
        assert len(alarms) == 1
        alarm = alarms[0]
        assert str(alarm["ACTION"]) == "DISPLAY"
        assert alarm["TRIGGER"].dt == datetime.timedelta(0)
        assert str(alarm["DESCRIPTION"])
        start = event["DTSTART"].dt
        assert event["DURATION"].dt == datetime.timedelta(minutes=15)
        assert "DTSTAMP" in event
        events[str(event["UID"])] = {
            "summary": str(event["SUMMARY"]), "start": start, "alarm": str(alarm["DESCRIPTION"]),
        }

    # vobject: an independent parser, with its own validation of each component.
    other = vobject.readOne(body.decode("utf-8"), validate=True)
    vevents = list(getattr(other, "vevent_list", []))
    assert {event.uid.value for event in vevents} == set(events)
    for event in vevents:
        mine = events[event.uid.value]
        assert event.summary.value == mine["summary"]
        assert event.dtstart.value == mine["start"]
        assert event.valarm.action.value == "DISPLAY"
        assert event.valarm.trigger.value == datetime.timedelta(0)
    return events


def test_the_feed_has_the_reminders_and_follows_every_change(stack):
    visitor = Visitor(stack)
    list_id = visitor.create_list("Errands, home; etc")
    for text in ("Dentist", "Call the garage, about tyres; then book", "Pharmacy", "Undated",
                 "Quiet", "Yesterday"):
        visitor.add_item(list_id, text)
    soon = now_utc() + datetime.timedelta(hours=2)
    set_due(stack, visitor, {
        1: (soon, True),
        2: (soon + datetime.timedelta(days=1), True),
        3: (soon + datetime.timedelta(days=2), True),
        4: (None, True),
        5: (soon, False),
        6: (now_utc() - datetime.timedelta(days=1), True),
    })
    address, secret = create_address(visitor)
    assert address == stack.url(feed_path(secret))

    response = fetch(stack, secret)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "noindex" in response.headers["X-Robots-Tag"]
    assert response.headers["Cache-Control"] == "private, no-cache"
    assert "Set-Cookie" not in response.headers
    events = parse_both(response.content)
    by_summary = {event["summary"]: (uid, event) for uid, event in events.items()}
    assert set(by_summary) == {
        "Dentist (Errands, home; etc)",
        "Call the garage, about tyres; then book (Errands, home; etc)",
        "Pharmacy (Errands, home; etc)",
    }
    dentist_uid, dentist = by_summary["Dentist (Errands, home; etc)"]
    assert dentist["start"] == soon
    assert dentist["alarm"] == "Dentist"
    for uid in events:
        assert secret not in uid and visitor.cookie("visitor").split(".")[0] not in uid

    # Unchanged: 304 by tag, and by date once a second has passed.
    tag = response.headers["ETag"]
    modified = response.headers["Last-Modified"]
    again = fetch(stack, secret, **{"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["ETag"] == tag
    time.sleep(1.1)
    assert fetch(stack, secret, **{"If-Modified-Since": modified}).status_code == 304
    head = requests.head(stack.url(feed_path(secret)))
    assert head.status_code == 200 and head.headers["ETag"] == tag

    # An edit keeps the UID; checking and deleting take items out.
    # As a person does: the form as shown (its due date, zone and Remind me), a new text.
    form = visitor.get(f"/lists/{list_id}/items/1/edit").text
    shown_due = re.search(r'name="dueDate"[^>]* value="([^"]*)"', form).group(1)
    shown_zone = re.search(r'name="dueDateZone" value="([^"]*)"', form).group(1)
    assert shown_due and 'name="shouldRemind" value="on" checked' in form
    edited = visitor.post(f"/lists/{list_id}/items/1", {
        "text": "Dentist at 4", "dueDate": shown_due, "dueDateZone": shown_zone,
        "shouldRemind": "on"})
    assert edited.status_code == 303, edited.status_code
    changed = fetch(stack, secret, **{"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    events = parse_both(changed.content)
    assert events[dentist_uid]["summary"] == "Dentist at 4 (Errands, home; etc)"
    assert events[dentist_uid]["start"] == soon
    assert visitor.post(f"/lists/{list_id}/items/3/toggle", {"check": "1"}).status_code == 303
    assert visitor.post(f"/lists/{list_id}/items/2/delete").status_code == 303
    events = parse_both(fetch(stack, secret).content)
    assert [event["summary"] for event in events.values()] == ["Dentist at 4 (Errands, home; etc)"]
    assert list(events) == [dentist_uid]


def test_a_replaced_or_wrong_secret_is_an_unknown_address_and_no_log_holds_a_secret(stack):
    visitor = Visitor(stack)
    visitor.add_item(1, "Renew passport")
    set_due(stack, visitor, {1: (now_utc() + datetime.timedelta(days=3), True)})
    _, old = create_address(visitor)
    assert fetch(stack, old).status_code == 200

    unknown = requests.get(stack.url("/no/such/page"))
    assert unknown.status_code == 404

    def is_unknown(response):
        assert response.status_code == 404
        assert response.content == unknown.content
        assert sorted(response.headers) == sorted(unknown.headers)
        return True

    wrong = hashlib.sha256(b"a guess").hexdigest()
    assert is_unknown(fetch(stack, wrong))
    assert is_unknown(fetch(stack, old.upper()))
    assert is_unknown(fetch(stack, old[:-1]))
    assert is_unknown(requests.get(stack.url(f"/calendar/{old}")))

    assert visitor.post("/settings/calendar/replace").status_code == 303
    new = ADDRESS.search(visitor.get("/settings").text).group(2)
    assert new != old
    assert is_unknown(fetch(stack, old))
    assert fetch(stack, new).status_code == 200
    assert len(parse_both(fetch(stack, new).content)) == 1

    assert visitor.post("/settings/calendar/delete").status_code == 303
    assert is_unknown(fetch(stack, new))
    assert "Create Calendar Address" in visitor.get("/settings").text
    assert visitor.post("/settings/calendar").status_code == 303
    latest = ADDRESS.search(visitor.get("/settings").text).group(2)
    assert fetch(stack, latest).status_code == 200

    # Every one of those requests is in nginx's access log, none with a secret.
    log = stack.dir / "logs/access.log"
    secrets = [old, new, latest, wrong, old.upper()]
    # Each nginx worker flushes its own log buffer: wait for the feed's own
    # lines (Settings' posts to /settings/calendar/... would count too early).
    wait_for = lambda: log.exists() and log.read_text().count('"GET /calendar/<hidden> ') >= 9  # noqa: E731
    deadline = time.monotonic() + 5  # nginx flushes its log buffer every second
    while not wait_for() and time.monotonic() < deadline:
        time.sleep(0.1)
    access = log.read_text()
    calendar_lines = [line for line in access.splitlines() if '"GET /calendar/<hidden> ' in line]
    assert len(calendar_lines) >= 9, access
    assert {line.split('"')[2].split()[0] for line in calendar_lines} >= {"200", "404"}
    stack.stop_backend()
    backend = (stack.dir / "logs/backend.log").read_text()
    errors = (stack.dir / "logs/error.log").read_text() if (stack.dir / "logs/error.log").exists() else ""
    for secret in secrets:
        assert secret not in access
        assert secret not in backend
        assert secret not in errors


@pytest.mark.parametrize("javascript", [False, True], ids=["without-js", "with-js"])
def test_settings_with_the_calendar_address_in_chromium(stack, profile, javascript):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver = chromium(profile, javascript=javascript)
    try:
        driver.get(stack.url("/settings"))
        driver.find_element(By.XPATH, "//button[text()='Create Calendar Address']").click()
        wait(driver, lambda d: d.find_element(By.ID, "calendar-address"))
        field = driver.find_element(By.ID, "calendar-address")
        address = field.get_attribute("value")
        assert re.fullmatch(rf"{re.escape(stack.url('/calendar/'))}[0-9a-f]{{64}}\.ics", address)
        assert field.get_attribute("readonly") is not None
        subscribe = driver.find_element(By.LINK_TEXT, "Subscribe")
        assert subscribe.get_attribute("href") == address.replace("http://", "webcal://", 1)
        copy = driver.find_element(By.CSS_SELECTOR, "button[data-copy]")
        # The Copy button needs the script; without it the field is there to select.
        assert copy.is_displayed() == javascript
        if javascript:
            copy.click()
            status = driver.find_element(By.CSS_SELECTOR, ".copy-status")
            wait(driver, lambda d: status.text.strip() != "")
            for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                driver.set_window_size(width, height)
                driver.get(stack.url("/settings#calendar"))
                driver.execute_script("document.getElementById('calendar').scrollIntoView()")
                path = SCREENSHOTS / f"settings-calendar-{label}.png"
                driver.save_screenshot(str(path))
                assert path.stat().st_size > 1000
                scroll = driver.execute_script("return document.documentElement.scrollWidth")
                client = driver.execute_script("return document.documentElement.clientWidth")
                assert scroll <= client, f"Settings scrolls sideways at {label} width"
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
            for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                driver.set_window_size(width, height)
                driver.get(stack.url("/settings#calendar"))
                driver.execute_script("document.getElementById('calendar').scrollIntoView()")
                driver.save_screenshot(str(SCREENSHOTS / f"settings-calendar-dark-{label}.png"))
    finally:
        driver.quit()
