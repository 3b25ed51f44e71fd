"""`checklists migrate` as an operator runs it: a visitor uses the site on
the file store; the backend stops; every document goes into PostgreSQL and
back out to a second directory, byte for byte; `check` passes on the
database; and the site served from PostgreSQL greets the same browser with
its lists (the server secret moved too, so its cookies still hold)."""
import os
import subprocess
import uuid
from pathlib import Path

from hosts import MultiHostStack
from stack import Stack, backend_binary
from visitor import Visitor


def documents(root: Path) -> dict:
    """Every document under `root` by relative path; a store's bookkeeping
    (locks, spares, temporary files) starts with a dot and is not one."""
    found = {}
    for path in root.rglob("*"):
        if path.is_file() and not path.name.startswith("."):
            found[str(path.relative_to(root))] = path.read_bytes()
    return found


def checklists(*arguments):
    return subprocess.run([str(backend_binary()), *arguments], capture_output=True, text=True,
                          timeout=120)


def test_files_to_postgresql_and_back_keeps_every_byte_and_every_visitor(postgres_cluster):
    stack = Stack().start()
    try:
        visitor = Visitor(stack)
        groceries = visitor.create_list("Groceries", icon="groceries")
        visitor.add_item(groceries, "Milk")
        visitor.add_item(groceries, "Bread")
        visitor.create_list("Trip")
        page = visitor.get(f"/lists/{groceries}").text
        toggle = page.split('items/', 1)[1].split('/toggle ', 1)[0]
        assert visitor.post(f"/lists/{groceries}/items/{toggle}/toggle").status_code == 303
        assert visitor.post(f"/lists/{groceries}/share/read-only").status_code == 303
        assert visitor.post("/settings/calendar").status_code == 303
        cookies = dict(visitor.http.cookies.items())
    finally:
        stack.stop_backend()
    data = stack.data
    source = documents(data)
    assert any(name.endswith("Checklists.plist") for name in source)
    assert any(name.endswith("Calendar.secret") for name in source)
    assert "secret" in source

    database = "migrated_" + uuid.uuid4().hex[:8]
    postgres_cluster.create_database(database)
    uri = postgres_cluster.conninfo(database)
    first = checklists("migrate", "--from-files", str(data), "--to", uri)
    assert first.returncode == 0, first.stderr
    assert f"{len(source)} documents copied, 0 already there" in first.stdout
    again = checklists("migrate", "--from-files", str(data), "--to", uri)
    assert again.returncode == 0 and f"0 documents copied, {len(source)} already there" in again.stdout

    check = checklists("check", "--store", uri, "--data", str(data))
    assert check.returncode == 0, check.stdout + check.stderr
    assert "1 visitors" in check.stdout and "1 calendar addresses" in check.stdout

    back = stack.dir / "back"
    out = checklists("migrate", "--from", uri, "--to-files", str(back))
    assert out.returncode == 0, out.stderr
    assert documents(back) == source, "files → PostgreSQL → files leaves every document as it was"
    stack.stop()

    hosts = MultiHostStack(backends=2, store=uri)
    hosts.start()
    try:
        returning = Visitor(hosts)
        for name, value in cookies.items():
            returning.http.cookies.set(name, value)
        landing = returning.get("/")
        assert landing.status_code == 303
        assert landing.headers["Location"].endswith(f"/lists/{groceries}"), \
            "the browser lands on its last list, served from PostgreSQL"
        page = returning.get(f"/lists/{groceries}")
        assert page.status_code == 200
        assert "Groceries" in page.text and "Milk" in page.text and "Bread" in page.text
        assert "Trip" in returning.get("/lists").text
    finally:
        hosts.stop()
