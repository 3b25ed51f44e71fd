"""Undo, Recently Deleted and Remove checked items through nginx, as a browser
without JavaScript uses them: plain forms, 303 See Other, GET.

A deletion's answer is its page with a notice that offers Undo (one POST);
the Undo gives back exactly what went, so the page after it is the page
before the deletion, byte for byte.
"""
import re

from test_html_validity import tidy_report
from visitor import Visitor

UNDO = re.compile(r'<form class="undo" method="post" action="(/deleted/\d+/restore)">')
RESTORE = re.compile(r'<form class="restore" method="post" action="(/deleted/\d+/restore)">')
ROW = re.compile(r'formaction=\d+/items/(\d+)/toggle aria-pressed=(true|false)')


def see_other(response, starting):
    assert response.status_code == 303, (response.status_code, response.text[:300])
    location = response.headers["Location"]
    assert location.startswith(starting), location
    return location


def stored_files(stack):
    users = stack.data / "users"
    return {path: path.read_bytes() for path in users.rglob("*.plist")}


def visitor_with_items(stack, texts=("milk", "eggs", "bread", "butter"), checked=("eggs",)):
    """A visitor whose first list holds `texts`, the `checked` ones ticked."""
    visitor = Visitor(stack)
    for text in texts:
        visitor.add_item(1, text)
    ids = dict(zip(texts, (int(item) for item, _ in ROW.findall(visitor.get("/lists/1").text))))
    for text in checked:
        assert visitor.post(f"/lists/1/items/{ids[text]}/toggle", {"check": "1"}).status_code == 303
    return visitor, ids


def test_deleting_an_item_then_undo_gives_the_identical_list(stack):
    visitor, ids = visitor_with_items(stack)
    before = visitor.get("/lists/1").text

    location = see_other(visitor.post(f"/lists/1/items/{ids['eggs']}/delete"), "/lists/1?deleted=")
    page = visitor.get(location)
    assert page.status_code == 200
    assert "Deleted “eggs”." in page.text
    assert f'items/{ids["eggs"]}/toggle' not in page.text
    undo = UNDO.search(page.text).group(1)

    # The deletion is in the visitor's file, not in the process.
    stack.stop_backend()
    stack.start_backend()

    restored = see_other(visitor.post(undo), "/lists/1?restored=1")
    assert "Restored 1 item." in visitor.get(restored).text
    assert visitor.get("/lists/1").text == before
    # The notice's address no longer offers Undo: nothing is left to undo.
    assert UNDO.search(visitor.get(location).text) is None


def test_deleting_a_list_then_undo_gives_it_back_with_its_id_and_items(stack):
    visitor = Visitor(stack)
    groceries = visitor.create_list("Groceries", icon="groceries")
    for text in ("apples", "pears", "plums"):
        visitor.add_item(groceries, text)
    item = int(ROW.findall(visitor.get(f"/lists/{groceries}").text)[1][0])
    visitor.post(f"/lists/{groceries}/items/{item}/toggle", {"check": "1"})
    before = visitor.get(f"/lists/{groceries}").text

    location = see_other(visitor.post(f"/lists/{groceries}/delete"), "/lists?deleted=")
    assert groceries not in visitor.list_ids()
    assert visitor.get(f"/lists/{groceries}").status_code == 404
    page = visitor.get(location).text
    assert "Deleted the list “Groceries”." in page

    restored = see_other(visitor.post(UNDO.search(page).group(1)), f"/lists/{groceries}?restored=list")
    assert "List restored." in visitor.get(restored).text
    assert groceries in visitor.list_ids()
    assert visitor.get(f"/lists/{groceries}").text == before


def test_remove_checked_items_then_undo(stack):
    visitor, ids = visitor_with_items(stack, checked=("milk", "bread"))
    before = visitor.get("/lists/1").text
    assert 'formaction="1/remove-checked"' in before

    location = see_other(visitor.post("/lists/1/remove-checked"), "/lists/1?removed=")
    page = visitor.get(location).text
    assert "Removed 2 checked items." in page
    assert [int(item) for item, _ in ROW.findall(page)] == [ids["eggs"], ids["butter"]]
    assert 'formaction="1/remove-checked"' not in page  # nothing checked is left

    # Sent again: nothing is checked, nothing changes, no Undo.
    files = stored_files(stack)
    assert see_other(visitor.post("/lists/1/remove-checked"), "/lists/1") == "/lists/1"
    assert stored_files(stack) == files

    see_other(visitor.post(UNDO.search(page).group(1)), "/lists/1?restored=2")
    assert visitor.get("/lists/1").text == before


def test_restore_from_recently_deleted(stack):
    visitor, ids = visitor_with_items(stack)
    empty = visitor.get("/deleted")
    assert empty.status_code == 200 and "Nothing deleted in the last 30 days." in empty.text
    assert 'href="/deleted"' in visitor.get("/lists").text

    before = visitor.get("/lists/1").text
    visitor.post(f"/lists/1/items/{ids['milk']}/delete")
    visitor.post(f"/lists/1/items/{ids['bread']}/delete")
    page = visitor.get("/deleted").text
    assert page.index(">bread</span>") < page.index(">milk</span>"), "newest first"
    assert page.count("Item from “List”") == 2 and ">just now</time>" in page
    forms = RESTORE.findall(page)
    assert len(forms) == 2
    for action in forms:
        see_other(visitor.post(action), "/lists/1?restored=1")
    assert visitor.get("/lists/1").text == before
    assert "Nothing deleted" in visitor.get("/deleted").text


