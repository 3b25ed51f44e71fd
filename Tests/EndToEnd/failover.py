"""What visitors get while one host of several is restarted, killed or hung:
the measurement behind README's balancer settings ("Several hosts on
PostgreSQL", step 4), and the rolling restart it documents.

`measure(stack, scenario, seconds)` runs `VISITORS` visitors against
`stack` (a started MultiHostStack), each reading its list and ticking an
item in turn, while `scenario(stack, window)` disturbs one host after
another; it returns a `Tally`: every answer by method and status, each
with the time it came, and the windows during which a host was down
(`window(host)` is a context manager the scenario wraps each outage in).

The scenarios are what an operator does or suffers:

- `rolling_restart`: SIGTERM (the backend stops accepting and finishes what
  it was sent), wait for the exit, start again, wait until it listens, and
  on to the next host, as a rolling upgrade does.
- `killed`: SIGKILL, down for a second, started again.
- `hung`: SIGSTOP for HANG_SECONDS (a host that accepts connections but
  answers nothing, as one stuck in swap or a debugger), then SIGCONT.
"""
import collections
import contextlib
import os
import re
import signal
import threading
import time

import requests

from test_crash_storm import ITEM
from visitor import Visitor

VISITORS = 8
HANG_SECONDS = 8


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.answers = []  # (time, method, status or "no answer", seconds)
        self.windows = []  # (host, start, end)
        self.began = time.monotonic()

    def record(self, method, status, seconds):
        with self.lock:
            self.answers.append((time.monotonic() - self.began, method, status, seconds))

    @contextlib.contextmanager
    def window(self, host):
        start = time.monotonic() - self.began
        try:
            yield
        finally:
            self.windows.append((host, start, time.monotonic() - self.began))

    def counts(self):
        return collections.Counter((method, status) for _, method, status, _ in self.answers)

    def failures(self):
        """Answers that were neither a page nor a change's 303."""
        return [answer for answer in self.answers if answer[2] not in (200, 303)]

    def slowest(self, method):
        return max((seconds for _, m, _, seconds in self.answers if m == method), default=0.0)

    def summary(self) -> str:
        counts = self.counts()
        total = {method: sum(n for (m, _), n in counts.items() if m == method) for method in ("GET", "POST")}
        failed = collections.Counter((method, status) for _, method, status, _ in self.failures())
        failed_text = ", ".join(f"{method} {status}: {n}" for (method, status), n in sorted(
            failed.items(), key=str)) or "none"
        return (f"{total['GET']} GETs (slowest {self.slowest('GET'):.2f} s), {total['POST']} POSTs "
                f"(slowest {self.slowest('POST'):.2f} s); failed: {failed_text}")

    def failures_outside_windows(self, slack=0.5):
        """Failures that came when no host was down (with `slack` seconds
        either side of each window, for answers in flight)."""
        def inside(at, seconds):
            started = at - seconds
            return any(start - slack <= at and started <= end + slack for _, start, end in self.windows)
        return [answer for answer in self.failures() if not inside(answer[0], answer[3])]


def load(stack, tally, stop, number):
    """One visitor: its own list of one item, read and ticked in turn."""
    visitor = Visitor(stack)
    while True:  # setup may meet a host going down too
        try:
            list_id = visitor.create_list(f"failover-{number}")
            visitor.add_item(list_id, "milk")
            item = ITEM.search(visitor.get(f"/lists/{list_id}").text).group(1)
            token = visitor.csrf()
            break
        except (AssertionError, AttributeError, requests.RequestException):
            time.sleep(0.1)
    paths = [("GET", f"/lists/{list_id}"), ("POST", f"/lists/{list_id}/items/{item}/toggle")]
    turn = 0
    while not stop.is_set():
        method, path = paths[turn % 2]
        turn += 1
        began = time.monotonic()
        try:
            if method == "GET":
                status = visitor.http.get(stack.url(path), allow_redirects=False, timeout=30).status_code
            else:
                status = visitor.http.post(stack.url(path), data={"csrf": token}, allow_redirects=False,
                                           timeout=30).status_code
        except requests.RequestException:
            status = "no answer"
        tally.record(method, status, time.monotonic() - began)


def measure(stack, scenario) -> Tally:
    tally = Tally()
    stop = threading.Event()
    threads = [threading.Thread(target=load, args=(stack, tally, stop, n)) for n in range(VISITORS)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(1.0)  # every visitor set up and under way
        scenario(stack, tally.window)
        time.sleep(1.0)
    finally:
        stop.set()
        for thread in threads:
            thread.join(40)
    return tally


def rolling_restart(stack, window, hosts=None):
    for host in hosts if hosts is not None else range(stack.count):
        with window(host):
            process = stack.processes[host]
            process.send_signal(signal.SIGTERM)
            process.wait(30)
            stack.launch(host)
            stack.wait_until_listening(host)
        time.sleep(1.0)


def killed(stack, window, hosts=None):
    for host in hosts if hosts is not None else range(stack.count):
        with window(host):
            stack.kill_backend(host)
            time.sleep(1.0)
            stack.launch(host)
            stack.wait_until_listening(host)
        time.sleep(1.0)


def hung(stack, window, hosts=None):
    for host in hosts if hosts is not None else range(stack.count):
        with window(host):
            pid = stack.pid(host)
            os.kill(pid, signal.SIGSTOP)
            time.sleep(HANG_SECONDS)
            os.kill(pid, signal.SIGCONT)
        time.sleep(1.0)


SCENARIOS = {"rolling restart": rolling_restart, "host killed": killed, "host hung": hung}


def upstream_settings(conf: str) -> str:
    """The `server` line's parameters and the fastcgi_*_timeout lines of a
    rendered configuration, for a report."""
    parameters = re.search(r"server \S+:\d+ ([^;]*);", conf).group(1)
    timeouts = re.findall(r"(fastcgi_(?:connect|read|send)_timeout \S+);", conf)
    return " ".join([parameters, *timeouts])
