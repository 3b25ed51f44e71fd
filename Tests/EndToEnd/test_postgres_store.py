"""What only the PostgreSQL store can meet, through nginx and two hosts: a
document in the database that cannot be read is set aside (renamed, never
deleted) and the visitor told, as a file is; and the database going away
answers `503` with `Retry-After`, then everything works again once it is
back, with no change lost."""
import subprocess
import uuid

import pytest

from hosts import running_hosts
from test_devices import item_texts, make_code, redeem
from visitor import Visitor


@pytest.fixture
def hosts(request):
    with running_hosts("postgres", request, backends=2) as stack:
        yield stack


def database(stack):
    return stack.store.split("/", 3)[3].split("?", 1)[0]


def test_an_unreadable_document_is_set_aside_and_the_visitor_told(hosts):
    visitor = Visitor(hosts)
    visitor.add_item(1, "precious")
    name = database(hosts)
    pg = hosts.postgres
    pg.psql("UPDATE documents SET bytes = 'this is not a plist'::bytea, version = nextval('document_versions') "
            "WHERE name = 'Checklists.plist'", name)
    pg.psql("UPDATE directories SET version = nextval('document_versions')", name)
    response = visitor.get("/lists")
    assert response.status_code == 500
    assert "could not be read" in response.text
    rows = pg.psql("SELECT name, convert_from(bytes, 'UTF8') FROM documents WHERE name LIKE 'Checklists.plist%'",
                   name).strip().splitlines()
    assert len(rows) == 1 and rows[0].startswith("Checklists.plist.corrupt-"), rows
    assert rows[0].endswith("|this is not a plist"), "kept byte for byte"
    assert visitor.get("/lists").status_code == 200, "the visitor starts afresh"


def test_the_database_away_is_503_with_retry_after_and_nothing_is_lost(hosts):
    visitor = Visitor(hosts)
    list_id = visitor.create_list("Before")
    visitor.add_item(list_id, "kept")
    token = visitor.csrf()
    pg = hosts.postgres
    pg.psql(f"ALTER DATABASE {database(hosts)} WITH ALLOW_CONNECTIONS false")
    pg.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{database(hosts)}' AND pid <> pg_backend_pid()")
    try:
        for _ in range(4):  # each host, each of its threads that meets it
            response = visitor.post(f"/lists/{list_id}/items", {"text": "refused", "csrf": token}, csrf=False)
            assert response.status_code == 503, response.status_code
            assert response.headers.get("Retry-After") == "2"
            page = visitor.get(f"/lists/{list_id}")
            assert page.status_code == 503 and page.headers.get("Retry-After") == "2"
    finally:
        pg.psql(f"ALTER DATABASE {database(hosts)} WITH ALLOW_CONNECTIONS true")
    # Each host tries again within its back-off (at most 2 s), as its
    # /health tells.
    for index in range(hosts.count):
        hosts.wait_until(lambda: hosts.fastcgi(index, "GET", "/health")[0] == 200, f"host {index} ready")
    visitor.add_item(list_id, "after")
    # The items, not the page: the script's sentences (its JSON island)
    # hold the word "refused" too.
    texts = item_texts(visitor, list_id)
    assert "kept" in texts and "after" in texts and "refused" not in texts


