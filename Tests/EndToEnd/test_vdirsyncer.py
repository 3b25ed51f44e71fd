"""Two-way sync with vdirsyncer into a local folder that todoman edits, the
server through nginx on loopback with an app password made on the web:
1,000 to-dos, changes on both sides between syncs, one to-do changed on both
(vdirsyncer's `conflict_resolution = "a wins"`: the local folder's version
is the one kept), then both sides hold the same to-dos, nothing lost, and
every property a client wrote (DESCRIPTION, PRIORITY, CATEGORIES, an X-
property, a second VALARM) is still there after the web's edits.

vdirsyncer and todoman are Debian's packages (scripts/install-deps test)."""
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import calendar_app
from calendar_app import Collection, prop, rename_on_web, todo_lines, unfolded, web_items
from visitor import Visitor

DIGEST = re.compile(r'name="digest" value="([0-9a-f]{64})"')
BULK = 1_000
# To-dos as another client (a phone's reminders app, say) writes them: what
# the server has no field for must come back unchanged.
CLIENT_TODO = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//Elsewhere//Phone Tasks//EN\r
BEGIN:VTODO\r
UID:{uid}\r
DTSTAMP:20250301T080000Z\r
SUMMARY:{summary}\r
DESCRIPTION:Notes for {summary}\\, kept by the client\r
PRIORITY:2\r
CATEGORIES:Errands,Weekend\r
X-PHONE-FLAG;X-COLOUR=red:starred\r
BEGIN:VALARM\r
ACTION:DISPLAY\r
DESCRIPTION:Reminder\r
TRIGGER:-PT15M\r
END:VALARM\r
BEGIN:VALARM\r
ACTION:AUDIO\r
TRIGGER:-PT5M\r
END:VALARM\r
END:VTODO\r
END:VCALENDAR\r
"""
CLIENT_KEPT = ("DESCRIPTION:Notes for {summary}\\, kept by the client", "PRIORITY:2",
               "CATEGORIES:Errands,Weekend", "X-PHONE-FLAG;X-COLOUR=red:starred",
               "ACTION:AUDIO", "TRIGGER:-PT5M", "TRIGGER:-PT15M")


def tool(name):
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is missing: run scripts/install-deps test")
    return found


class Workspace:
    """vdirsyncer's config, status and local folder, and todoman's config
    and cache, all in one temporary folder, for one app password."""

    def __init__(self, app):
        self.dir = Path(tempfile.mkdtemp(prefix="checklists-vdirsyncer-"))
        self.vdir = self.dir / "tasks"
        self.vdir.mkdir()
        self.config = self.dir / "vdirsyncer.conf"
        self.config.write_text(f"""[general]
status_path = "{self.dir}/status/"

[pair checklists]
a = "checklists_local"
b = "checklists_remote"
collections = ["from b"]
conflict_resolution = "a wins"

[storage checklists_local]
type = "filesystem"
path = "{self.vdir}/"
fileext = ".ics"

[storage checklists_remote]
type = "caldav"
url = "{app['server']}"
username = "{app['user']}"
password = "{app['password']}"
item_types = ["VTODO"]
""")
        self.todoman_config = self.dir / "todoman.py"
        self.todoman_config.write_text(f"""path = "{self.vdir}/*"
