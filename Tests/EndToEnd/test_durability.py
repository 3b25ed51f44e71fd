"""Every acknowledged change is on the disk before its answer, on every
write path, proven by the trace (see durability.py).

The real backend runs under `strace` behind nginx while visitors make every
kind of change (a new visitor's first change, the second and the
hundredth; items, lists, Undo, settings, the calendar address, share
links and an edit link's change, link codes and signing out, an import);
the checker then replays the trace and fails on any answer written before
what its change wrote (or what the start-up wrote) reached the disk, and
prints the write paths it saw: each kind of file and directory, first
written or replaced (steady state), and by which mechanism; each of those
the stream must take is required. Each scenario of test_scenarios.py runs
on a traced backend of its own and is checked the same way. On the
PostgreSQL store the same stream must be acknowledged only after the
server answered its `COMMIT`, and nothing is written in the data directory.
"""
import inspect
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

import durability
import test_scenarios
from stack import Stack
from test_devices import SIGN_OUT, make_code, redeem
from test_sharing import CSRF as SHARED_CSRF, NONCE, link_field
from test_undo import UNDO
from visitor import Visitor

ROW = re.compile(r'formaction=(\d+)/items/(\d+)/toggle ')
DIGEST = re.compile(r'name="digest" value="([0-9a-f]{64})"')

# The write paths the stream must take: (what, how). A change to the
# product that stops taking one (or the stream that stops reaching it)
# fails here instead of going unchecked.
CHECKLISTS = "users/<2>/<64>/Checklists.plist"
OWNED = ["Checklists.plist", "Preferences.plist", "Devices.plist", "Shares.plist", "Calendar.secret",
         "PendingImport.plist"]
REQUIRED = {(f"users/<2>/<64>/{name}", how) for name in OWNED for how in ("first", "steady state")
            if (name, how) != ("PendingImport.plist", "steady state")} | {
    ("users/<2>/<64>/Calendar.secret", "removed"), ("users/<2>/<64>/PendingImport.plist", "removed"),
    ("secret", "first"),
    ("users/", "first"), ("users/<2>/", "first"), ("users/<2>/<64>/", "first"),
} | {(f"{index}/", "first") for index in ("calendars", "browsers", "links", "shares")} | {
    (f"{index}/<2>/", "first") for index in ("calendars", "browsers", "links", "shares")} | {
    (f"{index}/<2>/<64>", how) for index in ("calendars", "links", "shares") for how in ("first", "removed")} | {
    ("browsers/<2>/<64>", "first")}
# Checklists.plist's three ways: a new file renamed into place (the first
# write), a new file exchanged with the old one (the second, or whenever the
# spare cannot be reused), the spare rewritten and exchanged (from then on).
REQUIRED_MECHANISMS = {
    (CHECKLISTS, "first"): {"rename of a new file"},
    (CHECKLISTS, "steady state"): {"exchange of a new file", "exchange of a rewritten file"},
}


def traced(stack: Stack, trace: Path, size=4096):
    wrapper = stack.dir / "traced-backend"
    wrapper.write_text("#!/bin/sh\nexec " + " ".join(f'"{part}"' for part in durability.command(
        trace, stack.binary, size)) + ' "$@"\n')
    wrapper.chmod(0o755)
    stack.binary = wrapper


def stop_traced(stack: Stack):
    """SIGTERM to the backend, strace's child (strace exits with it, its log complete)."""
    if stack.backend is None:
        return
    for child in children(stack.backend.pid):
        os.kill(child, signal.SIGTERM)
    try:
        stack.backend.wait(15)
    except subprocess.TimeoutExpired:
        return  # stop() kills it
    stack.backend = None


def children(pid):
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


@pytest.fixture
def traced_stack():
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (scripts/install-deps test installs it)")
    stack = Stack()
    trace = stack.dir / "trace.txt"
    traced(stack, trace)
    try:
        yield stack, trace
    finally:
        stop_traced(stack)
        stack.stop()


def ok(response, status=303):
    assert response.status_code == status, (response.request.method, response.request.url,
                                            response.status_code, response.text[:300])
    return response


def item_ids(visitor, list_id):
    return [int(item) for _, item in ROW.findall(visitor.get(f"/lists/{list_id}").text)]