def test_check_and_repair_keep_a_linked_browser_on_postgresql(hosts):
    # A linked browser's index entry leads to its owner's directory, which
    # on PostgreSQL is rows, never a folder on disk: `check` must find it
    # there, and `--repair` must leave the link working.
    laptop = Visitor(hosts)
    groceries = laptop.create_list("Groceries")
    laptop.add_item(groceries, "Milk")
    code, _, _ = make_code(laptop)
    phone = Visitor(hosts)
    assert redeem(phone, code).status_code == 303
    assert item_texts(phone, groceries) == ["Milk"]
    for extra in ([], ["--repair"]):
        check = subprocess.run([str(hosts.binary), "check", "--store", hosts.store, "--data", str(hosts.data),
                                *extra], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout + check.stderr
        assert "1 linked browsers" in check.stdout, check.stdout
        assert "0 browser and 0 link code index entries leading nowhere" in check.stdout, check.stdout
    rows = hosts.postgres.psql("SELECT count(*) FROM documents WHERE directory LIKE 'browsers/%'", database(hosts))
    assert int(rows) == 1, "the phone's entry is kept"
    phone.add_item(groceries, "Bread")
    assert item_texts(laptop, groceries) == ["Milk", "Bread"]


def test_the_calendar_feed_is_dated_by_real_write_times(hosts):
    """On PostgreSQL a document's version carried no time, and the feed's
    `Last-Modified` and `DTSTAMP` were 1970: a calendar app asking
    `If-Modified-Since` 1970 was told `304` after a reminder was added."""
    import datetime
    import email.utils
    import re
    import time

    from test_calendar import create_address, fetch

    started = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    visitor = Visitor(hosts)

    def remind(text, hours):
        visitor.add_item(1, text)
        item = max(int(found) for found in re.findall(r'items/(\d+)/toggle ', visitor.get("/lists/1").text))
        due = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=hours))
        saved = visitor.post(f"/lists/1/items/{item}", {
            "text": text, "dueDate": due.strftime("%Y-%m-%dT%H:%M"), "dueDateZone": "UTC",
            "shouldRemind": "on"})
        assert saved.status_code == 303, saved.status_code

    _, secret = create_address(visitor)
    remind("Dentist", 2)
    first = fetch(hosts, secret)
    assert first.status_code == 200
    modified = email.utils.parsedate_to_datetime(first.headers["Last-Modified"])
    assert started - datetime.timedelta(seconds=2) <= modified <= started + datetime.timedelta(minutes=2)
    stamps = set(re.findall(rb"DTSTAMP:(\d{8}T\d{6}Z)", first.content))
    assert stamps == {modified.strftime("%Y%m%dT%H%M%SZ").encode()}, stamps
    assert fetch(hosts, secret, **{"If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"}).status_code == 200
    time.sleep(1.1)
    assert fetch(hosts, secret, **{"If-Modified-Since": first.headers["Last-Modified"]}).status_code == 304
    # A reminder added since: the date moves on, and the old date is not 304.
    remind("Pharmacy", 3)
    second = fetch(hosts, secret, **{"If-Modified-Since": first.headers["Last-Modified"]})
    assert second.status_code == 200 and b"Pharmacy" in second.content
    assert email.utils.parsedate_to_datetime(second.headers["Last-Modified"]) > modified


def test_prune_on_postgresql_lists_then_removes_an_idle_visitor(hosts):
    """`prune` worked on files only: on PostgreSQL it found no visitor."""
    idle, recent = Visitor(hosts), Visitor(hosts)
    idle.add_item(1, "forgotten")
    recent.add_item(1, "kept")
    name = database(hosts)
    directory = hosts.postgres.psql(
        "SELECT directory FROM documents WHERE name = 'Checklists.plist' AND "
        "convert_from(bytes, 'UTF8') LIKE '%forgotten%'", name).strip()
    assert directory.startswith("users/"), directory
    hosts.postgres.psql(f"UPDATE documents SET written = now() - interval '500 days' "
                        f"WHERE directory = '{directory}'", name)
    hosts.postgres.psql(f"UPDATE directories SET active = NULL WHERE directory = '{directory}'", name)

    def prune(*extra):
        run = subprocess.run([str(hosts.binary), "prune", "--store", hosts.store, "--data", str(hosts.data),
                              "--idle-days", "400", *extra], capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr
        return run.stdout

    listed = prune()
    assert f"{directory}  idle 500 days" in listed and "1 visitors idle" in listed and "dry run" in listed, listed
    assert int(hosts.postgres.psql(f"SELECT count(*) FROM documents WHERE directory = '{directory}'", name)) > 0
    removed = prune("--delete")
    assert "1 visitors idle" in removed and ": removed" in removed, removed
    assert int(hosts.postgres.psql(f"SELECT count(*) FROM documents WHERE directory = '{directory}'", name)) == 0
    assert "kept" in recent.get("/lists/1").text
    assert "forgotten" not in idle.get("/lists/1").text, "the idle visitor starts afresh"
