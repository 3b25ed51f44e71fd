"""Two hosts on one PostgreSQL database, both reading a list the moment
its scheduled reset falls due (issue 30): the reset is applied exactly once
(one write: the list's change log moves one revision, the document one
version, and the boundary applied is stored), and every read, on either
host, is answered 200 with the list unchecked.

Both hosts' clocks are moved past the boundary together
(CHECKLISTS_CLOCK_OFFSET_SECONDS, test-only; see test_scheduled_reset.py)
and each is sent many GETs of the owner's pages at once, straight to its
FastCGI port: more of one owner's readers than a host lets wait for that
owner's lock (DocumentLock.maximumThreads), so that some find it busy. Such
a reader answers with the reset made in memory and leaves the write to the
lock's holder (ChecklistStore.loadVersioned); it used to answer 503."""
import datetime
import plistlib
import threading

from hosts import running_hosts
from visitor import Visitor

HOSTS = 2
READERS_PER_HOST = 12
UTC = datetime.timezone.utc


def set_clock(monkeypatch, instant):
    offset = (instant - datetime.datetime.now(UTC)).total_seconds()
    monkeypatch.setenv("CHECKLISTS_CLOCK_OFFSET_SECONDS", str(int(offset)))


def stored(stack):
    """The owner's stored lists (the one Checklists.plist in the database)
    and the document's version."""
    name = stack.store.split("?")[0].rsplit("/", 1)[1]
    rows = stack.postgres.psql(
        "SELECT encode(bytes, 'hex') || ' ' || version FROM documents WHERE name = 'Checklists.plist'",
        name).split()
    assert len(rows) == 2, rows
    return plistlib.loads(bytes.fromhex(rows[0])), int(rows[1])


def read_at_once(stack, cookies, paths):
    """GETs of `paths` sent to every host together (READERS_PER_HOST a host),
    released at one moment; returns (host, path, status, body) for each."""
    jobs = [(host, paths[number % len(paths)]) for host in range(stack.count) for number in range(READERS_PER_HOST)]
    start = threading.Barrier(len(jobs))
    answers = [None] * len(jobs)

    def read(index, host, path):
        start.wait()
        try:
            status, _, body = stack.fastcgi(host, "GET", path, cookies)
        except (OSError, ConnectionError) as error:
            status, body = f"no answer: {error}", ""
        answers[index] = (host, path, status, body)

    threads = [threading.Thread(target=read, args=(index, host, path)) for index, (host, path) in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_two_hosts_reading_at_a_boundary_reset_the_list_once(request, monkeypatch):
    boundary = datetime.datetime.now(UTC).replace(hour=6, minute=0, second=0, microsecond=0) \
        + datetime.timedelta(days=1)
    set_clock(monkeypatch, boundary - datetime.timedelta(minutes=3))
    with running_hosts("postgres", request, backends=HOSTS) as stack:
        owner = Visitor(stack)
        chores = owner.create_list("Chores")
        for text in ("Dishes", "Laundry", "Bins"):
            owner.add_item(chores, text)
        saved = owner.post(f"/lists/{chores}", {"name": "Chores", "icon": "folder", "reset": "daily",
                                                 "resetTime": "06:00"})
        assert saved.status_code == 303
        assert owner.post(f"/lists/{chores}/check-all").status_code == 303
        before, before_version = stored(stack)
        [list_before] = [found for found in before["lists"] if found["id"] == chores]
        assert [item["checked"] for item in list_before["items"]] == [True] * 3
        revision = list_before["changes"]["revision"]

        set_clock(monkeypatch, boundary + datetime.timedelta(seconds=30))
        for host in range(HOSTS):
            stack.restart_backend(host)
        cookies = owner.http.cookies.get_dict()
        answers = read_at_once(stack, cookies, [f"/lists/{chores}", "/lists"])

        refused = [(host, path, status) for host, path, status, _ in answers if status != 200]
        assert refused == [], f"{refused}\n{stack.logged_errors()}"
        for host, path, _, body in answers:
            if path == f"/lists/{chores}":
                assert body.count("aria-pressed=false") == 3 and "aria-pressed=true" not in body, (host, body)
                assert "Resets every day at 06:00; next: Tomorrow 06:00" in body, (host, body)
            else:
                assert "3 Remaining" in body, (host, body)

        after, after_version = stored(stack)
        [list_after] = [found for found in after["lists"] if found["id"] == chores]
        assert [item["checked"] for item in list_after["items"]] == [False] * 3
        assert list_after["lastReset"] == boundary.replace(tzinfo=None)
        assert list_after["changes"]["revision"] == revision + 1, "one reset written, once"
        assert after_version != before_version

        # Read again on both: nothing more is written.
        again = read_at_once(stack, cookies, [f"/lists/{chores}"])
        assert {status for _, _, status, _ in again} == {200}
        assert stored(stack) == (after, after_version)
