"""Settings → Export and Settings → Import through nginx and the real
backend: the downloads and their headers, round trips of our JSON and
Markdown into a new visitor, the Markdown export as cmark-gfm renders it,
the 1 MB limit (413 from nginx and straight from the backend's socket),
and every bad upload answered on the import page with nothing changed and
nothing kept."""
import html
import json
import plistlib
import re
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest

import fastcgi_client
from visitor import Visitor

DIGEST = re.compile(r'name="digest" value="([0-9a-f]{64})"')
MEBIBYTE = 1 << 20


def data_files(stack):
    """Every file under the data directory, lock files too, by path."""
    return {str(p.relative_to(stack.data)): p.read_bytes() for p in stack.data.rglob("*") if p.is_file()}


def visitor_plist(visitor):
    response = visitor.get("/settings/export/Checklists.plist")
    assert response.status_code == 200
    return response.content


def upload(visitor, name, content, content_type="application/octet-stream", csrf=True):
    fields = {"csrf": visitor.csrf()} if csrf is True else ({"csrf": csrf} if csrf else {})
    return visitor.http.post(visitor.stack.url("/settings/import"), data=fields,
                             files={"file": (name, content, content_type)}, allow_redirects=False)


def import_file(visitor, name, content):
    """Uploads a file, checks its preview and confirms it; returns the preview's text."""
    uploaded = upload(visitor, name, content)
    assert uploaded.status_code == 303, (uploaded.status_code, uploaded.text)
    assert uploaded.headers["Location"] == "/settings/import/preview"
    preview = visitor.get("/settings/import/preview")
    assert preview.status_code == 200
    digest = DIGEST.search(preview.text).group(1)
    confirmed = visitor.post("/settings/import/confirm", {"digest": digest})
    assert confirmed.status_code == 303, (confirmed.status_code, confirmed.text)
    assert confirmed.headers["Location"].startswith("/lists?imported=")
    notice = visitor.get(confirmed.headers["Location"])
    assert "Imported " in notice.text
    return preview.text


def lists_of(model, ignore_ids=True):
    """The lists of a decoded Checklists.plist, ids aside: name, icon, sort
    and each item's text, checkmark, due date and reminder, in order."""
    return [(entry["name"], entry.get("icon"), entry.get("sort", "own"),
             [(item["text"], item["checked"], item.get("dueDate"), item.get("shouldRemind", False))
              for item in entry["items"]])
            for entry in model["lists"]]


@pytest.fixture
def owner(stack):
    """A visitor with lists of every kind: icons, a sort by due date, items
    checked and not, due dates with and without reminders, and texts that
    Markdown and JSON must escape."""
    visitor = Visitor(stack)
    visitor.add_item(1, "milk")
    trip = visitor.create_list("Trip *to* [Rome] `2025`", icon="trips")
    for text in ("passport", "tickets & visa", "# not a heading", "- [x] not a task", "a\\b <c>"):
        visitor.add_item(trip, text)
    page = visitor.get(f"/lists/{trip}").text
    ids = [int(found) for found in re.findall(rf'formaction={trip}/items/(\d+)/toggle ', page)]
    for item in ids[:2]:
        assert visitor.post(f"/lists/{trip}/items/{item}/toggle", {"check": "1"}).status_code == 303
    assert visitor.post(f"/lists/{trip}/items/{ids[0]}", {
        "text": "passport", "dueDate": "2031-05-12T14:30", "dueDateZone": "UTC",
        "shouldRemind": "on"}).status_code == 303
    assert visitor.post(f"/lists/{trip}/items/{ids[2]}", {
        "text": "# not a heading", "dueDate": "2030-01-02T09:00", "dueDateZone": "UTC"}).status_code == 303
    assert visitor.post(f"/lists/{trip}/sort", {"sort": "dueDate"}).status_code == 303
    visitor.create_list("Empty", icon="inbox")
    visitor.trip = trip
    return visitor