def test_a_second_undo_changes_nothing_and_says_so(stack):
    visitor, ids = visitor_with_items(stack)
    page = visitor.get(see_other(visitor.post(f"/lists/1/items/{ids['milk']}/delete"), "/lists/1?")).text
    undo = UNDO.search(page).group(1)
    see_other(visitor.post(undo), "/lists/1?restored=1")
    files = stored_files(stack)
    location = see_other(visitor.post(undo), "/deleted?nothing-to-restore")
    answer = visitor.get(location)
    assert answer.status_code == 200
    assert "Nothing to restore: that was restored already" in answer.text
    assert stored_files(stack) == files


def test_a_delete_sent_twice_is_answered_like_the_first(stack):
    visitor, ids = visitor_with_items(stack)
    token = visitor.csrf()
    first = see_other(visitor.post(f"/lists/1/items/{ids['milk']}/delete", csrf=token), "/lists/1?")
    files = stored_files(stack)
    assert see_other(visitor.post(f"/lists/1/items/{ids['milk']}/delete", csrf=token), first) == first
    assert stored_files(stack) == files
    deleted = see_other(visitor.post("/lists/1/delete", csrf=token), "/lists?deleted=")
    assert see_other(visitor.post("/lists/1/delete", csrf=token), deleted) == deleted


def test_items_whose_list_was_deleted_since_wait_for_the_list(stack):
    visitor, ids = visitor_with_items(stack)
    before = visitor.get("/lists/1").text
    item_page = visitor.get(see_other(visitor.post(f"/lists/1/items/{ids['milk']}/delete"), "/lists/1?"))
    item_undo = UNDO.search(item_page.text).group(1)
    list_undo = UNDO.search(visitor.get(see_other(visitor.post("/lists/1/delete"), "/lists?")).text).group(1)

    files = stored_files(stack)
    refused = visitor.post(item_undo)
    assert refused.status_code == 409
    assert "Restore that list first" in refused.text and 'href="/deleted"' in refused.text
    assert stored_files(stack) == files

    see_other(visitor.post(list_undo), "/lists/1?restored=list")
    see_other(visitor.post(item_undo), "/lists/1?restored=1")
    assert visitor.get("/lists/1").text == before


def test_unknown_or_malformed_deletion_ids_are_404(stack):
    visitor, ids = visitor_with_items(stack)
    visitor.post(f"/lists/1/items/{ids['milk']}/delete")
    token = visitor.csrf()
    files = stored_files(stack)
    for deletion in ("2", "999999", "abc", "0", "-1", "1.0", "99999999999999999999"):
        response = visitor.post(f"/deleted/{deletion}/restore", csrf=token)
        assert response.status_code == 404, deletion
        assert "<h1>" in response.text
    assert visitor.get("/deleted/1/restore").status_code == 405
    assert stored_files(stack) == files


def test_a_restore_without_the_csrf_token_or_from_another_site_is_403(stack):
    visitor, ids = visitor_with_items(stack)
    undo = UNDO.search(visitor.get(see_other(
        visitor.post(f"/lists/1/items/{ids['milk']}/delete"), "/lists/1?")).text).group(1)
    files = stored_files(stack)
    for token, headers in ((False, {}), ("0" * 64, {}), (True, {"Origin": "https://evil.example"})):
        # A field besides the token, so that the form is a form (no body is 415).
        response = visitor.post(undo, {"confirm": "yes"}, csrf=token, headers=headers)
        assert response.status_code == 403, (token, headers)
        assert "Request refused" in response.text
    assert visitor.post("/lists/1/remove-checked", {"confirm": "yes"}, csrf=False).status_code == 403
    assert stored_files(stack) == files
    see_other(visitor.post(undo), "/lists/1?restored=1")


def test_the_new_pages_are_valid_html(stack):
    marked_up = 'a <b> & "c"'
    visitor, ids = visitor_with_items(stack, texts=(marked_up, "d"), checked=("d",))
    pages = {"empty recently deleted": visitor.get("/deleted")}
    item = visitor.get(see_other(visitor.post(f"/lists/1/items/{ids[marked_up]}/delete"), "/"))
    removed = visitor.get(see_other(visitor.post("/lists/1/remove-checked"), "/"))
    listed = visitor.get(see_other(visitor.post("/lists/1/delete"), "/"))
    pages.update({
        "item deleted": item,
        "checked removed": removed,
        "list deleted": listed,
        "recently deleted": visitor.get("/deleted"),
        "conflict": visitor.post(UNDO.search(item.text).group(1)),
    })
    undo = UNDO.search(listed.text).group(1)
    pages["restored"] = visitor.get(see_other(visitor.post(undo), "/lists/1?restored=list"))
    pages["nothing to restore"] = visitor.get(see_other(visitor.post(undo), "/deleted?"))
    pages["unknown deletion"] = visitor.post("/deleted/999/restore")
    assert "Deleted “a &lt;b&gt; &amp; &quot;c&quot;”." in item.text
    problems = {name: tidy_report(page.text) for name, page in pages.items()}
    assert {name: report for name, report in problems.items() if report} == {}
