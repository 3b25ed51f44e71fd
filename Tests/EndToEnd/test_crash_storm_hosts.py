"""Crash storm across hosts: 16 visitors post changes through nginx (the
changes of test_crash_storm.py: add, toggle, rename, delete and undo, move,
Check all, Uncheck all, Remove checked) while random backend hosts are
killed with SIGKILL and restarted, 100 times (CHECKLISTS_SOAK_KILLS=N
raises it), and on PostgreSQL the database is restarted twice with
`pg_ctl restart -m immediate`. A change is acknowledged when its 303
arrived; one that got 502/503/504 or no answer is not, and the visitor
reads its list back before going on. Afterwards every acknowledged change
is there, read through nginx and through each host's own port, and no
visitor sees another's lists (each visitor's names start with its own
prefix)."""
import collections
import os
import random
import re
import subprocess
import time

import pytest

from hosts import STORE_KINDS, running_hosts
from test_crash_storm import ITEM, Simulated, posting_while

KILLS = int(os.environ.get("CHECKLISTS_SOAK_KILLS", "100"))
VISITORS = 16
HOSTS = 3
POSTGRES_RESTARTS = 2
# What a change may get while a host or the database is down, besides its 303.
NOT_ACKNOWLEDGED = {502, 503, 504, "no answer"}


@pytest.fixture(params=STORE_KINDS)
def hosts(request):
    with running_hosts(request.param, request, backends=HOSTS) as running:
        yield running


class HostVisitor(Simulated):
    """A storm visitor that also keeps what each refused change got."""

    def __init__(self, stack, number):
        super().__init__(stack, number)
        self.refusals = collections.Counter()
        self.refused_at = []  # (sent, answered, what) on the monotonic clock

    def post(self, path, fields):
        sent = time.monotonic()
        response = super().post(path, fields)
        what = "no answer" if response is None else response.status_code
        if what != 303:
            self.refusals[what] += 1
            self.refused_at.append((sent, time.monotonic(), what))
        return response


def verify_on_every_host(stack, simulated, everyone):
    """The visitor's list and All Lists, from each host's own port: what the
    visitor knows for sure, and nobody else's lists."""
    cookies = simulated.visitor.http.cookies.get_dict()
    expected = (simulated.name, list(simulated.items.items()))
    others = [other.prefix for other in everyone if other is not simulated]
    for host in range(stack.count):
        status, _, page = stack.fastcgi(host, "GET", f"/lists/{simulated.list_id}", cookies)
        assert status == 200, (host, status)
        name = re.search(r"<h1>.*?</span>(.*?)</h1>", page, re.S).group(1)
        items = [(int(i), [text, checked == "true"]) for i, checked, text in ITEM.findall(page)]
        assert (name, items) == expected, f"host {host} differs for visitor {simulated.number}"
        status, _, all_lists = stack.fastcgi(host, "GET", "/lists", cookies)
        assert status == 200, (host, status)
        titles = re.findall(r'<span class="row-title">(.*?)</span>', all_lists)
        assert titles.count(simulated.name) == 1, (host, titles)
        assert not [title for title in titles if title.startswith(tuple(others))], (host, titles)


def storm(stack, rng, stop, windows):
    """KILLS kills of random hosts (now and then two at once), each
    restarted at once; the database restarted POSTGRES_RESTARTS times
    along the way when there is one. Appends to `windows` each (start, end)
    during which a host or the database was down; returns the number of
    kills."""
    restarts = {KILLS * (n + 1) // (POSTGRES_RESTARTS + 1) for n in range(POSTGRES_RESTARTS)}
    kills = 0
    while kills < KILLS and not stop.is_set():
        time.sleep(rng.uniform(0.005, 0.05))
        victims = rng.sample(range(stack.count), 2 if rng.random() < 0.2 and KILLS - kills > 1 else 1)
        down = time.monotonic()
        for host in victims:
            stack.kill_backend(host)
        for host in victims:
            stack.restart_backend(host)
        windows.append((down, time.monotonic()))
        before, kills = kills, kills + len(victims)
        if stack.postgres is not None and any(before < at <= kills for at in restarts):
            down = time.monotonic()
            stack.postgres.restart_immediate()
            windows.append((down, time.monotonic()))
    return kills


def outside(windows, refused_at, slack=0.5):
    """The refusals that came when no host and no database was down: sent
    after a window ended, or answered before the next began (`slack`
    seconds either side, for an answer on its way)."""
    return [(sent, answered, what) for sent, answered, what in refused_at
            if not any(start - slack <= answered and sent <= end + slack for start, end in windows)]


def test_acknowledged_changes_survive_killed_hosts(hosts):
    began = time.monotonic()
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    visitors = [HostVisitor(hosts, number) for number in range(VISITORS)]
    for simulated in visitors:
        simulated.setup()
    windows = []
    kills, errors, threads = posting_while(visitors, rng, lambda stop: storm(hosts, rng, stop, windows))
    assert errors == []
    assert not [t for t in threads if t.is_alive()], "a visitor hung"
    refusals = sum((s.refusals for s in visitors), collections.Counter())
    assert set(refusals) <= NOT_ACKNOWLEDGED, (
        f"changes refused for another reason than a host down: {refusals}\n{hosts.logged_errors()}")
    refused_at = sorted(answer for s in visitors for answer in s.refused_at)
    down = sum(end - start for start, end in windows)
    print(f"{len(refused_at)} changes not acknowledged, all while a host or the database was down "
          f"({len(windows)} windows, {down:.1f} s of {time.monotonic() - began:.1f} s)")
    assert outside(windows, refused_at) == [], "refused while every host and the database were up"
    acknowledged = sum(s.acknowledged for s in visitors)
    assert kills == KILLS
    assert acknowledged > KILLS, "the storm must interleave with real changes"
    for simulated in visitors:
        simulated.verify(visitors)
        verify_on_every_host(hosts, simulated, visitors)
    if hosts.stores_files:
        check = subprocess.run([str(hosts.binary), "check", "--data", str(hosts.data)],
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
    kinds = sum((s.kinds for s in visitors), collections.Counter())
    print(f"{kills} kills across {HOSTS} hosts, {acknowledged} acknowledged changes, "
          f"not acknowledged: {dict(refusals)}, in {time.monotonic() - began:.1f} s; acknowledged: {dict(kinds)}")
    assert all(kinds[kind] > 0 for kind in (
        "undo", "/lists/N/items/N/move", "/lists/N/check-all", "/lists/N/uncheck-all",
        "/lists/N/remove-checked", "/lists/N/items/N/delete")), kinds
