"""`serve --metrics`: the backend's own Prometheus endpoint, scraped on its
own address (each host alone, never through a balancer). Requests made
through nginx move the counters of their route pattern and status, exactly;
a page answered from the memo or as a `304` is counted under its route;
the scrape carries no cookie, list name, id, item or typed code; and
`promtool check metrics` (Debian's prometheus package) accepts it."""
import re
import shutil
import socket
import subprocess
import time

import pytest
import requests

from stack import Stack, free_port
from visitor import Visitor

SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$")
REQUESTS = "checklists_http_requests_total"
MEMO = "checklists_response_memo_lookups_total"


@pytest.fixture(scope="module")
def measured():
    """One stack for the module: the first test's counts start from zero."""
    running = Stack()
    running.metrics_port = free_port()
    running.backend_arguments += ["--metrics", f"127.0.0.1:{running.metrics_port}"]
    try:
        running.start()
        running.wait_until(lambda: metrics_open(running), "the metrics listener")
        yield running
    finally:
        running.stop()


def metrics_open(stack):
    try:
        with socket.create_connection(("127.0.0.1", stack.metrics_port), timeout=0.2):
            return True
    except OSError:
        return False


def scrape(stack, path="/metrics", method="GET"):
    return requests.request(method, f"http://127.0.0.1:{stack.metrics_port}{path}", timeout=5)


def samples(text):
    """{(name, frozenset of label pairs): value} of every sample line."""
    found = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = SAMPLE.match(line)
        assert match, f"not a sample line: {line!r}"
        name, labels, value = match.groups()
        pairs = frozenset(re.findall(r'(\w+)="([^"]*)"', labels or ""))
        found[(name, pairs)] = float(value)
    return found


def value(found, name, **labels):
    return found.get((name, frozenset(labels.items())), 0.0)


def test_requests_are_counted_by_route_pattern_and_status_without_visitor_data(measured):
    visitor = Visitor(measured)
    name = "Groceries-for-metrics-7Q"
    mine = visitor.create_list(name)  # GET /lists/new for the token, then the POST
    visitor.add_item(mine, "a private item")  # the same
    time.sleep(0.05)  # a change younger than 20 ms is not trusted by the memo
    for _ in range(2):  # computed (the first moves ChecklistIndex), then computed and kept
        assert visitor.get(f"/lists/{mine}").status_code == 200
    assert visitor.get("/no/such/page").status_code == 404
    visitor.get("/link")
    token = visitor.csrf()  # a third GET /lists/new
    typed = [f"{attempt:028d}" for attempt in range(11)]
    answers = [visitor.post("/link", {"code": code}, csrf=token).status_code for code in typed]
    assert answers == [422] * 10 + [429], answers

    before = samples(scrape(measured).text)
    kept = [visitor.get(f"/lists/{mine}") for _ in range(3)]
    assert [page.status_code for page in kept] == [200] * 3
    tag = kept[0].headers["ETag"]
    assert visitor.get(f"/lists/{mine}", headers={"If-None-Match": tag}).status_code == 304

    response = scrape(measured)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    text = response.text
    found = samples(text)
    assert value(found, REQUESTS, method="GET", route="/lists/new", status="200") == 3
    assert value(found, REQUESTS, method="POST", route="/lists", status="303") == 1
    assert value(found, REQUESTS, method="POST", route="/lists/{list}/items", status="303") == 1
    assert value(found, REQUESTS, method="GET", route="/lists/{list}", status="200") == 5
    assert value(found, REQUESTS, method="GET", route="/lists/{list}", status="304") == 1
    assert value(found, REQUESTS, method="any", route="unmatched", status="404") == 1
    assert value(found, REQUESTS, method="GET", route="/link", status="200") == 1
    assert value(found, REQUESTS, method="POST", route="/link", status="422") == 10
    assert value(found, REQUESTS, method="POST", route="/link", status="429") == 1
    assert value(found, "checklists_rate_limit_refusals_total", limiter="link_code") == 1
    # The last four pages came from the memo: each a hit, counted under its route.
    hits = value(found, MEMO, memo="pages", result="hit") - value(before, MEMO, memo="pages", result="hit")
    assert hits == 4
    assert value(found, "checklists_http_request_duration_seconds_count",
                 method="GET", route="/lists/{list}") == 6
    assert value(found, "checklists_http_request_duration_seconds_bucket",
                 method="GET", route="/lists/{list}", le="+Inf") == 6
    assert value(found, "checklists_worker_threads") >= 1
    assert ("checklists_worker_threads_busy", frozenset()) in found

    # Routes by pattern only: nothing a visitor sent or owns is in a label.
    routes = {dict(labels).get("route") for (_, labels) in found if dict(labels).get("route")}
    assert all(re.fullmatch(r"(/[a-z{}.-]+)+|/|unmatched", route) for route in routes), routes
    assert f"/lists/{mine}" not in text
    for secret in [name, "private item", "no/such/page", typed[0], typed[-1], token,
                   *[c for c in visitor.http.cookies.values() if len(c) >= 8]]:
        assert secret not in text, secret

    promtool = shutil.which("promtool")
    assert promtool, "promtool (Debian's prometheus package) is installed by scripts/install-deps test"
    checked = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout + checked.stderr == "", "promtool's linter found something to say"


