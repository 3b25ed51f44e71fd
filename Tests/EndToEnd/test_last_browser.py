"""The last browser of an owner, through nginx, as a browser without
JavaScript uses it: while a share link or the calendar address still reach
the lists, one press of Sign Out never leaves them to nobody. The press
asks first and changes nothing; the confirmation ends every share link and
the calendar address with the browser (issue 24, point 2).
"""
import re

import requests

from test_devices import make_code, redeem
from visitor import Visitor

SHARE = re.compile(r'id="share-read-only" value="http://[^"/]+/s/([0-9a-f]{32})"')
CALENDAR = re.compile(r'/calendar/([0-9a-f]{64})\.ics')


def anonymous_status(stack, path):
    """What someone with the link and no cookie gets (a calendar app, a friend)."""
    return requests.get(stack.url(path), allow_redirects=False).status_code


def reached_from_outside(owner):
    """Gives the owner's list 1 a read-only link and a calendar address;
    returns the two addresses."""
    owner.add_item(1, "Milk")
    assert owner.post("/lists/1/share/read-only").status_code == 303
    token = SHARE.search(owner.get("/lists/1/edit").text).group(1)
    assert owner.post("/settings/calendar").status_code == 303
    secret = CALENDAR.search(owner.get("/settings").text).group(1)
    return f"/s/{token}", f"/calendar/{secret}.ics"


def data_files(stack):
    return {str(p.relative_to(stack.data)): p.read_bytes()
            for p in stack.data.rglob("*") if p.is_file() and not p.name.endswith(".lock")}


def sees_milk(visitor):
    return "Milk" in visitor.get("/lists/1").text


def test_one_press_never_signs_out_the_last_browser_while_links_reach_its_lists(stack):
    owner = Visitor(stack)
    share, calendar = reached_from_outside(owner)
    devices = owner.get("/settings/devices").text
    assert 'action="/settings/devices/1/sign-out"' in devices, "the share link wrote Devices.plist"

    before = data_files(stack)
    asked = owner.post("/settings/devices/1/sign-out")
    assert asked.status_code == 200, (asked.status_code, asked.headers.get("Location"))
    assert "share link" in asked.text and "calendar address" in asked.text
    assert data_files(stack) == before, "asking changed nothing"
    assert sees_milk(owner)
    assert anonymous_status(stack, share) == 200 and anonymous_status(stack, calendar) == 200

    confirmed = owner.post("/settings/devices/1/sign-out", {"confirm": "yes"})
    assert confirmed.status_code == 303, confirmed.status_code
    assert anonymous_status(stack, share) == 404, "the share link ended with the last browser"
    assert anonymous_status(stack, calendar) == 404, "so did the calendar address"
    assert not sees_milk(owner)


def test_sign_out_everywhere_else_then_this_browser_asks_as_well(stack):
    owner = Visitor(stack)
    share, calendar = reached_from_outside(owner)
    code, _, _ = make_code(owner)
    phone = Visitor(stack)
    assert redeem(phone, code).status_code == 303
    assert owner.post("/settings/devices/sign-out-others").status_code == 303
    assert not sees_milk(phone)

    asked = owner.post("/settings/devices/1/sign-out")
    assert asked.status_code == 200, asked.status_code
    assert sees_milk(owner)
    assert anonymous_status(stack, share) == 200 and anonymous_status(stack, calendar) == 200