def test_every_download_through_nginx(stack, owner):
    today = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    for path, content_type, extension in [
        ("/settings/export/checklists.json", "application/json", "json"),
        ("/settings/export/checklists.md", "text/markdown; charset=utf-8; variant=GFM", "md"),
        ("/settings/export/checklists.ics", "text/calendar; charset=utf-8", "ics"),
        ("/settings/export/Checklists.plist", "application/x-plist", "plist"),
    ]:
        response = owner.get(path)
        assert response.status_code == 200, path
        assert response.headers["Content-Type"] == content_type
        assert response.headers["Content-Disposition"] in (
            f'attachment; filename="checklists-{today}.{extension}"',
            f'attachment; filename="checklists-{datetime.now(timezone.utc).strftime("%Y-%m-%d")}.{extension}"')
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.content
    # The property list is the stored file, byte for byte.
    plist = owner.get("/settings/export/Checklists.plist").content
    assert plist in [p.read_bytes() for p in stack.data.glob("users/*/*/Checklists.plist")]
    # The calendar: a VTODO per item, checked ones completed.
    calendar = owner.get("/settings/export/checklists.ics").text
    assert calendar.startswith("BEGIN:VCALENDAR")
    assert calendar.count("BEGIN:VTODO") == 6
    assert calendar.count("STATUS:COMPLETED") == 2
    assert "DUE:20310512T143000Z" in calendar


def test_json_export_imported_by_a_new_visitor_gives_the_same_lists(stack, owner):
    exported = owner.get("/settings/export/checklists.json")
    json.loads(exported.content)  # valid JSON
    newcomer = Visitor(stack)
    newcomer.get("/lists")
    preview = import_file(newcomer, "checklists.json", exported.content)
    assert "3 lists with 6 items" in preview
    mine = lists_of(plistlib.loads(visitor_plist(owner)))
    theirs = lists_of(plistlib.loads(visitor_plist(newcomer)))
    # The newcomer's own first list, then the imported ones beside it.
    assert ("List", "folder", "own", []) in theirs
    theirs.remove(("List", "folder", "own", []))
    assert sorted(theirs, key=repr) == sorted(mine, key=repr)


def test_markdown_export_imported_by_a_new_visitor_keeps_names_texts_and_checkmarks(stack, owner):
    exported = owner.get("/settings/export/checklists.md").content
    newcomer = Visitor(stack)
    newcomer.get("/lists")
    import_file(newcomer, "checklists.md", exported)
    mine = [(name, [(text, checked) for text, checked, _, _ in items])
            for name, _, _, items in lists_of(plistlib.loads(visitor_plist(owner))) if items]
    theirs = [(name, [(text, checked) for text, checked, _, _ in items])
              for name, _, _, items in lists_of(plistlib.loads(visitor_plist(newcomer))) if items]
    assert sorted(theirs, key=repr) == sorted(mine, key=repr)


def test_the_markdown_export_as_cmark_gfm_renders_it_shows_each_checkbox_in_its_state(stack, owner):
    exported = owner.get("/settings/export/checklists.md").content
    rendered = subprocess.run(["cmark-gfm", "--extension", "tasklist"], input=exported,
                              capture_output=True, check=True).stdout.decode()
    boxes = re.findall(r'<li><input type="checkbox"( checked="")? disabled="" /> ?(.*?)</li>', rendered, re.S)
    shown = [(html.unescape(re.sub(r"<[^>]+>", "", text)).strip(), bool(checked)) for checked, text in boxes]
    model = plistlib.loads(visitor_plist(owner))
    expected = [(item["text"], item["checked"]) for entry in model["lists"] for item in entry["items"]]
    # Each item once, in its state, with exactly its text.
    assert len(shown) == len(expected)
    for text, checked in expected:
        matches = [state for shown_text, state in shown if shown_text == text]
        assert matches == [checked], (text, shown)
    # The list names are headings, never tasks.
    headings = [html.unescape(re.sub(r"<[^>]+>", "", h)) for h in re.findall(r"<h1>(.*?)</h1>", rendered)]
    assert "Trip *to* [Rome] `2025`" in headings


