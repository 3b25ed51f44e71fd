"""Due dates, the visitor's own order, Check all and Uncheck all, through
nginx with plain HTTP forms (a browser without JavaScript)."""
import re
from datetime import datetime, timedelta, timezone

from test_html_validity import tidy_report
from visitor import Visitor

ROW = re.compile(r'<li><button class=check formaction=\d+/items/(\d+)/toggle aria-pressed=(true|false) '
                 r'name=check value=[01]>([^<]*)</button>(<time[^>]*>[^<]*</time>)?')


def rows(visitor, list_id):
    """The rows of a list page in the order shown: (id, text, checked, time element or "")."""
    page = visitor.get(f"/lists/{list_id}")
    assert page.status_code == 200, page.status_code
    return [(int(item), text, checked == "true", time or "") for item, checked, text, time in ROW.findall(page.text)]


def texts(visitor, list_id):
    return [text for _, text, _, _ in rows(visitor, list_id)]


def ids_by_text(visitor, list_id):
    return {text: item for item, text, _, _ in rows(visitor, list_id)}


def new_list(stack, name, items):
    visitor = Visitor(stack)
    list_id = visitor.create_list(name)
    for text in items:
        visitor.add_item(list_id, text)
    return visitor, list_id


ZONE_FIELD = re.compile(r'<input type="hidden" name="dueDateZone" value="([^"]*)">')


def edit(visitor, list_id, item, text, due="", remind=False, **extra):
    """Sends the item form as a browser would: with the zone it was shown in."""
    form = visitor.get(f"/lists/{list_id}/items/{item}/edit").text
    fields = {"text": text, "dueDate": due, "dueDateZone": ZONE_FIELD.search(form).group(1), **extra}
    if remind:
        fields["shouldRemind"] = "on"
    return visitor.post(f"/lists/{list_id}/items/{item}", fields)


def test_moves_follow_the_displayed_neighbour_and_repeat_or_pass_the_ends_as_no_ops(stack):
    visitor, list_id = new_list(stack, "Packing", ["tent", "stove", "map", "torch"])
    ids = ids_by_text(visitor, list_id)
    token = visitor.csrf()

    def move(text, **place):
        response = visitor.post(f"/lists/{list_id}/items/{ids[text]}/move", place, csrf=token)
        assert response.status_code == 303, (response.status_code, response.text[:300])
        assert response.headers["Location"] == f"/lists/{list_id}"

    move("tent", after=ids["stove"])  # Move down
    assert texts(visitor, list_id) == ["stove", "tent", "map", "torch"]
    move("tent", after=ids["stove"])  # the same move sent again: already there
    assert texts(visitor, list_id) == ["stove", "tent", "map", "torch"]
    move("torch", before=ids["map"])  # Move up
    move("torch", before=ids["map"])
    assert texts(visitor, list_id) == ["stove", "tent", "torch", "map"]
    # Past the ends: the first item before itself, the last after itself.
    move("stove", before=ids["stove"])
    move("map", after=ids["map"])
    assert texts(visitor, list_id) == ["stove", "tent", "torch", "map"]
    # What a page never sends is refused, and changes nothing.
    for fields in ({}, {"before": ids["map"], "after": ids["tent"]}, {"before": "x"}, {"after": "-1"},
                   {"after": ids["map"], "from": "nowhere"}):
        assert visitor.post(f"/lists/{list_id}/items/{ids['tent']}/move", fields, csrf=token).status_code == 400
    assert visitor.post(f"/lists/{list_id}/items/{ids['tent']}/move", {"after": 999}, csrf=token).status_code == 404
    assert visitor.post(f"/lists/{list_id}/items/{ids['tent']}/move", {"after": ids["map"]},
                        csrf="0" * 64).status_code == 403
    assert texts(visitor, list_id) == ["stove", "tent", "torch", "map"]


def test_the_reorder_screen_moves_with_buttons_and_comes_back_at_the_item(stack):
    visitor, list_id = new_list(stack, "Morning", ["coffee", "news", "shower"])
    ids = ids_by_text(visitor, list_id)
    page = visitor.get(f"/lists/{list_id}")
    assert f'<a href="{list_id}/reorder">Reorder</a>' in page.text
    screen = visitor.get(f"/lists/{list_id}/reorder")
    assert screen.status_code == 200
    down = re.search(r'<button class="down" formaction="(/lists/\d+/items/\d+/move)" name="(after)" value="(\d+)" '
                     r'aria-label="Move coffee down">', screen.text)
    assert down, screen.text
    assert 'disabled aria-label="Move coffee up"' in screen.text
    assert 'disabled aria-label="Move shower down"' in screen.text
    fields = {"from": "reorder", down.group(2): down.group(3)}
    moved = visitor.post(down.group(1), fields)
    assert moved.status_code == 303
    assert moved.headers["Location"] == f"/lists/{list_id}/reorder#item-{ids['coffee']}"
    assert texts(visitor, list_id) == ["news", "coffee", "shower"]
    # The same button pressed again on the old page (a retry): no change.
    assert visitor.post(down.group(1), fields).status_code == 303
    assert texts(visitor, list_id) == ["news", "coffee", "shower"]


