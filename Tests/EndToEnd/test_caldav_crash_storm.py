"""CalDAV crash storm: four calendar apps (one app password each, on four
owners) PUT and DELETE to-dos through nginx while the backend is killed
with SIGKILL at random moments and restarted, CALDAV_KILLS times (default
30). Afterwards every PUT answered 201/204 is there with what it wrote and
every DELETE answered 204 is gone (a change cut off by a kill may or may
not be in, but nothing else), every resource's ETag is the hash of the
bytes it serves (GET, REPORT and PROPFIND agree), and each collection's
sync token is stable across a restart and changes exactly when its
content does."""
import os
import random
import signal
import subprocess
import threading
import time

import requests

import calendar_app
from calendar_app import Collection, prop, strong_etag_of
from test_crash_storm import wait_until_serving
from visitor import Visitor

KILLS = int(os.environ.get("CALDAV_KILLS", "30"))
APPS = 4
TODO = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Storm//EN\r\nBEGIN:VTODO\r\nUID:{uid}\r\n" \
       "DTSTAMP:20250101T000000Z\r\nSUMMARY:{summary}\r\nX-STORM:{summary}\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"


class CalendarApp:
    """One app's writer and what it knows for sure: for each resource,
    the summary it last saw acknowledged (None: deleted), and the summaries
    a change cut off may have left instead."""

    def __init__(self, stack, number):
        self.number = number
        owner = Visitor(stack)
        self.list_id = owner.list_ids()[0]
        app = calendar_app.connect(owner)
        self.collection = Collection(stack.url(""), f"/dav/lists/{self.list_id}/", (app["user"], app["password"]))
        self.http = requests.Session()
        self.http.auth = self.collection.auth
        self.known = {}  # resource name -> acknowledged summary, None once deleted
        self.possible = {}  # resource name -> summaries a cut-off change may have left
        self.acknowledged = self.cut_off = 0
        self.counter = 0

    def url(self, name):
        return self.collection.base_url + self.collection.path + name

    def step(self, rng):
        live = [name for name, summary in self.known.items() if summary is not None and name not in self.possible]
        self.counter += 1
        if not live or rng.random() < 0.5:
            name = f"a{self.number}-{self.counter}.ics"
            summary = f"app {self.number} to-do {self.counter}"
            self.send(name, summary, "PUT", {"If-None-Match": "*"}, 201, TODO.format(uid=name, summary=summary))
        elif rng.random() < 0.6:
            name = rng.choice(live)
            summary = f"app {self.number} edit {self.counter}"
            self.send(name, summary, "PUT", {}, 204, TODO.format(uid=name, summary=summary))
        else:
            self.send(rng.choice(live), None, "DELETE", {}, 204, None)

    def send(self, name, summary, method, headers, success, body):
        try:
            answer = self.http.request(method, self.url(name), data=body and body.encode(), timeout=5,
                                       headers={"Content-Type": "text/calendar", **headers})
            status = answer.status_code
        except requests.RequestException:
            status = None
        if status == success:
            self.acknowledged += 1
            self.known[name] = summary
            self.possible.pop(name, None)
        else:
            assert status in (None, 502, 503, 504), (method, name, status)
            self.cut_off += 1
            self.possible.setdefault(name, {self.known.get(name)}).add(summary)
            self.known.setdefault(name, None)
            time.sleep(0.01)  # the backend is restarting: do not spin on nginx's 502s

    def verify(self):
        served = {href.rsplit("/", 1)[1]: data for href, (_, data) in self.collection.read().items()}
        for name, summary in self.known.items():
            allowed = self.possible.get(name, {summary})
            found = prop(served[name], "SUMMARY") if name in served else None
            assert found in allowed, (self.number, name, found, allowed)
        assert set(served) <= set(self.known), set(served) - set(self.known)


