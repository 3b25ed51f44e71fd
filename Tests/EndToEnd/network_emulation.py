"""A Chromium without a network, as DevTools' "Offline" makes one.

Stopping nginx (`Stack.stop_nginx`) stands for a server that refuses
connections; a phone in a basement has no network at all, and its browser
knows it: `navigator.onLine` is false, the `offline` event fires, and every
request fails before it leaves, the service worker's own fetches included.

Selenium's `execute_cdp_cmd` speaks to the page alone, and a service worker
is a target of its own. So this module opens the browser's DevTools
endpoint itself (a WebSocket on loopback, the address chromedriver reports)
and auto-attaches to every target, flattened, with new ones held at their
start until they have been told the network's state: a worker started by a
navigation while offline never sends a request first.

Two things make a target offline:
- `Network.emulateNetworkConditions` (offline) on every target, which is
  what sets `navigator.onLine` and fires `offline` in pages, and fails a
  worker's fetches;
- on workers, the Fetch domain pausing every request, which is failed at
  once with `InternetDisconnected` (what a request sees with no network)
  and noted in `failed`: the tests read there which requests a worker
  tried, and a worker whose emulated conditions were lost still sends
  nothing.

One request escapes both: Chromium's own check for a new version of the
worker's script (`GET /sw.js`, made by the browser for the registration,
not by any target; neither the worker's session nor the browser's own
Fetch domain sees it). The tests leave it out of what they count.
"""
import itertools
import json
import threading
import urllib.request

import websocket

OFFLINE_CONDITIONS = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
ONLINE_CONDITIONS = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
# Targets that make requests of their own.
NETWORK_TARGETS = {"page", "iframe", "worker", "shared_worker", "service_worker"}
# Targets whose requests are failed through the Fetch domain too. A page's
# are not: a controlled page's requests go to its service worker first,
# which is the point of being offline with one.
WORKER_TARGETS = {"worker", "shared_worker", "service_worker"}


class NetworkEmulation:
    """The network of one Chromium, switched off and on for all of its
    targets. Use as a context manager, or call `close`."""

    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        assert address.split(":")[0] in ("localhost", "127.0.0.1", "[::1]"), address
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as answer:
            endpoint = json.load(answer)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(endpoint, timeout=10, suppress_origin=True)
        self.numbers = itertools.count(1)
        self.sending = threading.Lock()
        self.state = threading.Condition()
        self.answers = {}
        self.sessions = {}  # session id -> target type
        self.offline = False
        self.failed = []  # the URLs of the requests failed while offline
        self.closed = False
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        self.call("Target.setAutoAttach",
                  {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True})

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def close(self):
        if not self.closed:
            self.closed = True
            self.socket.close()
            self.reader.join(timeout=5)

    def go_offline(self):
        self.switch(offline=True)

    def go_online(self):
        self.switch(offline=False)

    def switch(self, offline):
        with self.state:
            self.offline = offline
            sessions = dict(self.sessions)
        for session, kind in sessions.items():
            self.apply(session, kind, wait=True)

    def worker_sessions(self):
        with self.state:
            return [session for session, kind in self.sessions.items() if kind == "service_worker"]

    # The DevTools protocol.

    def send(self, method, params=None, session=None):
        number = next(self.numbers)
        message = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        with self.sending:
            self.socket.send(json.dumps(message))
        return number

    def call(self, method, params=None, session=None, seconds=10):
        number = self.send(method, params, session)
        with self.state:
            if not self.state.wait_for(lambda: number in self.answers or self.closed, timeout=seconds):
                raise TimeoutError(f"no answer to {method}")
            answer = self.answers.pop(number, {})
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def apply(self, session, kind, wait):
        """Tells one target the network's state. `wait` is false on the
        reader's own thread, which must never wait for an answer it reads."""
        if kind not in NETWORK_TARGETS:
            return
        offline = self.offline
        commands = [("Network.enable", {}),
                    ("Network.emulateNetworkConditions", OFFLINE_CONDITIONS if offline else ONLINE_CONDITIONS)]
        if kind in WORKER_TARGETS:
            commands.append(("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}) if offline else ("Fetch.disable", {}))
        for method, params in commands:
            if wait:
                try:
                    self.call(method, params, session)
                except RuntimeError:
                    pass  # a target gone meanwhile, or one without the domain
            else:
                self.send(method, params, session)

    def read(self):
        while not self.closed:
            try:
                message = json.loads(self.socket.recv())
            except Exception:
                with self.state:
                    self.closed = True
                    self.state.notify_all()
                return
            if "id" in message:
                with self.state:
                    self.answers[message["id"]] = message
                    self.state.notify_all()
                continue
            method, params = message.get("method"), message.get("params", {})
            if method == "Target.attachedToTarget":
                session, kind = params["sessionId"], params["targetInfo"]["type"]
                with self.state:
                    self.sessions[session] = kind
                if kind in NETWORK_TARGETS:
                    # Sent before the target runs: its first request already
                    # meets the network's state (commands on one session are
                    # handled in order).
                    self.apply(session, kind, wait=False)
                    self.send("Target.setAutoAttach",
                              {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True}, session)
                if params.get("waitingForDebugger"):
                    self.send("Runtime.runIfWaitingForDebugger", {}, session)
            elif method == "Target.detachedFromTarget":
                with self.state:
                    self.sessions.pop(params.get("sessionId"), None)
            elif method == "Fetch.requestPaused":
                session = message.get("sessionId")
                if self.offline:
                    with self.state:
                        self.failed.append(params["request"]["url"])
                    self.send("Fetch.failRequest",
                              {"requestId": params["requestId"], "errorReason": "InternetDisconnected"}, session)
                else:
                    self.send("Fetch.continueRequest", {"requestId": params["requestId"]}, session)
