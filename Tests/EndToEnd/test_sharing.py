"""Sharing a list by a secret link, through nginx: a read-only link opened
with no cookie at all (no form on the page, every POST 403), an edit link
that changes the list's items and reaches nothing else of the owner's,
revoked links 404 like unknown ones, an edit link's page that says nothing
of the owner's other lists, two clients toggling one shared list at once
losing nothing, and no token in nginx's or the backend's logs."""
import random
import re
import threading
import time

import pytest
import requests

from visitor import Visitor

ROW = re.compile(r'formaction=[0-9a-f]+/items/(\d+)/toggle ')
CSRF = re.compile(r'name="csrf" value="([0-9a-f]{64})"')
NONCE = re.compile(r'name="nonce" value="(\d+)"')
PRESSED = re.compile(r'formaction=[0-9a-f]{32}/items/(\d+)/toggle aria-pressed=(true|false)')


def link_field(kind):
    return re.compile(rf'id="share-{kind}" value="(http://[^"/]+/s/([0-9a-f]{{32}}))"')


def share(owner, list_id, kind):
    """Makes the link of `kind` on Edit List, as the owner's browser does; its token."""
    made = owner.post(f"/lists/{list_id}/share/{kind}")
    assert made.status_code == 303, made.status_code
    assert made.headers["Location"] == f"/lists/{list_id}/edit#share"
    page = owner.get(f"/lists/{list_id}/edit").text
    found = link_field(kind).search(page)
    assert found, page
    assert found.group(1) == owner.stack.url(f"/s/{found.group(2)}")
    return found.group(2)


def anonymous(stack, method, path, **kwargs):
    """A request from a browser that has never been here: no cookie at all."""
    kwargs.setdefault("allow_redirects", False)
    response = requests.request(method, stack.url(path), **kwargs)
    assert "Set-Cookie" not in response.headers, path
    return response


def shared_headers_are_there(response):
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "noindex" in response.headers["X-Robots-Tag"]
    assert response.headers["Cache-Control"] == "private, no-cache"
    assert "Set-Cookie" not in response.headers
    return True


def snapshot(stack):
    return {str(p.relative_to(stack.data)): p.read_bytes()
            for p in stack.data.rglob("*") if p.is_file() and not p.name.endswith(".lock")}


@pytest.fixture
def owner(stack):
    """A visitor with `Groceries` (Milk, Bread, Eggs) and `Work` (Report)."""
    visitor = Visitor(stack)
    visitor.groceries = visitor.create_list("Groceries")
    visitor.work = visitor.create_list("Work")
    for text in ("Milk", "Bread", "Eggs"):
        visitor.add_item(visitor.groceries, text)
    visitor.add_item(visitor.work, "Report")
    rows = [int(found) for found in ROW.findall(visitor.get(f"/lists/{visitor.groceries}").text)]
    visitor.items = dict(zip(("Milk", "Bread", "Eggs"), rows))
    visitor.report = int(ROW.search(visitor.get(f"/lists/{visitor.work}").text).group(1))
    return visitor