def every_kind_of_change(stack):
    """Visitors make every kind of change; returns how many were acknowledged."""
    made = 0
    by_visitor = {}

    def tally(visitor):
        nonlocal made
        made += 1
        by_visitor[id(visitor)] = by_visitor.get(id(visitor), 0) + 1

    def change(visitor, path, fields=None, status=303, **kwargs):
        tally(visitor)
        return ok(visitor.post(path, fields, **kwargs), status)

    owner = Visitor(stack)
    change(owner, "/lists/1/items", {"text": "milk"})                    # a new visitor's first change
    change(owner, "/lists/1/items", {"text": "bread"})                   # the second
    for text in ("eggs", "tea", "jam"):
        change(owner, "/lists/1/items", {"text": text})
    milk, bread, eggs, tea, jam = item_ids(owner, 1)
    change(owner, f"/lists/1/items/{milk}/toggle", {"check": "1"})
    change(owner, f"/lists/1/items/{bread}", {"text": "rye bread", "dueDate": "2031-01-03T10:00",
                                               "shouldRemind": "on"})
    change(owner, f"/lists/1/items/{tea}/move", {"before": milk})
    change(owner, "/lists/1/sort", {"sort": "dueDate"})
    change(owner, "/lists/1/check-all")
    change(owner, "/lists/1/uncheck-all")
    change(owner, f"/lists/1/items/{jam}/toggle", {"check": "1"})
    removed = change(owner, "/lists/1/remove-checked")
    change(owner, UNDO.search(owner.get(removed.headers["Location"]).text).group(1))
    deleted = change(owner, f"/lists/1/items/{eggs}/delete")
    change(owner, UNDO.search(owner.get(deleted.headers["Location"]).text).group(1))
    trip = int(change(owner, "/lists", {"name": "Trip", "icon": "trips"}).headers["Location"].rsplit("/", 1)[1])
    change(owner, f"/lists/{trip}", {"name": "Summer trip", "icon": "folder"})
    gone = change(owner, f"/lists/{trip}/delete")
    change(owner, UNDO.search(owner.get(gone.headers["Location"]).text).group(1))
    change(owner, "/settings", {"OpenLastList": "on", "HideCheckedItems": "on"})
    change(owner, "/settings", {"OpenLastList": "on", "CheckedItemsLast": "on", "TimeZone": "Europe/Berlin"})
    change(owner, "/settings/reset")
    change(owner, "/settings/calendar")
    change(owner, "/settings/calendar/replace")
    change(owner, "/settings/calendar/delete")
    change(owner, "/settings/calendar")
    change(owner, f"/lists/{trip}/share/read-only")
    change(owner, f"/lists/1/share/edit")
    token = link_field("edit").search(owner.get("/lists/1/edit").text).group(2)
    sharee = stack.session()
    page = sharee.get(stack.url(f"/s/{token}")).text
    tally(sharee)
    ok(sharee.post(stack.url(f"/s/{token}/items"), data={
        "text": "from a friend", "nonce": NONCE.search(page).group(1), "csrf": SHARED_CSRF.search(page).group(1)},
        allow_redirects=False))
    change(owner, f"/lists/{trip}/share/read-only/revoke")
    tally(owner)
    code, _, _ = make_code(owner)                                        # 200, with the code
    phone = Visitor(stack)
    tally(phone)
    ok(redeem(phone, code))
    change(phone, "/lists/1/items", {"text": "from the phone"})
    tally(owner)
    code, _, _ = make_code(owner)
    tablet = Visitor(stack)
    tally(tablet)
    ok(redeem(tablet, code))
    ids = SIGN_OUT.findall(owner.get("/settings/devices").text)
    change(owner, f"/settings/devices/{ids[-1]}/sign-out")
    change(owner, "/settings/devices/sign-out-others")
    tally(owner)
    uploaded = ok(owner.http.post(stack.url("/settings/import"), data={"csrf": owner.csrf()},
                                  files={"file": ("lists.md", b"# Camping\n- [ ] tent\n- [x] map\n", "text/markdown")},
                                  allow_redirects=False))
    assert uploaded.headers["Location"] == "/settings/import/preview"
    digest = DIGEST.search(owner.get("/settings/import/preview").text).group(1)
    change(owner, "/settings/import/confirm", {"digest": digest})
    tally(owner)
    ok(owner.http.post(stack.url("/settings/import"), data={"csrf": owner.csrf()},
                       files={"file": ("more.md", b"# More\n- [ ] one\n", "text/markdown")}, allow_redirects=False))
    change(owner, "/settings/import/cancel")
    change(owner, f"/lists/1/share/edit/revoke")
    while by_visitor[id(owner)] < 100:                                  # up to the owner's hundredth change
        change(owner, f"/lists/1/items/{milk}/toggle")
    assert by_visitor[id(owner)] == 100
    newcomer = Visitor(stack)
    change(newcomer, "/settings", {"OpenLastList": "on", "HideCheckedItems": "on"})   # a first change in Preferences
    return made


ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def publish(capsys, name, text):
    """Prints the report past pytest's capture (so `make test` shows it) and
    keeps it in Tests/EndToEnd/artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / name).write_text(text + "\n")
    with capsys.disabled():
        print(f"\n{text}")


def test_every_acknowledged_change_reached_the_disk_before_its_answer(traced_stack, capsys):
    stack, trace = traced_stack
    stack.start()
    began = time.monotonic()
    made = every_kind_of_change(stack)
    stop_traced(stack)
    took = time.monotonic() - began
    report = durability.check(trace, str(stack.data))
    publish(capsys, "durability-files.txt",
            f"Durability, file store: {made} changes in {took:.1f} s under strace\n{report.text()}")
    assert not report.faults, report.text()
    assert not report.silent, report.text()
    posts = [r for r in report.acknowledged if r.method == "POST"]
    assert len(posts) == made, (len(posts), made)
    missing = REQUIRED - report.cells()
    assert not missing, f"write paths the stream no longer takes: {sorted(missing)}\n{report.text()}"
    for cell, mechanisms in REQUIRED_MECHANISMS.items():
        assert mechanisms <= report.coverage[cell], (cell, report.coverage[cell])


SCENARIOS = [name for name, function in vars(test_scenarios).items() if name.startswith("test_")
             and list(inspect.signature(function).parameters) == ["stack"]]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_scenario_suite_under_the_checker(traced_stack, scenario):
    """Each of test_scenarios' scenarios (those that need only a stack) on a
    traced backend of its own: every change it makes is checked too."""
    stack, trace = traced_stack
    getattr(test_scenarios, scenario)(stack.start())
    stop_traced(stack)
    report = durability.check(trace, str(stack.data))
    assert not report.faults, report.text()
    print(f"\n{scenario}: {report.text().splitlines()[0]}")


def test_on_postgresql_every_change_is_answered_after_its_commit_and_no_file_is_written(postgres_cluster, capsys):
    """The same stream on the PostgreSQL store: each statement a change sends
    that writes is in a transaction the server reported ended, committed,
    before the answer (read from the client's side of the protocol, with
    `-s` large enough for whole messages); the server's `synchronous_commit`
    is on for the backend's role and database, so that report means the
    commit was flushed; and the data directory stays as it was, empty."""
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (scripts/install-deps test installs it)")
    database = postgres_cluster.create_database("durability")
    settings = postgres_cluster.psql("SHOW synchronous_commit; SHOW fsync", database).split()
    assert settings == ["on", "on"], settings
    stack = Stack()
    trace = stack.dir / "trace.txt"
    traced(stack, trace, size=1 << 20)
    stack.backend_arguments = ["--store", postgres_cluster.conninfo(database)]
    try:
        stack.start()
        made = every_kind_of_change(stack)
        stop_traced(stack)
        report = durability.check_postgres(trace, str(stack.data))
        publish(capsys, "durability-postgresql.txt",
                f"Durability, PostgreSQL store: {made} changes\n{report.text()}")
        assert not report.faults, report.text()
        assert not report.silent, report.text()
        assert len([r for r in report.acknowledged if r.method == "POST"]) == made
        assert list(stack.data.iterdir()) == []
    finally:
        stop_traced(stack)
        stack.stop()
