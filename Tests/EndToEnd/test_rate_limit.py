"""nginx's budget of changes (POSTs) per client address, with the real
numbers of scripts/settings.env: over it a client gets 429 with the
generated page and Retry-After; reading is never limited, and a person's
pace of changes is far inside it. Every other end-to-end test runs without
a practical limit (see `Stack`)."""
import os
import re
import secrets
import time
from pathlib import Path

import pytest
import requests

from stack import ROOT, Stack
from test_caldav import CLIENT_TODO, connect
from visitor import CSRF, Visitor


def budget():
    settings = (ROOT / "scripts/settings.env").read_text()
    rate = int(re.search(r'CHANGES_PER_SECOND="\$\{CHANGES_PER_SECOND:-(\d+)\}"', settings).group(1))
    burst = int(re.search(r'CHANGE_BURST="\$\{CHANGE_BURST:-(\d+)\}"', settings).group(1))
    return rate, burst


@pytest.fixture
def limited():
    running = Stack(change_limit={})
    try:
        yield running.start()
    finally:
        running.stop()


def visitor_directories(stack):
    users = stack.data / "users"
    return [d for shard in users.iterdir() for d in shard.iterdir()] if users.exists() else []


def test_a_person_changing_things_quickly_is_not_limited(limited):
    visitor = Visitor(limited)
    mine = visitor.create_list("Groceries")
    for n in range(20):
        visitor.add_item(mine, f"item {n}")
    token = visitor.csrf()
    for item in re.findall(r'items/(\d+)/toggle ', visitor.get(f"/lists/{mine}").text)[:10]:
        assert visitor.post(f"/lists/{mine}/items/{item}/toggle", csrf=token).status_code == 303


def test_a_burst_of_made_up_visitors_gets_429_with_the_generated_page(limited):
    rate, burst = budget()
    began = time.monotonic()
    statuses = []
    refused = None
    for _ in range(burst + 60):
        # Two requests make a directory for a made-up cookie: the form, then a change.
        cookie = {"Cookie": f"visitor={secrets.token_hex(16)}"}
        form = Visitor(limited).http.get(limited.url("/settings"), headers=cookie)
        assert form.status_code == 200  # reading is never limited
        token = CSRF.search(form.text).group(1)
        response = Visitor(limited).http.post(
            limited.url("/settings"), data={"csrf": token, "OpenLastList": "on"}, headers=cookie,
            allow_redirects=False)
        statuses.append(response.status_code)
        if response.status_code == 429:
            refused = response
    elapsed = time.monotonic() - began
    assert set(statuses) <= {303, 429}
    assert statuses[:burst] == [303] * burst
    assert refused is not None
    assert refused.text == (limited.public / "429.html").read_text()
    assert refused.headers["Retry-After"] == "1"
    assert "Too many changes at once" in refused.text
    accepted = statuses.count(303)
    assert accepted <= burst + 1 + rate * elapsed
    assert len(visitor_directories(limited)) == accepted
    # The budget refills: after a pause a change goes through again.
    time.sleep(2.5 / rate)
    visitor = Visitor(limited)
    assert visitor.post("/settings", {"OpenLastList": "on"}).status_code == 303


def test_a_calendar_apps_changes_share_the_budget_and_its_reads_do_not(limited):
    """A CalDAV client's writes are changes like POSTs: one sending PUTs as
    fast as it can gets 429 past the burst, with nothing stored for them;
    its PROPFINDs and REPORTs, like a browser's GETs, are never limited."""
    rate, burst = budget()
    began = time.monotonic()
    owner = Visitor(limited)
    list_id = owner.list_ids()[0]
    app = connect(owner)
    auth = (app["user"], app["password"])
    statuses = []
    for number in range(burst + 40):
        todo = CLIENT_TODO.replace("client-todo-1", f"burst-{number}")
        response = requests.put(limited.url(f"/dav/lists/{list_id}/burst-{number}.ics"),
                                data=todo.encode(), auth=auth,
                                headers={"Content-Type": "text/calendar", "If-None-Match": "*"})
        statuses.append(response.status_code)
    elapsed = time.monotonic() - began
    assert set(statuses) <= {201, 429}, statuses
    assert 429 in statuses
    accepted = statuses.count(201)
    # As for POSTs: the burst, the one nginx lets through beyond it, and
    # what the rate refilled meanwhile (less the app password's own POST).
    assert burst - 1 <= accepted <= burst + 1 + rate * elapsed
    listed = requests.request("PROPFIND", limited.url(f"/dav/lists/{list_id}/"), auth=auth,
                              headers={"Depth": "1"})
    assert listed.status_code == 207
    assert listed.text.count("burst-") == accepted
    for _ in range(burst + 10):
        assert requests.request("PROPFIND", limited.url("/dav/lists/"), auth=auth,
                                headers={"Depth": "0"}).status_code == 207
