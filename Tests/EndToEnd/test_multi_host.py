"""Three backend hosts on one data set behind one nginx: the scenario suite
passes through them, and a visitor's change on one host is seen at once
through every other, by each host's own FastCGI port.

Each test runs on each store of `hosts.STORE_KINDS`; the hosts are backend
processes on different 127.0.0.1 ports (see hosts.py for why not network
namespaces)."""
import re
import urllib.parse

import pytest

import test_scenarios
from hosts import STORE_KINDS, running_hosts
from visitor import CSRF, Visitor

# The scenario suite again, here against the hosts: every `test_*` of
# test_scenarios.py is collected in this module too, where `stack` is the
# fixture below.
globals().update({name: test for name, test in vars(test_scenarios).items() if name.startswith("test_")})

# Scenarios that look at the data directory's files, which the PostgreSQL
# store does not write.
READS_DATA_FILES = {
    "test_a_get_never_writes_a_file": "checks that no file is written; the PostgreSQL store writes none anyway",
    "test_an_unreadable_file_is_kept_aside_and_the_visitor_told": "corrupts a Checklists.plist on disk",
}

HOSTS = 3


@pytest.fixture(params=STORE_KINDS)
def stack(request):
    """Three hosts + nginx on one store, stopped by pid afterwards."""
    reason = READS_DATA_FILES.get(request.node.originalname)
    if request.param == "postgres" and reason:
        pytest.skip(f"files only: {reason}")
    with running_hosts(request.param, request, backends=HOSTS) as hosts:
        yield hosts


def item_ids(page):
    return [int(found) for found in re.findall(r'items/(\d+)/toggle ', page)]


def read_everywhere(stack, visitor, path, etag=None):
    """The page at `path` from each host's own port (revalidating `etag`
    when given): a list of (status, ETag, body), one per host."""
    headers = {"If-None-Match": etag} if etag else {}
    answers = []
    for host in range(stack.count):
        status, answer_headers, body = stack.fastcgi(host, "GET", path, visitor.http.cookies.get_dict(),
                                                     headers=headers)
        answers.append((status, answer_headers.get("etag"), body))
    return answers


def assert_everywhere(stack, visitor, path, stale_etag, present, absent=()):
    """Every host answers `path` with 200 (never 304 for the tag of the page
    before the change), the page shows `present` and not `absent`, and all
    hosts render the same page (same ETag). Returns that ETag."""
    answers = read_everywhere(stack, visitor, path, etag=stale_etag)
    for host, (status, _, body) in enumerate(answers):
        assert status == 200, f"host {host} answered {status} for a page changed elsewhere"
        for text in present:
            assert text in body, f"host {host} does not show {text!r} yet"
        for text in absent:
            assert text not in body, f"host {host} still shows {text!r}"
    tags = {etag for _, etag, _ in answers}
    assert len(tags) == 1 and stale_etag not in tags, tags
    return tags.pop()


def test_a_change_through_nginx_is_seen_at_once_through_every_host(stack):
    visitor = Visitor(stack)
    list_id = visitor.create_list("Across hosts")
    path = f"/lists/{list_id}"
    # Every host reads the page (and keeps its model and answer cached),
    # and revalidates its own copy.
    answers = read_everywhere(stack, visitor, path)
    assert [status for status, _, _ in answers] == [200] * HOSTS
    [etag] = {etag for _, etag, _ in answers}  # one secret, one page: the same tag everywhere
    assert [status for status, _, _ in read_everywhere(stack, visitor, path, etag)] == [304] * HOSTS
    # Changes through nginx land on one host or another (round robin); each
    # is seen at once on all of them, and the tag of the page before it is
    # never answered with 304.
    for number in range(2 * HOSTS):
        visitor.add_item(list_id, f"item {number} through nginx")
        etag = assert_everywhere(stack, visitor, path, etag, present=[f"item {number} through nginx"])
        # A tag from one host is good on every other one while nothing changes.
        assert [status for status, _, _ in read_everywhere(stack, visitor, path, etag)] == [304] * HOSTS
    for number, item in enumerate(item_ids(visitor.get(path).text)):
        assert visitor.post(f"{path}/items/{item}/toggle").status_code == 303
        etag = assert_everywhere(stack, visitor, path, etag, present=['aria-pressed=true'])
        assert read_everywhere(stack, visitor, path)[0][2].count('aria-pressed=true') == number + 1


def test_a_change_on_each_host_is_seen_by_the_others_and_its_token_accepted(stack):
    """Changes sent straight to one host's port (so each host in turn makes
    one), with the CSRF token of a page another host rendered."""
    visitor = Visitor(stack)
    list_id = visitor.create_list("Host by host")
    path = f"/lists/{list_id}"
    cookies = visitor.http.cookies.get_dict()
    _, etag, _ = read_everywhere(stack, visitor, path)[0]
    for host in range(stack.count):
        other = (host + 1) % stack.count
        status, _, form = stack.fastcgi(other, "GET", "/lists/new", cookies)
        assert status == 200
        token = CSRF.search(form).group(1)
        body = urllib.parse.urlencode({"text": f"made on host {host}", "csrf": token}).encode()
        status, _, _ = stack.fastcgi(host, "POST", f"{path}/items", cookies, body=body)
        assert status == 303, (host, status)
        etag = assert_everywhere(stack, visitor, path, etag, present=[f"made on host {host}"])
    lists_page = read_everywhere(stack, visitor, "/lists")
    assert all(status == 200 and body.count('<span class="row-title">Host by host</span>') == 1
               for status, _, body in lists_page)


def test_a_deletion_on_one_host_is_gone_on_every_other(stack):
    visitor = Visitor(stack)
    keep = visitor.create_list("Kept list")
    gone = visitor.create_list("Deleted list")
    _, etag, _ = read_everywhere(stack, visitor, "/lists")[0]
    assert all(status == 200 for status, _, _ in read_everywhere(stack, visitor, f"/lists/{gone}"))
    assert visitor.post(f"/lists/{gone}/delete").status_code == 303
    assert_everywhere(stack, visitor, "/lists", etag, present=["Kept list"], absent=["Deleted list"])
    assert [status for status, _, _ in read_everywhere(stack, visitor, f"/lists/{gone}")] == [404] * HOSTS
    assert [status for status, _, _ in read_everywhere(stack, visitor, f"/lists/{keep}")] == [200] * HOSTS


def test_visitors_never_see_each_other_through_any_host(stack):
    first, second = Visitor(stack), Visitor(stack)
    first.create_list("First private list")
    second.create_list("Second private list")
    for visitor, own, other in ((first, "First", "Second"), (second, "Second", "First")):
        for status, _, body in read_everywhere(stack, visitor, "/lists"):
            assert status == 200 and f"{own} private list" in body and f"{other} private list" not in body


def test_the_postgres_store_writes_nothing_in_the_data_directory(stack):
    if stack.stores_files:
        pytest.skip("the files store keeps its documents in the data directory")
    visitor = Visitor(stack)
    visitor.add_item(visitor.create_list("Stored in the database"), "one")
    assert "1 Remaining" in visitor.get("/lists").text
    assert [path for path in stack.data.rglob("*")] == []