def test_check_all_and_uncheck_all_are_one_post_each(stack):
    visitor, list_id = new_list(stack, "Trip", ["passport", "tickets", "charger"])
    ids = ids_by_text(visitor, list_id)
    assert visitor.post(f"/lists/{list_id}/items/{ids['tickets']}/toggle", {"check": "1"}).status_code == 303
    page = visitor.get(f"/lists/{list_id}").text
    assert f'<button formaction="{list_id}/check-all">Check all</button>' in page
    assert f'<button formaction="{list_id}/uncheck-all">Uncheck all</button>' in page
    checked = visitor.post(f"/lists/{list_id}/check-all")
    assert checked.status_code == 303 and checked.headers["Location"] == f"/lists/{list_id}"
    assert [row[2] for row in rows(visitor, list_id)] == [True, True, True]
    assert "All Done!" in visitor.get("/lists").text
    unchecked = visitor.post(f"/lists/{list_id}/uncheck-all")
    assert unchecked.status_code == 303
    assert [row[2] for row in rows(visitor, list_id)] == [False, False, False]
    assert "3 Remaining" in visitor.get("/lists").text
    assert visitor.post(f"/lists/{list_id}/check-all", csrf="0" * 64).status_code == 403
    assert visitor.post("/lists/999/uncheck-all").status_code == 404


def test_due_dates_are_saved_shown_and_overdue_items_say_so(stack):
    visitor, list_id = new_list(stack, "Chores", ["bins", "taxes", "plants", "post"])
    ids = ids_by_text(visitor, list_id)
    future = (datetime.now(timezone.utc) + timedelta(days=40)).replace(second=0, microsecond=0)
    assert edit(visitor, list_id, ids["bins"], "bins", "2021-03-04T07:30").status_code == 303
    assert edit(visitor, list_id, ids["taxes"], "taxes", future.strftime("%Y-%m-%dT%H:%M"),
                remind=True).status_code == 303
    assert edit(visitor, list_id, ids["post"], "post", "2021-03-04").status_code == 303  # a date alone: 09:00
    assert visitor.post(f"/lists/{list_id}/items/{ids['post']}/toggle", {"check": "1"}).status_code == 303
    shown = {text: time for _, text, _, time in rows(visitor, list_id)}
    assert shown["bins"] == '<time class=late datetime=2021-03-04T07:30Z>Overdue, 4 Mar 2021</time>'
    assert shown["taxes"].startswith(f'<time datetime={future.strftime("%Y-%m-%dT%H:%MZ")}>')
    assert "Overdue" not in shown["taxes"]
    assert shown["post"] == '<time datetime=2021-03-04T09:00Z>4 Mar 2021</time>', "checked: not overdue"
    assert shown["plants"] == ""
    form = visitor.get(f"/lists/{list_id}/items/{ids['taxes']}/edit").text
    assert f'value="{future.strftime("%Y-%m-%dT%H:%M")}"' in form
    assert 'name="shouldRemind" value="on" checked' in form


def test_a_bad_due_date_is_400_with_everything_as_typed_and_nothing_saved(stack):
    visitor, list_id = new_list(stack, "Dates", ["dentist"])
    item = ids_by_text(visitor, list_id)["dentist"]
    assert edit(visitor, list_id, item, "dentist", "2030-05-12T14:30").status_code == 303
    for typed, words in (("1969-12-31T23:59", "between the years 1970 and 9999"),
                         ("10000-01-01T00:00", "between the years 1970 and 9999"),
                         ("31/12/2030", "is not a date and time"),
                         ("2030-02-30T10:00", "is not a date and time")):
        refused = edit(visitor, list_id, item, "dentist at 3", typed, remind=True)
        assert refused.status_code == 400, typed
        assert words in refused.text
        assert 'value="dentist at 3"' in refused.text
        assert f'value="{typed}"' in refused.text
        assert 'name="shouldRemind" value="on" checked' in refused.text
        assert tidy_report(refused.text) == "", typed
    form = visitor.get(f"/lists/{list_id}/items/{item}/edit").text
    assert 'value="dentist"' in form and 'value="2030-05-12T14:30"' in form
    assert 'name="shouldRemind" value="on" checked' not in form