cache_path = "{self.dir}/todoman-cache.sqlite3"
date_format = "%Y-%m-%d"
time_format = "%H:%M"
""")

    def vdirsyncer(self, *arguments):
        finished = subprocess.run(
            [tool("vdirsyncer"), "-c", str(self.config), *arguments], input="y\n" * 20,
            capture_output=True, text=True, timeout=600)
        assert finished.returncode == 0, (arguments, finished.stdout[-3000:], finished.stderr[-3000:])
        return finished.stderr

    def sync(self):
        return self.vdirsyncer("sync")

    def todoman(self, *arguments, porcelain=False):
        """Runs todoman; with `porcelain`, its JSON answer (todoman 4.1's
        `new` and `delete` fail or print no JSON that way)."""
        finished = subprocess.run(
            [tool("todoman"), "--config", str(self.todoman_config), *(["--porcelain"] if porcelain else []),
             *arguments],
            capture_output=True, text=True, timeout=120, env={**os.environ, "TZ": "UTC"})
        assert finished.returncode == 0, (arguments, finished.stdout[-2000:], finished.stderr[-2000:])
        return json.loads(finished.stdout) if porcelain and finished.stdout.strip() else None

    def todoman_id(self, summary):
        todos = self.todoman("list", "--status", "ANY", porcelain=True)
        matching = [todo["id"] for todo in todos if todo["summary"] == summary]
        assert len(matching) == 1, (summary, matching)
        return str(matching[0])

    def local(self, collection):
        """{UID: iCalendar text} of the local folder's collection."""
        found = {}
        for path in (self.vdir / collection).glob("*.ics"):
            text = path.read_text()
            found[prop(text, "UID")] = text
        return found

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def import_markdown(visitor, name, texts):
    """Imports one list of `texts` through Settings → Import, as a person does."""
    markdown = f"# {name}\n\n" + "".join(f"- [ ] {text}\n" for text in texts)
    uploaded = visitor.http.post(visitor.stack.url("/settings/import"), data={"csrf": visitor.csrf()},
                                 files={"file": ("bulk.md", markdown.encode(), "text/markdown")},
                                 allow_redirects=False)
    assert uploaded.status_code == 303, (uploaded.status_code, uploaded.text[:500])
    digest = DIGEST.search(visitor.get("/settings/import/preview").text).group(1)
    confirmed = visitor.post("/settings/import/confirm", {"digest": digest})
    assert confirmed.status_code == 303, confirmed.status_code
    return max(visitor.list_ids())


def semantic(ics):
    """What both sides must agree on: the to-do's summary, whether it is
    done, and every line a client wrote that the server keeps."""
    status = prop(ics, "STATUS") or ("COMPLETED" if prop(ics, "COMPLETED") else "NEEDS-ACTION")
    kept = sorted(line for line in todo_lines(ics)
                  if line.split(":")[0].split(";")[0] in ("DESCRIPTION", "PRIORITY", "CATEGORIES", "X-PHONE-FLAG",
                                                         "TRIGGER", "ACTION", "LOCATION"))
    return prop(ics, "SUMMARY"), status == "COMPLETED", kept


@pytest.fixture
def workspace():
    made = []
    yield made
    for each in made:
        each.remove()


