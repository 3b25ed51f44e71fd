"""Crash storm: 16 visitors post changes through nginx while the backend is
killed with SIGKILL at random moments and restarted, 200 times (KILLS=N
changes it). The changes: add, toggle, rename, delete (often undone at once),
move an item before or after another, Check all, Uncheck all, Remove checked
(often undone). Every change whose 303 arrived is there afterwards, each
list holds exactly the items it should in exactly the order it should,
every file passes `checklists check`, and no visitor sees another's data."""
import collections
import os
import random
import re
import signal
import subprocess
import threading
import time

import requests

from visitor import Visitor

KILLS = int(os.environ.get("KILLS", "200"))
VISITORS = 16
ITEM = re.compile(r'<li><button class=check formaction=\d+/items/(\d+)/toggle aria-pressed=(true|false)[^>]*>'
                  r'(.*?)</button>', re.S)


class Simulated:
    """One visitor and what it knows for sure about its list."""

    def __init__(self, stack, number):
        self.number = number
        self.visitor = Visitor(stack)
        self.prefix = f"v{number}-"
        self.list_id = None
        self.name = None
        self.items = {}  # id -> [text, checked]
        self.counter = 0
        self.acknowledged = 0
        self.kinds = collections.Counter()  # acknowledged changes by kind
        self.failures = 0

    def setup(self):
        self.name = f"{self.prefix}list"
        self.list_id = self.visitor.create_list(self.name)
        self.token = self.visitor.csrf()

    def read_back(self):
        """The list as the server has it now (after a failure: the change may or may not be in)."""
        while True:
            try:
                page = self.visitor.get(f"/lists/{self.list_id}", timeout=5)
                if page.status_code == 200:
                    break
            except requests.RequestException:
                pass
            time.sleep(0.05)
        self.name = re.search(r"<h1>.*?</span>(.*?)</h1>", page.text, re.S).group(1)
        self.items = {int(i): [text, checked == "true"] for i, checked, text in ITEM.findall(page.text)}
        return page.text

    def post(self, path, fields):
        fields = dict(fields, csrf=self.token)
        try:
            return self.visitor.http.post(self.visitor.stack.url(path), data=fields,
                                          allow_redirects=False, timeout=5)
        except requests.RequestException:
            return None

    def undo(self, location, restore):
        """Presses Undo on the page a deletion answered with (`?deleted=N` or
        `?removed=N`); `restore` puts the local copy back when it is acknowledged."""
        deletion = re.search(r"[?&](?:deleted|removed)=(\d+)", location)
        assert deletion, location
        response = self.post(f"/deleted/{deletion.group(1)}/restore", {})
        if response is not None and response.status_code == 303:
            self.acknowledged += 1
            self.kinds["undo"] += 1
            restore()
        else:
            self.failures += 1
            self.read_back()

    def step(self, rng):
        self.counter += 1
        choice = rng.random()
        order = list(self.items)
        undo = None
        if choice < 0.35 or not self.items:
            text = f"{self.prefix}item-{self.counter}"
            path, fields = f"/lists/{self.list_id}/items", {"text": text}
            def apply(location):
                # The new item's id is the largest one after a read: learned on the next read_back.
                return "add", text
        elif choice < 0.55:
            item = rng.choice(order)
            path, fields = f"/lists/{self.list_id}/items/{item}/toggle", {}
            def apply(location, item=item):
                self.items[item][1] = not self.items[item][1]
        elif choice < 0.62:
            name = f"{self.prefix}list-{self.counter}"
            path, fields = f"/lists/{self.list_id}", {"name": name, "icon": "folder"}
            def apply(location, name=name):
                self.name = name
        elif choice < 0.75:
            item, target = rng.choice(order), rng.choice(order)
            side = rng.choice(["before", "after"])
            path, fields = f"/lists/{self.list_id}/items/{item}/move", {side: str(target)}
            def apply(location, item=item, target=target, side=side):
                if item != target:
                    moved = self.items.pop(item)
                    rest = list(self.items.items())
                    at = [key for key, _ in rest].index(target) + (1 if side == "after" else 0)
                    rest.insert(at, (item, moved))
                    self.items = dict(rest)
        elif choice < 0.82:
            checked = rng.random() < 0.5
            path, fields = f"/lists/{self.list_id}/{'check-all' if checked else 'uncheck-all'}", {}
            def apply(location, checked=checked):
                for entry in self.items.values():
                    entry[1] = checked
        elif choice < 0.92:
            item = rng.choice(order)
            path, fields = f"/lists/{self.list_id}/items/{item}/delete", {}
            before = [(key, list(value)) for key, value in self.items.items()]
            def apply(location, item=item):
                del self.items[item]
            if rng.random() < 0.5:
                undo = lambda: setattr(self, "items", dict(before))
        else:
            path, fields = f"/lists/{self.list_id}/remove-checked", {}
            before = [(key, list(value)) for key, value in self.items.items()]
            def apply(location):
                self.items = {key: value for key, value in self.items.items() if not value[1]}
            if any(checked for _, checked in self.items.values()) and rng.random() < 0.5:
                undo = lambda: setattr(self, "items", dict(before))
        response = self.post(path, fields)
        if response is not None and response.status_code == 303:
            self.acknowledged += 1
            self.kinds[re.sub(r"\d+", "N", path)] += 1
            if apply(response.headers["Location"]) is not None:
                # An acknowledged add: it must be on the page now, whatever happens next.
                before = dict(self.items)
                self.read_back()
                added = [i for i, (text, _) in self.items.items() if text == fields["text"]]
                assert len(added) == 1, f"acknowledged item {fields['text']} missing"
                for item, (text, checked) in before.items():
                    assert self.items.get(item) == [text, checked], (item, before[item], self.items.get(item))
                assert [i for i in self.items if i in before] == list(before), "order changed by an add"
            elif undo is not None:
                self.undo(response.headers["Location"], undo)
        else:
            self.failures += 1
            self.read_back()

    def verify(self, everyone):
        expected = (self.name, list(self.items.items()))
        page = self.read_back()
        assert (self.name, list(self.items.items())) == expected, \
            f"visitor {self.number} lost an acknowledged change, or its order"
        for other in everyone:
            if other is not self:
                assert other.prefix + "item" not in page and f">{other.prefix}list" not in page
        all_lists = self.visitor.get("/lists").text
        assert re.findall(r'<span class="row-title">(.*?)</span>', all_lists).count(self.name) == 1