def check_tags(collection):
    """Every resource's ETag is its served bytes' hash, the same by GET,
    REPORT and PROPFIND."""
    reported = collection.read()
    listed = collection.request("PROPFIND", '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>')
    assert listed.status_code == 207
    for href, (etag, _) in reported.items():
        status, header, body = collection.get(href)
        assert status == 200 and header == etag == strong_etag_of(body), (href, header, etag)
        assert f"<d:getetag>{etag}</d:getetag>".replace('"', "&quot;") in listed.text or etag in listed.text, href
    return {href: etag for href, (etag, _) in reported.items()}


def kill_and_restart(stack):
    stack.backend.send_signal(signal.SIGKILL)
    stack.backend.wait()
    stack.backend = None
    stack.start_backend()
    wait_until_serving(stack)


def test_acknowledged_caldav_writes_survive_kills_with_consistent_etags_and_tokens(stack):
    rng = random.Random(int(os.environ.get("SEED", "2028")))
    apps = [CalendarApp(stack, number) for number in range(APPS)]
    stop = threading.Event()
    errors = []

    def write(app, seed):
        local = random.Random(seed)
        try:
            while not stop.is_set():
                app.step(local)
        except Exception as error:  # reported below, with the app
            errors.append((app.number, repr(error)))
            stop.set()

    threads = [threading.Thread(target=write, args=(app, rng.random())) for app in apps]
    for thread in threads:
        thread.start()
    try:
        for _ in range(KILLS):
            if stop.is_set():
                break
            time.sleep(rng.uniform(0.02, 0.15))
            kill_and_restart(stack)
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
    assert errors == []
    acknowledged = sum(app.acknowledged for app in apps)
    assert acknowledged > KILLS, "the storm must interleave with real changes"
    for app in apps:
        app.verify()

    # Tags: the hash of what is served, and unchanged by a restart; the
    # token too, while nothing changes.
    before = [(check_tags(app.collection), app.collection.token()) for app in apps]
    kill_and_restart(stack)
    after = [(check_tags(app.collection), app.collection.token()) for app in apps]
    assert after == before

    # The token changes when content does: a to-do written back as it is
    # served changes neither it nor any tag; an edit changes it and that
    # resource's tag only.
    first = apps[0]
    tags, token = after[0]
    href = next(iter(tags))
    _, etag, served = first.collection.get(href)
    same = first.http.put(first.collection.base_url + href, data=served, timeout=10,
                          headers={"Content-Type": "text/calendar", "If-Match": etag})
    assert same.status_code == 204
    assert (check_tags(first.collection), first.collection.token()) == (tags, token)
    edited = first.http.put(first.collection.base_url + href, timeout=10, headers={"Content-Type": "text/calendar"},
                            data=TODO.format(uid=prop(served.decode(), "UID"), summary="edited at last").encode())
    assert edited.status_code == 204
    new_tags = check_tags(first.collection)
    assert first.collection.token() != token
    assert {h for h in tags if new_tags[h] != tags[h]} == {href}

    check = subprocess.run([str(stack.binary), "check", "--data", str(stack.data)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    print(f"{KILLS} kills, {acknowledged} acknowledged PUT/DELETE, "
          f"{sum(app.cut_off for app in apps)} cut off")


def test_a_to_do_written_back_as_served_keeps_its_tag(stack):
    """What a client that saves a to-do it did not change sends: the same
    bytes, the same tag, the same token (the place in the list used to
    move the first time)."""
    app = CalendarApp(stack, 0)
    name = "round-trip.ics"
    put = app.http.put(app.url(name), data=TODO.format(uid=name, summary="as written").encode(), timeout=10,
                       headers={"Content-Type": "text/calendar", "If-None-Match": "*"})
    assert put.status_code == 201
    _, etag, served = app.collection.get(app.collection.path + name)
    token = app.collection.token()
    again = app.http.put(app.url(name), data=served, timeout=10,
                         headers={"Content-Type": "text/calendar", "If-Match": etag})
    assert again.status_code == 204
    assert app.collection.get(app.collection.path + name)[1:] == (etag, served)
    assert app.collection.token() == token