def test_an_upload_over_a_megabyte_is_413_from_nginx_with_its_page(stack, owner):
    before = data_files(stack)
    response = upload(owner, "big.md", b"- [ ] x\n" * (MEBIBYTE // 8 + 1))
    assert response.status_code == 413
    assert "File too large" in response.text and "larger than 1 MB" in response.text
    assert 'href="/settings/import"' in response.text
    # Every other address keeps its 64 KB.
    big_form = b"text=" + b"x" * (70 * 1024)
    response = owner.http.post(stack.url("/lists/1/items"), data=big_form,
                               headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413
    assert data_files(stack) == before
    # Just under the limit passes nginx and reaches the backend's parser.
    accepted = upload(owner, "almost.md", b"- [ ] x\n" * ((MEBIBYTE - 4096) // 8))
    assert accepted.status_code in (303, 422), accepted.status_code


def test_the_backend_refuses_over_a_megabyte_at_the_import_and_64_kb_elsewhere(stack, owner):
    before = data_files(stack)
    cookie = f"visitor={owner.cookie('visitor')}"
    boundary = "----e2e"

    def multipart(size):
        return (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{owner.csrf()}\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.md\"\r\n\r\n"
                ).encode() + b"x" * size + f"\r\n--{boundary}--\r\n".encode()

    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie}
    status, _, body = fastcgi_client.request(stack.socket, "POST", "/settings/import",
                                             body=multipart(MEBIBYTE), headers=headers)
    assert status == 413
    assert b"larger than 1 MB" in body
    status, _, _ = fastcgi_client.request(stack.socket, "POST", "/lists/1/items", body=b"text=" + b"x" * 70_000,
                                          headers={"Content-Type": "application/x-www-form-urlencoded",
                                                   "Cookie": cookie})
    assert status == 413
    # 100 KB: past the common cap, within the import's; read whole (a file with no task).
    status, _, body = fastcgi_client.request(stack.socket, "POST", "/settings/import",
                                             body=multipart(100_000), headers=headers)
    assert status == 422, body[:500]
    assert data_files(stack) == before


def bad_uploads(visitor):
    """(name, request thunk, status, words on the page) of every bad upload."""
    token = visitor.csrf()
    url = visitor.stack.url("/settings/import")

    def post_raw(body, content_type):
        return lambda: visitor.http.post(url, data=body, headers={"Content-Type": content_type},
                                         allow_redirects=False)

    def export(lists):
        return json.dumps({"format": "checklists", "version": 1, "exportedAt": "2025-03-01T12:00:00Z",
                           "lists": [{"id": n + 1, "icon": "folder", "sort": "own", **entry}
                                     for n, entry in enumerate(lists)]}).encode()

    # The parser takes 499 lists, the model refuses them beside the owner's 3.
    too_many = export([{"name": f"L{n}", "items": []} for n in range(499)])
    too_long = export([{"name": "Long", "items": [
        {"id": 1, "text": "x" * 1001, "checked": False, "shouldRemind": False}]}])
    return [
        ("urlencoded", post_raw(f"csrf={token}&file=x", "application/x-www-form-urlencoded"), 415,
         "did not arrive as a file upload"),
        ("text/plain", post_raw(f"csrf={token}", "text/plain"), 415, "did not arrive as a file upload"),
        ("no boundary", post_raw(b"--x\r\n", "multipart/form-data"), 400, "could not be read"),
        ("cut short", post_raw(f'--b\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{token}\r\n--b\r\n'
                               'Content-Disposition: form-data; name="file"; filename="a.md"\r\n\r\n- [ ] a',
                               "multipart/form-data; boundary=b"), 400, "could not be read"),
        ("a header name past ASCII", post_raw(
            f'--b\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{token}\r\n--b\r\n'.encode()
            + b'Caf\xc3\xa9: 1\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\n'
            + b"- [ ] a\r\n--b--\r\n", "multipart/form-data; boundary=b"), 400, "could not be read"),
        ("no file part", lambda: visitor.http.post(url, files={"csrf": (None, token)},
                                                   allow_redirects=False), 400, "No file was chosen"),
        ("another part", lambda: visitor.http.post(url, data={"csrf": token}, files={"other": ("a.md", b"x")},
                                                   allow_redirects=False), 400, "does not send (“other”)"),
        ("no file chosen", lambda: upload(visitor, "", b"", csrf=token), 400, "No file was chosen"),
        ("another field", lambda: visitor.http.post(url, data={"csrf": token, "name": "x"},
                                                    files={"file": ("a.md", b"- [ ] a")},
                                                    allow_redirects=False), 400, "does not send (“name”)"),
        ("empty file", lambda: upload(visitor, "empty.json", b"", csrf=token), 422, "is empty"),
        ("none of ours", lambda: upload(visitor, "photo.png", b"\x89PNG\r\n\x1a\n\x00\x00\xff", csrf=token),
         415, "none of the formats"),
        ("broken JSON", lambda: upload(visitor, "broken.json", b'{"lists": [', csrf=token), 422, "JSON"),
        ("no tasks", lambda: upload(visitor, "notes.md", b"# Notes\n\nJust prose.\n", csrf=token), 422,
         "no tasks"),
        ("broken archive", lambda: upload(visitor, "Checklists.plist", b"bplist00\x00\x01garbage", csrf=token),
         422, "Nothing was changed"),
        ("more than 500 lists", lambda: upload(visitor, "many.json", too_many, csrf=token), 422,
         "List 498 (“L497”) cannot be imported. You already have 500 lists"),
        ("a text too long", lambda: upload(visitor, "long.json", too_long, csrf=token), 422,
         "Item 1 of list 1 (“Long”) cannot be imported. That text is too long"),
    ]


def test_bad_uploads_are_refused_on_the_import_page_and_change_nothing(stack, owner):
    before = data_files(stack)
    backend = stack.backend.pid
    for name, send, status, words in bad_uploads(owner):
        response = send()
        assert response.status_code == status, (name, response.status_code, response.text[:300])
        assert "<h1>Import</h1>" in response.text, name
        assert 'class="error"' in response.text and words in html.unescape(response.text), name
        assert "Nothing was changed." in response.text, name
        assert data_files(stack) == before, name
    assert not list(stack.data.glob("users/*/*/PendingImport.plist"))
    # The backend lived through all of them.
    assert stack.backend.poll() is None and stack.backend.pid == backend
    assert owner.get("/lists").status_code == 200


def test_an_upload_without_the_token_is_403_and_changes_nothing(stack, owner):
    before = data_files(stack)
    assert upload(owner, "a.json", b"{}", csrf=False).status_code == 403
    assert upload(owner, "a.json", b"{}", csrf="0" * 64).status_code == 403
    response = owner.http.post(stack.url("/settings/import"), data={"csrf": owner.csrf()},
                               files={"file": ("a.json", b"{}")}, headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403
    assert data_files(stack) == before


def test_the_pending_import_lives_until_confirm_or_cancel(stack, owner):
    exported = owner.get("/settings/export/checklists.json").content
    assert upload(owner, "mine.json", exported).status_code == 303
    pending = list(stack.data.glob("users/*/*/PendingImport.plist"))
    assert len(pending) == 1
    assert plistlib.loads(pending[0].read_bytes())["fileName"] == "mine.json"
    assert "waits for your Confirm" in owner.get("/settings/import").text
    # Cancel drops it, and the lists are as they were.
    lists = owner.list_ids()
    assert owner.post("/settings/import/cancel").headers["Location"] == "/settings/import?cancelled"
    assert not pending[0].exists()
    assert owner.list_ids() == lists
    # A second upload replaces the first: Confirm of the first preview is 409.
    assert upload(owner, "one.json", exported).status_code == 303
    first = DIGEST.search(owner.get("/settings/import/preview").text).group(1)
    assert upload(owner, "two.md", b"# Two\n- [ ] b\n").status_code == 303
    refused = owner.post("/settings/import/confirm", {"digest": first})
    assert refused.status_code == 409
    assert owner.list_ids() == lists
    second = DIGEST.search(owner.get("/settings/import/preview").text).group(1)
    assert owner.post("/settings/import/confirm", {"digest": second}).status_code == 303
    assert len(owner.list_ids()) == len(lists) + 1
    assert not list(stack.data.glob("users/*/*/PendingImport.plist"))
    # The data directory passes check.
    checked = subprocess.run([stack.binary, "check", "--data", stack.data], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout
    assert "0 imports waiting for their Confirm, 0 expired" in checked.stdout


APP_LISTS = [
    {"name": "Groceries", "icon": "Groceries", "items": [
        {"text": "Milk", "checked": True, "dueDate": 1777626000, "shouldRemind": True, "itemID": 1},
        {"text": "Eggs & “free range”", "checked": False, "dueDate": None, "shouldRemind": False, "itemID": 2},
        {"text": "Bread", "checked": False, "dueDate": 1893456000, "shouldRemind": False, "itemID": 3}]},
    {"name": "Birthdays", "icon": "Birthdays", "items": [
        {"text": "Ada", "checked": True, "dueDate": None, "shouldRemind": False, "itemID": 4}]},
    {"name": "Odd icon", "icon": "Spaceship", "items": []},
]


def app_file(description, writer):
    """The iOS app's file: assembled with plistlib, or written by Foundation's own encoders."""
    if writer == "foundation":
        tool = Path(__file__).resolve().parents[2] / ".build/debug/app-archive-writer"
        if not tool.exists():
            tool = Path(str(tool).replace("/debug/", "/release/"))
        return subprocess.run([tool], input=json.dumps(description).encode(), capture_output=True,
                              check=True).stdout
    import app_fixtures
    return app_fixtures.build(description)


@pytest.mark.parametrize("writer,form,fmt,prefix,string_objects", [
    ("plistlib", "keyed-archive", "binary", None, False),
    ("plistlib", "keyed-archive", "xml", "Checklists", True),
    ("plistlib", "codable", "binary", None, False),
    ("plistlib", "codable", "xml", None, False),
    ("foundation", "keyed-archive", "binary", "Checklists", False),
    ("foundation", "codable", "xml", None, False),
])
def test_the_ios_apps_file_is_imported_with_its_due_dates_and_checkmarks(stack, writer, form, fmt, prefix,
                                                                            string_objects):
    description = {"form": form, "format": fmt, "classPrefix": prefix, "stringObjects": string_objects,
                   "lists": APP_LISTS}
    content = app_file(description, writer)
    visitor = Visitor(stack)
    visitor.get("/lists")
    preview = import_file(visitor, "Checklists.plist", content)
    assert "the iOS app’s Checklists.plist" in html.unescape(preview)
    assert "3 lists with 4 items" in preview
    model = plistlib.loads(visitor_plist(visitor))
    imported = {entry["name"]: entry for entry in model["lists"]}
    assert imported["Groceries"]["icon"] == "groceries"
    assert imported["Birthdays"]["icon"] == "birthdays"
    assert imported["Odd icon"]["icon"] == "folder" and imported["Odd icon"]["items"] == []
    def items(name):
        return [(item["text"], item["checked"],
                 int(item["dueDate"].replace(tzinfo=timezone.utc).timestamp()) if "dueDate" in item else None,
                 item.get("shouldRemind", False))
                for item in imported[name]["items"]]
    assert items("Groceries") == [("Milk", True, 1777626000, True), ("Eggs & “free range”", False, None, False),
                                  ("Bread", False, 1893456000, False)]
    assert items("Birthdays") == [("Ada", True, None, False)]
