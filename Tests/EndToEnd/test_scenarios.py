"""The product's scenarios, end to end through real nginx and the real
backend, over plain HTTP and over HTTPS (nginx with a certificate of the
tests' own authority, as every deployment runs)."""
import re

import pytest

from stack import Stack
from visitor import Visitor


@pytest.fixture(params=["http", "https"])
def stack(request):
    """A fresh nginx + backend for one test, over `request.param`."""
    authority = request.getfixturevalue("certificate_authority") if request.param == "https" else None
    running = Stack(tls=authority)
    try:
        yield running.start()
    finally:
        running.stop()


def landing(visitor):
    """Where `/` leads: a list id, or None for All Lists."""
    response = visitor.get("/")
    if response.status_code == 303:
        return int(response.headers["Location"].rsplit("/", 1)[1])
    assert response.status_code == 200
    assert visitor.heading(response) == "All Lists"
    return None


def test_a_new_visitor_lands_in_list(stack):
    visitor = Visitor(stack)
    response = visitor.get("/")
    assert response.status_code == 303
    first = visitor.get(response.headers["Location"])
    assert first.status_code == 200
    assert visitor.heading(first) == "List"
    # The visitor's 128-bit id and the day the cookie was set (renewed daily).
    assert re.fullmatch(r"[0-9a-f]{32}\.\d+", visitor.cookie("visitor"))
    assert visitor.cookie("ChecklistIndex") == "0"
    # Over HTTPS only the __Host- cookies (Secure, Path=/, no Domain).
    assert sorted(visitor.http.cookies.keys()) == sorted(
        stack.cookie_name(name) for name in ("visitor", "ChecklistIndex"))
    assert all(cookie.secure == bool(stack.tls) for cookie in visitor.http.cookies)


def test_a_get_never_writes_a_file(stack):
    visitor = Visitor(stack)
    for path in ("/", "/lists", "/lists/1", "/lists/new", "/settings"):
        visitor.get(path)
    users = stack.data / "users"
    assert not users.exists() or [p for p in users.rglob("*") if p.is_file()] == []


def test_the_back_link_sets_minus_one_and_slash_shows_all_lists(stack):
    visitor = Visitor(stack)
    assert landing(visitor) == 1
    visitor.get("/lists/1")
    assert visitor.get("/lists").status_code == 200
    assert visitor.cookie("ChecklistIndex") == "-1"
    assert landing(visitor) is None


def test_coming_back_later_lands_on_the_list_left_open(stack):
    visitor = Visitor(stack)
    groceries = visitor.create_list("Groceries")
    assert visitor.get(f"/lists/{groceries}").status_code == 200
    # Later, the same browser (the same cookies) in a new session:
    later = Visitor(stack)
    later.http.cookies.update(visitor.http.cookies)
    assert landing(later) == groceries


def test_a_stale_index_after_deleting_lists_shows_all_lists(stack):
    visitor = Visitor(stack)
    a = visitor.create_list("A")
    b = visitor.create_list("B")
    ids = visitor.list_ids()  # A, B, List
    visitor.get(f"/lists/{b}")
    row = int(visitor.cookie("ChecklistIndex"))
    assert row == 1
    for list_id in ids:
        if list_id != a:
            # The 303 is not followed, so ChecklistIndex keeps the stale row.
            assert visitor.post(f"/lists/{list_id}/delete").status_code == 303
    assert visitor.cookie("ChecklistIndex") == str(row)
    assert landing(visitor) is None


@pytest.mark.parametrize("tampered", ["abc", "-5", "1e3", "99999999999999999999", "", "0x1", " 1"])
def test_a_tampered_index_shows_all_lists(stack, tampered):
    visitor = Visitor(stack)
    visitor.add_item(1, "milk")  # stores the first-run List
    visitor.set_cookie("ChecklistIndex", "0")
    assert landing(visitor) == 1  # the control: a valid index opens the list
    visitor.set_cookie("ChecklistIndex", tampered)
    assert landing(visitor) is None


def test_two_lists_with_the_same_name_both_work(stack):
    visitor = Visitor(stack)
    first = visitor.create_list("Same")
    second = visitor.create_list("Same")
    assert first != second
    visitor.add_item(first, "in the first")
    visitor.add_item(second, "in the second")
    assert "in the first" in visitor.get(f"/lists/{first}").text
    assert "in the first" not in visitor.get(f"/lists/{second}").text
    assert "in the second" in visitor.get(f"/lists/{second}").text
    assert visitor.get("/lists").text.count("<span class=\"row-title\">Same</span>") == 2


def stored_files(stack):
    users = stack.data / "users"
    return {path: path.read_bytes() for path in users.rglob("*.plist")} if users.exists() else {}


@pytest.mark.parametrize("token", [None, "0" * 64, "not-a-token"])
def test_a_post_without_the_right_csrf_token_is_refused_and_changes_nothing(stack, token):
    visitor = Visitor(stack)
    list_id = visitor.create_list("Kept")
    before = stored_files(stack)
    page_before = visitor.get(f"/lists/{list_id}").text
    for path, fields in [
        ("/lists", {"name": "Forged"}),
        (f"/lists/{list_id}/items", {"text": "forged"}),
        (f"/lists/{list_id}/delete", {"confirm": "yes"}),
        ("/settings/reset", {"confirm": "yes"}),
    ]:
        response = visitor.post(path, fields, csrf=token if token else False)
        assert response.status_code == 403, path
        assert "Request refused" in response.text
    assert stored_files(stack) == before
    assert visitor.get(f"/lists/{list_id}").text == page_before


