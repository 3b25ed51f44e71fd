"""A new visitor's directories survive a power loss once their first change is acknowledged.

A power loss cannot be pulled in a test, so the real backend runs under
`strace`, and the test reads the order of its system calls: every directory
the first change creates (`users`, the shard, the visitor's own) must be
flushed, and so must the parent that holds its entry, before the backend
writes the `303` that acknowledges the change. On ext4 without a journal
nothing else writes a new directory's entry out.
"""
import hashlib
import os
import plistlib
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from stack import Stack
from visitor import Visitor

TRACED = "mkdir,mkdirat,fsync,fdatasync,write,writev,sendmsg,sendto"
MKDIR = re.compile(r'^\d+ +mkdir(?:at)?\((?:[^,]*, )?"([^"]+)", [0-7]+\) = 0$')
FSYNC = re.compile(r"^\d+ +f(?:data)?sync\(\d+<([^>]+)>\) = 0$")
ACK = re.compile(r"^\d+ +(?:write|writev|sendmsg|sendto)\(.*Status: 303")


@pytest.fixture
def traced_stack(tmp_path):
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (scripts/install-deps test installs it)")
    stack = Stack()
    trace = stack.dir / "trace.txt"
    wrapper = stack.dir / "traced-backend"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'exec strace -f -y -s 256 -e trace={TRACED} -o "{trace}" -- "{stack.binary}" "$@"\n')
    wrapper.chmod(0o755)
    stack.binary = wrapper
    try:
        yield stack.start(), trace
    finally:
        # The backend is strace's child: stop it by its pid (SIGTERM drains it), so that
        # strace, which would only detach when signalled itself, exits with it.
        if stack.backend is not None:
            for child in children(stack.backend.pid):
                os.kill(child, signal.SIGTERM)
            try:
                stack.backend.wait(10)
            except subprocess.TimeoutExpired:
                pass
        stack.stop()


def children(pid):
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(child) for child in text]
    return found


def acknowledged_events(trace: Path):
    """(kind, path) for each created directory, flush and acknowledgement, in the order run."""
    return acknowledged_events_in(trace.read_text(errors="replace").splitlines())


def acknowledged_events_in(lines):
    events = []
    for line in lines:
        if (match := MKDIR.match(line)):
            events.append(("mkdir", os.path.normpath(match.group(1))))
        elif (match := FSYNC.match(line)):
            events.append(("fsync", os.path.normpath(match.group(1))))
        elif ACK.match(line):
            events.append(("ack", None))
    return events


def test_first_changes_flush_every_new_directory_and_its_parent_before_the_303(traced_stack):
    stack, trace = traced_stack
    # One visitor's first change goes through the store (an item), another's through the
    # preferences (settings): each creates users/<shard>/<key> with its own first write.
    store_visitor = Visitor(stack)
    assert store_visitor.post("/lists/1/items", {"text": "milk"}).status_code == 303
    preferences_visitor = Visitor(stack)
    saved = preferences_visitor.post("/settings", {"HideCheckedItems": "on", "OpenLastList": "on"})
    assert saved.status_code == 303
    time.sleep(0.2)  # strace writes its log as the calls happen; let it catch up

    events = acknowledged_events(trace)
    created = [path for kind, path in events if kind == "mkdir"]
    users = os.path.normpath(str(stack.data / "users"))
    visitors = [path for path in created if os.path.dirname(os.path.dirname(path)) == users]
    assert users in created and len(visitors) == 2, created
    assert sum(1 for kind, _ in events if kind == "ack") >= 2, "no 303 seen in the trace"
    for index, (kind, path) in enumerate(events):
        if kind != "mkdir":
            continue
        later = events[index + 1:]
        until_ack = later[:next(i for i, (k, _) in enumerate(later) if k == "ack")]
        flushed = {p for k, p in until_ack if k == "fsync"}
        assert path in flushed, f"{path} created but not flushed before the 303"
        assert os.path.dirname(path) in flushed, f"the parent of {path} not flushed before the 303"


def test_check_all_of_a_thousand_items_is_one_durable_write(traced_stack):
    """Check all answers after exactly one durable write: the new version of
    the visitor's file flushed, then their directory (which holds its name),
    then the 303."""
    stack, trace = traced_stack
    visitor = Visitor(stack)
    assert visitor.post("/lists/1/items", {"text": "first"}).status_code == 303
    visitor_id = visitor.cookie("visitor").split(".")[0]
    key = hashlib.sha256(visitor_id.encode()).hexdigest()
    directory = stack.data / "users" / key[:2] / key
    path = directory / "Checklists.plist"
    with open(path, "rb") as file:
        stored = plistlib.load(file)
    stored["lists"][0]["items"] = [
        {"id": number, "text": f"Pack item {number}", "checked": False} for number in range(1, 1_001)]
    stored["nextItemID"] = 1_001
    temporary = directory / "Checklists.plist.new"
    with open(temporary, "wb") as file:
        plistlib.dump(stored, file, fmt=plistlib.FMT_XML)
    os.replace(temporary, path)
    time.sleep(0.2)
    start = len(trace.read_text(errors="replace").splitlines())

    assert visitor.post("/lists/1/check-all").status_code == 303
    time.sleep(0.2)  # strace writes its log as the calls happen; let it catch up

    lines = trace.read_text(errors="replace").splitlines()[start:]
    events = acknowledged_events_in(lines)
    acknowledgement = next(i for i, (kind, _) in enumerate(events) if kind == "ack")
    flushed = [os.path.normpath(p) for kind, p in events[:acknowledgement] if kind == "fsync"]
    assert len(flushed) == 2, flushed
    assert os.path.dirname(flushed[0]) == os.path.normpath(str(directory)), flushed
    assert flushed[1] == os.path.normpath(str(directory)), flushed
    page = visitor.get("/lists/1").text
    assert page.count('aria-pressed=true') == 1_000