def test_the_metrics_listener_answers_only_get_of_metrics_and_outlasts_a_silent_client(measured):
    assert scrape(measured, "/").status_code == 404
    assert scrape(measured, "/metrics/x").status_code == 404
    refused = scrape(measured, method="POST")
    assert refused.status_code == 405 and refused.headers["Allow"] == "GET, HEAD"
    assert scrape(measured, method="HEAD").status_code == 200
    with socket.create_connection(("127.0.0.1", measured.metrics_port)) as silent:
        silent.sendall(b"GET /metr")  # and then nothing
        began = time.monotonic()
        assert scrape(measured).status_code == 200
        assert time.monotonic() - began < 4  # the silent client is given 2 s
    with socket.create_connection(("127.0.0.1", measured.metrics_port)) as large:
        large.sendall(b"GET /metrics HTTP/1.1\r\nX-Filler: " + b"x" * 9000)
        assert large.recv(64).startswith(b"HTTP/1.1 431 ")


def test_a_metrics_address_other_machines_reach_needs_an_allow_list(measured):
    command = [str(measured.binary), "serve", "--port", str(free_port()), "--data", str(measured.data),
               "--metrics", "10.0.0.11:9101"]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=10)
    assert refused.returncode != 0
    assert "--metrics-allow-from" in refused.stderr


CACHE_GAUGES = ("checklists_cache_bytes", "checklists_cache_entries", "checklists_cache_budget_bytes")


def test_the_caches_use_is_reported_against_their_budgets(measured):
    """The memo's pages and the decoded checklists, as gauges: a visitor's
    kept page and decoded model appear in them, each within its budget
    (`--page-cache-size` 80 MiB, seven eighths for a visitor's pages;
    `--cache-size` for the models), and promtool still accepts the scrape."""
    before = samples(scrape(measured).text)
    visitor = Visitor(measured)
    mine = visitor.create_list("Cache gauges")
    for number in range(5):
        visitor.add_item(mine, f"item {number}")
    time.sleep(0.05)  # a change younger than 20 ms is not trusted by the memo
    for _ in range(3):  # computed (moves ChecklistIndex), computed and kept, then from the memo
        assert visitor.get(f"/lists/{mine}").status_code == 200
    # A page's rows are kept from its second computation on (a query is
    # never answered from the memo: each is computed).
    for _ in range(2):
        assert visitor.get(f"/lists/{mine}?rows").status_code == 200

    response = scrape(measured)
    found = samples(response.text)
    for name in CACHE_GAUGES:
        assert f"# TYPE {name} gauge" in response.text
        for cache in ("pages", "shared", "models", "rows"):
            assert (name, frozenset({("cache", cache)})) in found, (name, cache)
    assert value(found, "checklists_cache_budget_bytes", cache="pages") == 80 * 1024 * 1024 * 7 // 8
    assert value(found, "checklists_cache_budget_bytes", cache="shared") == 80 * 1024 * 1024 // 8
    assert value(found, "checklists_cache_budget_bytes", cache="rows") == 16 * 1024 * 1024
    # The list's five rows, kept as one page's rows.
    assert value(found, "checklists_cache_entries", cache="rows") >= 1
    assert value(found, "checklists_cache_bytes", cache="rows") >= 5 * 200
    for cache in ("pages", "models"):
        entries = value(found, "checklists_cache_entries", cache=cache)
        assert entries >= value(before, "checklists_cache_entries", cache=cache) + 1, cache
        used = value(found, "checklists_cache_bytes", cache=cache)
        # each entry is counted at a few KiB at least (a page's body; a model's file times a factor)
        assert used >= 1024 * entries, (cache, used, entries)
        assert used <= value(found, "checklists_cache_budget_bytes", cache=cache), cache

    checked = subprocess.run([shutil.which("promtool"), "check", "metrics"], input=response.text,
                             capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked.stdout + checked.stderr


def test_the_decoded_checklists_budget_follows_cache_size():
    running = Stack()
    running.metrics_port = free_port()
    running.backend_arguments += ["--metrics", f"127.0.0.1:{running.metrics_port}", "--cache-size", "3",
                                  "--row-cache-size", "0"]
    try:
        running.start()
        running.wait_until(lambda: metrics_open(running), "the metrics listener")
        found = samples(scrape(running).text)
        assert value(found, "checklists_cache_budget_bytes", cache="models") == 3 * 1024 * 1024
        assert value(found, "checklists_cache_entries", cache="models") == 0
        # No row kept: every page renders its rows, and says the same.
        assert value(found, "checklists_cache_budget_bytes", cache="rows") == 0
        visitor = Visitor(running)
        mine = visitor.create_list("Rows")
        visitor.add_item(mine, "milk")
        assert ">milk</button>" in visitor.get(f"/lists/{mine}").text
        assert ">milk</button>" in visitor.get(f"/lists/{mine}?again").text
        found = samples(scrape(running).text)
        assert value(found, "checklists_cache_entries", cache="rows") == 0
    finally:
        running.stop()