def test_a_cross_site_post_is_refused_even_with_the_token(stack):
    visitor = Visitor(stack)
    list_id = visitor.create_list("Kept")
    token = visitor.csrf()
    for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
        response = visitor.post(f"/lists/{list_id}/delete", csrf=token, headers=headers)
        assert response.status_code == 403
    assert list_id in visitor.list_ids()


def test_item_text_is_shown_escaped(stack):
    visitor = Visitor(stack)
    visitor.add_item(1, "<script>alert(1)</script>")
    page = visitor.get("/lists/1").text
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_bookmark_of_a_deleted_list_is_a_404_page(stack):
    visitor = Visitor(stack)
    list_id = visitor.create_list("Short-lived")
    assert visitor.post(f"/lists/{list_id}/delete").status_code == 303
    response = visitor.get(f"/lists/{list_id}")
    assert response.status_code == 404
    assert "List not found" in response.text
    assert 'href="/lists"' in response.text


def test_the_first_run_happens_once(stack):
    visitor = Visitor(stack)
    assert visitor.post("/lists/1/delete").status_code == 303
    assert visitor.list_ids() == []
    assert landing(visitor) is None
    assert visitor.list_ids() == []


def test_toggle_edit_and_delete_an_item(stack):
    visitor = Visitor(stack)
    visitor.add_item(1, "bread")
    item = int(re.search(r'items/(\d+)/toggle ', visitor.get("/lists/1").text).group(1))
    assert visitor.post(f"/lists/1/items/{item}/toggle").status_code == 303
    page = visitor.get("/lists/1").text
    assert 'aria-pressed=true' in page
    assert "All Done!" in visitor.get("/lists").text
    assert visitor.post(f"/lists/1/items/{item}", {"text": "rye bread"}).status_code == 303
    assert "rye bread" in visitor.get("/lists/1").text
    assert visitor.post(f"/lists/1/items/{item}/delete").status_code == 303
    assert "(No Items)" in visitor.get("/lists").text


def test_subtitles(stack):
    visitor = Visitor(stack)
    visitor.add_item(1, "one")
    visitor.add_item(1, "two")
    assert "2 Remaining" in visitor.get("/lists").text


def test_settings_hide_checked_items_and_reset(stack):
    visitor = Visitor(stack)
    visitor.add_item(1, "done thing")
    visitor.add_item(1, "open thing")
    item = int(re.search(r'items/(\d+)/toggle ', visitor.get("/lists/1").text).group(1))
    visitor.post(f"/lists/1/items/{item}/toggle")
    saved = visitor.post("/settings", {"HideCheckedItems": "on", "OpenLastList": "on"})
    assert saved.status_code == 303 and saved.headers["Location"] == "/settings?saved"
    assert "Settings saved." in visitor.get("/settings?saved").text
    page = visitor.get("/lists/1").text
    assert "done thing" not in page and "open thing" in page
    assert "1 checked item hidden" in page
    assert visitor.post("/settings/reset").status_code == 303
    assert "done thing" in visitor.get("/lists/1").text
    settings = visitor.get("/settings").text
    assert 'name="OpenLastList" value="on" checked' in settings
    assert 'name="HideCheckedItems" value="on" checked' not in settings


def test_open_last_list_off_always_shows_all_lists(stack):
    visitor = Visitor(stack)
    visitor.add_item(1, "x")
    visitor.get("/lists/1")
    assert landing(visitor) == 1
    visitor.post("/settings", {})  # both boxes unchecked
    assert landing(visitor) is None


def test_refused_input_keeps_what_was_typed(stack):
    visitor = Visitor(stack)
    response = visitor.post("/lists", {"name": "   ", "icon": "trips"})
    assert response.status_code == 422
    assert 'role="alert"' in response.text
    assert 'value="trips" checked' in response.text
    long_name = "x" * 1001
    response = visitor.post("/lists", {"name": long_name})
    assert response.status_code == 422
    assert long_name in response.text
    assert visitor.list_ids() == [1]


def test_pages_carry_security_and_cache_headers_and_revalidate(stack):
    visitor = Visitor(stack)
    visitor.get("/")
    response = visitor.get("/lists/1")
    headers = response.headers
    assert headers["Cache-Control"] == "private, no-cache"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    # HSTS over HTTPS (README, deployment step 5), never over plain HTTP.
    assert headers.get("Strict-Transport-Security") == ("max-age=31536000" if stack.tls else None)
    again = visitor.get("/lists/1", headers={"If-None-Match": headers["ETag"]})
    assert again.status_code == 304
    assert again.content == b""


def test_head_works_wherever_get_does_and_other_methods_are_405(stack):
    visitor = Visitor(stack)
    for path in ("/", "/lists", "/lists/1", "/lists/new", "/settings"):
        assert visitor.head(path).status_code in (200, 303), path
    response = visitor.http.delete(stack.url("/lists/1"))
    assert response.status_code == 405
    assert response.headers["Allow"] == "GET, HEAD, POST"
    response = visitor.http.put(stack.url("/lists"))
    assert response.status_code == 405


def test_unknown_addresses_and_items_are_404_pages(stack):
    visitor = Visitor(stack)
    for path in ("/nope", "/lists/0", "/lists/abc", "/lists/%2e%2e", "/lists/1/items/99/edit", "/lists/99/edit"):
        response = visitor.get(path)
        assert response.status_code == 404, path
        assert "<!doctype html>" in response.text


def test_an_unreadable_file_is_kept_aside_and_the_visitor_told(stack):
    visitor = Visitor(stack)
    visitor.add_item(1, "precious")
    [path] = list((stack.data / "users").rglob("Checklists.plist"))
    path.write_text("this is not a plist")
    response = visitor.get("/lists")
    assert response.status_code == 500
    assert "could not be read" in response.text
    aside = list(path.parent.glob("Checklists.plist.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text() == "this is not a plist"