def posting_while(visitors, rng, disturb):
    """Runs every simulated visitor on its own thread, posting until
    `disturb(stop)` returns (or a visitor fails); returns what `disturb`
    returned, the visitors' errors and their threads (joined)."""
    stop = threading.Event()
    errors = []

    def run(simulated, seed):
        local = random.Random(seed)
        try:
            while not stop.is_set():
                simulated.step(local)
        except Exception as error:  # reported by the caller, with the visitor
            errors.append((simulated.number, repr(error)))
            stop.set()

    threads = [threading.Thread(target=run, args=(s, rng.random())) for s in visitors]
    for thread in threads:
        thread.start()
    try:
        result = disturb(stop)
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
    return result, errors, threads


def test_changes_acknowledged_by_a_303_survive_200_kills(stack):
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    visitors = [Simulated(stack, number) for number in range(VISITORS)]
    for simulated in visitors:
        simulated.setup()

    def kill_and_restart(stop):
        for _ in range(KILLS):
            if stop.is_set():
                break
            time.sleep(rng.uniform(0.005, 0.08))
            stack.backend.send_signal(signal.SIGKILL)
            stack.backend.wait()
            stack.backend = None
            stack.start_backend()
            wait_until_serving(stack)

    _, errors, _ = posting_while(visitors, rng, kill_and_restart)
    assert errors == []
    acknowledged = sum(s.acknowledged for s in visitors)
    assert acknowledged > KILLS, "the storm must interleave with real changes"
    for simulated in visitors:
        simulated.verify(visitors)
    check = subprocess.run([str(stack.binary), "check", "--data", str(stack.data)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    kinds = sum((s.kinds for s in visitors), collections.Counter())
    print(f"{KILLS} kills, {acknowledged} acknowledged changes, "
          f"{sum(s.failures for s in visitors)} refused or cut off; acknowledged: {dict(kinds)}")
    assert all(kinds[kind] > 0 for kind in (
        "undo", "/lists/N/items/N/move", "/lists/N/check-all", "/lists/N/uncheck-all",
        "/lists/N/remove-checked", "/lists/N/items/N/delete")), kinds


def wait_until_serving(stack):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if requests.get(stack.url("/health"), timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.01)
    raise RuntimeError("the backend did not come back")