def test_vdirsyncer_and_todoman_sync_1000_to_dos_both_ways_and_keep_what_clients_wrote(stack, workspace):
    owner = Visitor(stack)
    bulk = import_markdown(owner, "Bulk", [f"Bulk {n:04d}" for n in range(BULK)])
    app = calendar_app.connect(owner)
    local = Workspace(app)
    workspace.append(local)
    remote = Collection(stack.url(""), f"/dav/lists/{bulk}/", (app["user"], app["password"]))

    local.vdirsyncer("discover")
    local.sync()
    collection = str(bulk)
    assert (local.vdir / collection).is_dir(), sorted(path.name for path in local.vdir.iterdir())
    pulled = local.local(collection)
    assert len(pulled) == BULK
    assert sorted(prop(text, "SUMMARY") for text in pulled.values()) == [f"Bulk {n:04d}" for n in range(BULK)]

    # The local side: another client's to-dos dropped into the folder (as a
    # phone synced through this folder would), todoman's own new ones, a
    # todoman `done` and `edit` of to-dos the web made, and a delete.
    for n in range(5):
        (local.vdir / collection / f"phone-{n}.ics").write_text(
            CLIENT_TODO.format(uid=f"phone-{n}", summary=f"Phone {n}"), newline="")
    local.todoman("new", "-l", collection, "--priority", "high", "--location", "Corner shop", "Todoman new")
    local.todoman("new", "-l", collection, "--due", "2031-05-06", "Todoman due")
    local.todoman("done", local.todoman_id("Bulk 0001"))
    local.todoman("edit", local.todoman_id("Bulk 0002"), "--priority", "low")
    local.todoman("delete", "--yes", local.todoman_id("Bulk 0003"))
    local.sync()

    on_web = web_items(owner, bulk)
    assert len(on_web) == BULK - 1 + 5 + 2
    assert on_web["Bulk 0001"][1] is True and "Bulk 0003" not in on_web
    assert {"Phone 0", "Phone 4", "Todoman new", "Todoman due"} <= set(on_web)

    # The web's side: toggles and renames (of the phone's to-dos too), adds,
    # a delete; and one to-do changed on both sides before the next sync.
    assert owner.post(f"/lists/{bulk}/items/{on_web['Phone 0'][0]}/toggle").status_code == 303
    rename_on_web(owner, bulk, on_web["Phone 1"][0], "Phone 1 renamed")
    assert owner.post(f"/lists/{bulk}/items/{on_web['Bulk 0010'][0]}/toggle").status_code == 303
    rename_on_web(owner, bulk, on_web["Bulk 0011"][0], "Bulk 0011 renamed")
    assert owner.post(f"/lists/{bulk}/items/{on_web['Bulk 0012'][0]}/delete").status_code == 303
    owner.add_item(bulk, "Web new")
    rename_on_web(owner, bulk, on_web["Bulk 0020"][0], "Web Bulk 0020")
    local.todoman("edit", local.todoman_id("Bulk 0020"), "--priority", "medium")
    local.todoman("new", "-l", collection, "Todoman later")
    local.sync()

    # "a wins": the local folder's version of Bulk 0020 is the one kept, on
    # both sides; the web's rename of it is gone.
    on_web = web_items(owner, bulk)
    assert "Bulk 0020" in on_web and "Web Bulk 0020" not in on_web
    mine = local.local(collection)
    theirs = {prop(text, "UID"): text for _, text in remote.read().values()}
    assert set(mine) == set(theirs)
    assert {uid: semantic(text) for uid, text in mine.items()} == {uid: semantic(text) for uid, text in theirs.items()}
    assert len(mine) == BULK - 2 + 5 + 2 + 1 + 1
    by_summary = {prop(text, "SUMMARY"): text for text in mine.values()}
    assert prop(by_summary["Bulk 0020"], "PRIORITY") == "5"
    assert prop(by_summary["Phone 0"], "STATUS") == "COMPLETED"
    assert prop(by_summary["Bulk 0010"], "STATUS") == "COMPLETED"
    assert {"Phone 1 renamed", "Bulk 0011 renamed", "Web new", "Todoman later"} <= set(by_summary)
    assert "Bulk 0012" not in by_summary and "Bulk 0003" not in by_summary
    assert prop(by_summary["Todoman new"], "LOCATION") == "Corner shop"
    assert prop(by_summary["Todoman due"], "DUE").startswith("20310506")

    # What the phone wrote is still there after the web's toggle and rename.
    for summary, shown in (("Phone 0", "Phone 0"), ("Phone 1 renamed", "Phone 1"), ("Phone 2", "Phone 2")):
        for side in (by_summary[summary], theirs[prop(by_summary[summary], "UID")]):
            lines = unfolded(side)
            for kept in CLIENT_KEPT:
                assert kept.format(summary=shown) in lines, (summary, kept, lines)
            assert lines.count("BEGIN:VALARM") == 2

    # The server answers a PUT without an ETag (what it stores is its own
    # writing of the to-do), so vdirsyncer fetches back at the next sync
    # what it uploaded; the two sides still agree, and after that a sync
    # changes neither side.
    local.sync()
    mine = local.local(collection)
    assert {uid: semantic(text) for uid, text in mine.items()} == {uid: semantic(text) for uid, text in theirs.items()}
    before_token, before_files = remote.token(), mine
    local.sync()
    assert remote.token() == before_token and local.local(collection) == before_files