def test_sort_by_due_date_and_checked_items_last(stack):
    visitor, list_id = new_list(stack, "Week", ["undated", "friday", "monday", "wednesday"])
    ids = ids_by_text(visitor, list_id)
    for text, day in (("friday", "2030-05-17"), ("monday", "2030-05-13"), ("wednesday", "2030-05-15")):
        assert edit(visitor, list_id, ids[text], text, day).status_code == 303
    sorted_ = visitor.post(f"/lists/{list_id}/sort", {"sort": "dueDate"})
    assert sorted_.status_code == 303 and sorted_.headers["Location"] == f"/lists/{list_id}"
    assert texts(visitor, list_id) == ["monday", "wednesday", "friday", "undated"]
    page = visitor.get(f"/lists/{list_id}").text
    assert "Sorted by due date." in page and "data-move" not in page and "Reorder</a>" not in page
    # Remembered per list: another list stays in its own order.
    other, other_id = visitor, visitor.create_list("Other")
    visitor.add_item(other_id, "b")
    visitor.add_item(other_id, "a")
    assert texts(other, other_id) == ["b", "a"]
    assert texts(visitor, list_id) == ["monday", "wednesday", "friday", "undated"]
    # Checked items last, on top of the sort.
    assert visitor.post(f"/lists/{list_id}/items/{ids['monday']}/toggle", {"check": "1"}).status_code == 303
    assert visitor.post("/settings", {"OpenLastList": "on", "CheckedItemsLast": "on"}).status_code == 303
    assert texts(visitor, list_id) == ["wednesday", "friday", "undated", "monday"]
    assert visitor.post(f"/lists/{list_id}/sort", {"sort": "own"}).status_code == 303
    assert texts(visitor, list_id) == ["undated", "friday", "wednesday", "monday"]
    assert 'data-move="grouped"' in visitor.get(f"/lists/{list_id}").text
    assert visitor.post(f"/lists/{list_id}/sort", {"sort": "random"}).status_code == 400
    # Reset turns checked items last off again.
    assert visitor.post("/settings/reset").status_code == 303
    assert texts(visitor, list_id) == ["undated", "friday", "monday", "wednesday"]


def test_the_time_zone_comes_from_the_browser_or_settings(stack):
    visitor, list_id = new_list(stack, "Calls", ["call"])
    item = ids_by_text(visitor, list_id)["call"]
    # What the enhancement script sends: the browser's zone with every change.
    assert visitor.post(f"/lists/{list_id}/items/{item}/toggle",
                        {"check": "0", "browserTimeZone": "Europe/Berlin"}).status_code == 303
    saved = edit(visitor, list_id, item, "call", "2030-07-01T01:00", browserTimeZone="Europe/Berlin")
    assert saved.status_code == 303
    assert rows(visitor, list_id)[0][3] == '<time datetime=2030-06-30T23:00Z>1 Jul 2030</time>'
    settings = visitor.get("/settings").text
    assert "<option selected>Europe/Berlin</option>" in settings
    # Without JavaScript: the Settings select.
    assert visitor.post("/settings", {"OpenLastList": "on", "TimeZone": "America/New_York"}).status_code == 303
    assert rows(visitor, list_id)[0][3] == '<time datetime=2030-06-30T23:00Z>30 Jun 2030</time>'
    assert 'value="2030-06-30T19:00"' in visitor.get(f"/lists/{list_id}/items/{item}/edit").text
    refused = visitor.post("/settings", {"TimeZone": "Atlantis/Capital"})
    assert refused.status_code == 400
    assert "is not one this site knows" in refused.text
    assert tidy_report(refused.text) == ""
    assert "<option selected>America/New_York</option>" in visitor.get("/settings").text


def test_the_new_screens_are_valid_html(stack):
    visitor, list_id = new_list(stack, "Valid", ["one <b>", "two", "three"])
    ids = ids_by_text(visitor, list_id)
    ids["one <b>"] = ids.pop("one &lt;b&gt;")
    edit(visitor, list_id, ids["one <b>"], "one <b>", "2020-01-01T10:00")
    edit(visitor, list_id, ids["two"], "two", "2090-01-01T10:00", remind=True)
    visitor.post(f"/lists/{list_id}/items/{ids['three']}/toggle", {"check": "1"})
    pages = {
        "checklist with due dates": visitor.get(f"/lists/{list_id}"),
        "reorder": visitor.get(f"/lists/{list_id}/reorder"),
        "item form with a due date": visitor.get(f"/lists/{list_id}/items/{ids['two']}/edit"),
        "item form refused": edit(visitor, list_id, ids["two"], "two", "soon"),
        "settings": visitor.get("/settings"),
    }
    visitor.post(f"/lists/{list_id}/sort", {"sort": "dueDate"})
    pages["checklist by due date"] = visitor.get(f"/lists/{list_id}")
    problems = {name: tidy_report(page.text) for name, page in pages.items()}
    assert {name: report for name, report in problems.items() if report} == {}