def test_a_read_only_link_opens_with_no_cookie_shows_no_form_and_refuses_every_post(stack, owner):
    assert owner.post(f"/lists/{owner.groceries}/items/{owner.items['Milk']}/toggle",
                      {"check": "1"}).status_code == 303
    token = share(owner, owner.groceries, "read-only")
    page = anonymous(stack, "GET", f"/s/{token}")
    assert page.status_code == 200 and shared_headers_are_there(page)
    html = page.text
    assert "<form" not in html and "<button" not in html
    assert "Groceries" in html and "Bread" in html and "Report" not in html
    assert "Checked: </span>Milk" in html
    for owners in ('href="/lists', 'href="/settings', 'href="/deleted'):
        assert owners not in html
    assert html.count(" data-live>") == 2  # the heading and the rows, for live updates
    # Unchanged: a cheap 304 for whoever asks.
    tag = page.headers["ETag"]
    again = anonymous(stack, "GET", f"/s/{token}", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and shared_headers_are_there(again)
    assert anonymous(stack, "HEAD", f"/s/{token}").headers["ETag"] == tag

    before = snapshot(stack)
    item = owner.items["Bread"]
    for path in [f"/s/{token}", f"/s/{token}/items", f"/s/{token}/items/{item}",
                 f"/s/{token}/items/{item}/toggle", f"/s/{token}/items/{item}/delete",
                 f"/s/{token}/items/{item}/edit", f"/s/{token}/lists/{owner.groceries}/delete",
                 f"/s/{token}/settings"]:
        for fields in ({"text": "x", "check": "1"}, {"csrf": "0" * 64, "text": "x"}):
            refused = anonymous(stack, "POST", path, data=fields)
            assert refused.status_code == 403, path
            assert shared_headers_are_there(refused) and "Read-only link" in refused.text
    # The owner's own session and token make no difference.
    refused = owner.post(f"/s/{token}/items", {"text": "x"})
    assert refused.status_code == 403
    assert snapshot(stack) == before
    assert anonymous(stack, "GET", f"/s/{token}").text == html


def test_an_edit_link_changes_items_and_reaches_nothing_else(stack, owner):
    token = share(owner, owner.groceries, "edit")
    sharee = requests.Session()  # someone else's browser: no cookie of this site

    def get(path, **kwargs):
        return sharee.get(stack.url(path), allow_redirects=False, **kwargs)

    def post(path, fields):
        page = get(f"/s/{token}").text
        fields = dict(fields, csrf=CSRF.search(page).group(1))
        return sharee.post(stack.url(path), data=fields, allow_redirects=False)

    page = get(f"/s/{token}")
    assert page.status_code == 200 and shared_headers_are_there(page)
    assert '<form class="add-item"' in page.text
    nonce = NONCE.search(page.text).group(1)
    added = post(f"/s/{token}/items", {"text": "Jam", "nonce": nonce})
    assert added.status_code == 303 and added.headers["Location"] == f"/s/{token}"
    assert shared_headers_are_there(added)
    jam = max(int(found) for found in ROW.findall(get(f"/s/{token}").text))
    assert post(f"/s/{token}/items/{jam}/toggle", {"check": "1"}).status_code == 303
    assert post(f"/s/{token}/items/{owner.items['Bread']}",
                {"text": "Rye bread", "dueDate": "2031-05-12T14:30", "dueDateZone": "UTC"}).status_code == 303
    assert post(f"/s/{token}/items/{owner.items['Eggs']}/delete", {}).status_code == 303
    # The owner sees every change on their own page.
    mine = owner.get(f"/lists/{owner.groceries}").text
    assert "Jam" in mine and "Rye bread" in mine and "Eggs" not in mine
    assert re.search(rf'items/{jam}/toggle aria-pressed=true', mine)
    assert "Eggs" in owner.get("/deleted").text

    before = snapshot(stack)
    # Another list of the owner's through the link: not found.
    for path, fields in [(f"/s/{token}/items/{owner.report}/toggle", {"check": "1"}),
                         (f"/s/{token}/items/{owner.report}/delete", {}),
                         (f"/s/{token}/items/{owner.report}", {"text": "taken", "dueDate": ""}),
                         (f"/s/{token}/lists/{owner.work}", {"name": "taken"}),
                         (f"/s/{token}/settings", {"OpenLastList": "on"})]:
        assert post(path, fields).status_code == 404, path
    for path in [f"/s/{token}/items/{owner.report}/edit", f"/s/{token}/lists",
                 f"/s/{token}/lists/{owner.work}", f"/s/{token}/settings", f"/s/{token}/deleted"]:
        assert get(path).status_code == 404, path
    assert snapshot(stack) == before
    # The link makes nobody the owner: the sharee has no cookie yet, and the
    # site's own screens show them a visitor's own, new lists.
    assert not sharee.cookies
    assert get(f"/lists/{owner.work}").status_code == 404
    assert get(f"/lists/{owner.groceries}").status_code == 404
    all_lists = get("/lists").text
    assert "Groceries" not in all_lists and "Work" not in all_lists
    assert "Groceries" not in get("/settings").text
    assert snapshot(stack) == before



def test_an_edit_links_page_says_nothing_of_the_owners_other_lists(stack, owner):
    """Its nonce was the owner's site-wide next item id and its ETag moved
    with every list: a link's holder could watch the owner work elsewhere."""
    token = share(owner, owner.groceries, "edit")
    sharee = requests.Session()
    first = sharee.get(stack.url(f"/s/{token}"))
    tag, nonce = first.headers["ETag"], int(NONCE.search(first.text).group(1))
    assert nonce == max(owner.items.values()) + 1
    for text in ("Slides", "Budget"):
        owner.add_item(owner.work, text)
    assert nonce < int(NONCE.search(owner.get(f"/lists/{owner.work}").text).group(1))
    again = sharee.get(stack.url(f"/s/{token}"), headers={"If-None-Match": tag})
    assert again.status_code == 304, "the page's tag moved with another list"
    page = sharee.get(stack.url(f"/s/{token}"))
    assert page.headers["ETag"] == tag and int(NONCE.search(page.text).group(1)) == nonce
    # A re-sent add through the link is still harmless.
    csrf = CSRF.search(page.text).group(1)
    for _ in range(2):
        sent = sharee.post(stack.url(f"/s/{token}/items"), data={"text": "Jam", "nonce": nonce, "csrf": csrf},
                           allow_redirects=False)
        assert sent.status_code == 303
    assert sharee.get(stack.url(f"/s/{token}")).text.count(">Jam<") == 1

def test_revoked_links_are_404_exactly_like_unknown_ones(stack, owner):
    reader = share(owner, owner.groceries, "read-only")
    editor = share(owner, owner.groceries, "edit")
    assert reader != editor
    csrf = CSRF.search(anonymous(stack, "GET", f"/s/{editor}").text).group(1)
    assert owner.post(f"/lists/{owner.groceries}/share/read-only/revoke").status_code == 303
    assert "The read-only link is revoked" in owner.get(
        f"/lists/{owner.groceries}/edit?link-revoked=read-only").text
    assert anonymous(stack, "GET", f"/s/{editor}").status_code == 200  # independent
    assert owner.post(f"/lists/{owner.groceries}/share/edit/revoke").status_code == 303
    unknown = anonymous(stack, "GET", "/s/" + "ab" * 16)
    assert unknown.status_code == 404 and shared_headers_are_there(unknown)
    for path in (f"/s/{reader}", f"/s/{editor}", f"/s/{editor.upper()}", f"/s/{editor[:-1]}"):
        response = anonymous(stack, "GET", path)
        assert response.status_code == 404, path
        assert response.content == unknown.content
        assert sorted(response.headers) == sorted(unknown.headers)
    before = snapshot(stack)
    posted = anonymous(stack, "POST", f"/s/{editor}/items", data={"text": "x", "csrf": csrf})
    assert posted.status_code == 404 and posted.content == unknown.content
    assert snapshot(stack) == before
    # Made again, a link is new: the old ones stay dead.
    again = share(owner, owner.groceries, "edit")
    assert again not in (reader, editor)
    assert anonymous(stack, "GET", f"/s/{again}").status_code == 200
    assert anonymous(stack, "GET", f"/s/{editor}").status_code == 404


def test_two_clients_toggling_one_shared_list_at_once_lose_nothing(stack, owner):
    """500 toggles from each of two clients, interleaved, each asking for a
    state (check=1 or 0) as the page's buttons do: every one is 303, and
    each item ends as its last toggle asked. The clients toggle the even
    and the odd items: the same list, the same file, each item's last
    write known."""
    for number in range(5):
        owner.add_item(owner.groceries, f"Item {number}")
    rows = [int(found) for found in ROW.findall(owner.get(f"/lists/{owner.groceries}").text)]
    assert len(rows) == 8
    token = share(owner, owner.groceries, "edit")
    results = [None, None]

    def client(index):
        session = requests.Session()
        page = session.get(stack.url(f"/s/{token}")).text
        csrf = CSRF.search(page).group(1)
        mine = rows[index::2]
        randomly = random.Random(index)
        last, statuses = {}, []
        for _ in range(500):
            item = randomly.choice(mine)
            wanted = randomly.choice(("1", "0"))
            response = session.post(stack.url(f"/s/{token}/items/{item}/toggle"),
                                    data={"csrf": csrf, "check": wanted}, allow_redirects=False)
            statuses.append(response.status_code)
            last[item] = wanted == "1"
        results[index] = (last, statuses)

    threads = [threading.Thread(target=client, args=(index,)) for index in range(2)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.monotonic() - began
    final = {int(item): state == "true" for item, state in PRESSED.findall(
        anonymous(stack, "GET", f"/s/{token}").text)}
    for last, statuses in results:
        assert set(statuses) == {303}, sorted(set(statuses))
        assert len(statuses) == 500
        for item, checked in last.items():
            assert final[item] == checked, (item, checked)
    # The owner's own page agrees.
    mine = owner.get(f"/lists/{owner.groceries}").text
    for last, _ in results:
        for item, checked in last.items():
            assert f'items/{item}/toggle aria-pressed={"true" if checked else "false"}' in mine
    print(f"1,000 shared toggles from two clients in {took:.1f} s")


def test_no_token_is_ever_in_nginx_or_backend_logs(stack, owner):
    reader = share(owner, owner.groceries, "read-only")
    editor = share(owner, owner.groceries, "edit")
    page = anonymous(stack, "GET", f"/s/{editor}").text
    csrf = CSRF.search(page).group(1)
    item = owner.items["Milk"]
    assert anonymous(stack, "POST", f"/s/{editor}/items/{item}/toggle",
                     data={"csrf": csrf, "check": "1"}).status_code == 303
    # Refused, failed and odd requests are logged too (the backend logs a refusal).
    assert anonymous(stack, "POST", f"/s/{editor}/items/{item}/toggle",
                     data={"csrf": "0" * 64, "check": "1"}).status_code == 403
    assert anonymous(stack, "POST", f"/s/{reader}/items", data={"text": "x"}).status_code == 403
    assert anonymous(stack, "GET", f"/s/{reader}?from=mail",
                     headers={"Referer": stack.url(f"/s/{editor}")}).status_code == 200
    assert anonymous(stack, "GET", f"/s/{reader.upper()}").status_code == 404
    assert anonymous(stack, "GET", f"/s/{editor}/lists/1").status_code == 404
    code = "abcdefghjkmnpqrstvwxyz234567"  # a device link code's form
    assert requests.get(stack.url(f"/link/{code}")).status_code == 200  # the page that asks first
    assert owner.post(f"/lists/{owner.groceries}/share/edit/revoke").status_code == 303
    assert anonymous(stack, "GET", f"/s/{editor}").status_code == 404
    # A token where no route has one never reaches the log either.
    assert anonymous(stack, "GET", f"/lists/{reader}").status_code == 404

    log = stack.dir / "logs/access.log"
    wanted = 8
    # The rest of the path is kept, the token is not.
    expected = (f'"POST /s/<hidden>/items/{item}/toggle HTTP/1.1" 303',
                '"GET /s/<hidden>?from=mail HTTP/1.1" 200', '"GET /link/<hidden> HTTP/1.1" 200')

    def request_lines(text):
        return [line for line in text.splitlines() if re.search(r'"(GET|POST) /s/<hidden>', line)]

    # Each nginx worker flushes its own log buffer every second: wait for the
    # request lines themselves (a Referer that names a link counts for nothing).
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        text = log.read_text() if log.exists() else ""
        if len(request_lines(text)) >= wanted and all(line in text for line in expected):
            break
        time.sleep(0.1)
    access = log.read_text()
    assert len(request_lines(access)) >= wanted, access
    for line in expected:
        assert line in access, line
    stack.stop_backend()
    backend = (stack.dir / "logs/backend.log").read_text()
    errors = (stack.dir / "logs/error.log").read_text() if (stack.dir / "logs/error.log").exists() else ""
    assert "refused POST /s/{secret}/items/{item}/toggle" in backend
    for secret in (reader, editor, reader.upper(), code, csrf):
        assert secret not in access, secret
        assert secret not in backend, secret
        assert secret not in errors, secret
