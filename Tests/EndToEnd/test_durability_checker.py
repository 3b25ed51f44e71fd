"""The crash-consistency checker (durability.py) on traces whose verdict is
known: excerpts of the real backend's trace, each recorded once with one
flush removed from `FileSystem` (the three the suite missed before the
checker, a refilled spare's own flush, a removal's directory flush; see
`fixtures/durability/`), one of the unchanged backend, and small
hand-written traces of each rule.

The fixtures were cut from a run of test_durability.py's stream against
the mutated backend with `durability.excerpt` (the calls on the data
directory and the FastCGI requests and answers up to the first fault's
answer, the removal's from the change before it; the data directory
written `/data`, file bytes cut to 32)."""
from pathlib import Path

import durability

FIXTURES = Path(__file__).parent / "fixtures" / "durability"


def report_of(name):
    return durability.check(FIXTURES / f"{name}.trace", "/data")


def only_fault(report):
    assert len(report.faults) == 1, report.text()
    return report.faults[0]


def test_the_steady_state_write_without_its_directory_flush_is_caught():
    """AtomicFile.replaceReusingSpare: the spare refilled, flushed and
    exchanged with Checklists.plist, then the directory flush skipped
    (the third change of a visitor, the first to reuse the spare)."""
    report = report_of("spare-directory-flush-skipped")
    fault = only_fault(report)
    assert fault.request == "POST /lists/1/items" and fault.status == 303
    assert fault.path.startswith("<data>/users/") and fault.path.endswith("/Checklists.plist")
    assert fault.operation == "exchange to this name"
    directory = fault.path.rsplit("/", 1)[0]
    assert fault.missing == f"missing: no fsync of its directory {directory} after it before the answer"
    assert str(fault).startswith("POST /lists/1/items → 303 (answer at trace line 73): ")
    # The two changes before it wrote the same file through the other paths, flushed.
    assert [r.label for r in report.acknowledged] == ["GET /lists/new"] + ["POST /lists/1/items"] * 3


def test_atomic_write_without_its_directory_flush_is_caught():
    """AtomicFile.write (Preferences.plist, Devices.plist, Shares.plist, the
    index entries): the directory flush after the rename skipped; the first
    change of a new visitor writes Preferences.plist that way."""
    fault = only_fault(report_of("write-directory-flush-skipped"))
    assert (fault.request, fault.status) == ("POST /lists/1/items", 303)
    assert fault.path.endswith("/Preferences.plist") and fault.operation == "rename to this name"
    assert fault.missing.startswith("missing: no fsync of its directory <data>/users/")


def test_a_created_document_without_its_directory_flush_is_caught():
    """LocalDocuments.create (the server secret, made at start-up by
    `link`): its directory flush skipped. Owed by the first answer, a page
    whose form token is made with that secret."""
    fault = only_fault(report_of("created-document-directory-flush-skipped"))
    assert (fault.request, fault.status) == ("GET /lists/new", 200)
    assert fault.path == "<data>/secret"
    assert fault.operation == "link to this name (outside any request, before it)"
    assert fault.missing == "missing: no fsync of its directory <data> after it before the answer"


def test_a_spare_exchanged_before_its_bytes_are_flushed_is_caught():
    """AtomicFile.replaceReusingSpare: the refilled spare's own fsync skipped."""
    report = report_of("spare-file-flush-skipped")
    assert len(report.faults) == 3, report.text()
    named = report.faults[0].path
    assert "/.Checklists.plist.spare (the file now named <data>/users/" in named and named.endswith("/Checklists.plist)")
    assert [(f.operation, f.missing) for f in report.faults] == [
        ("pwrite64 of its bytes", "missing: no fsync of the file after it before the answer"),
        ("ftruncate of its bytes", "missing: no fsync of the file after it before the answer"),
        ("exchange to this name",
         "misordered: named by renameat2 before its bytes were flushed (fsync of the file, then the rename)"),
    ]


def test_a_removal_without_its_directory_flush_is_caught():
    """LocalDocuments.remove: the directory flush after `unlink` skipped; a
    replaced calendar address removes the old one's index entry (an excerpt
    from the change before it)."""
    fault = only_fault(report_of("removal-directory-flush-skipped"))
    assert (fault.request, fault.status) == ("POST /settings/calendar/replace", 303)
    assert fault.path.startswith("<data>/calendars/") and fault.operation == "removed by unlink"
    assert fault.missing == (f"missing: no fsync of its directory {fault.path.rsplit('/', 1)[0]} "
                             "after it before the answer")


def test_the_unchanged_backend_passes_and_its_write_paths_are_reported():
    report = report_of("flushed")
    assert report.ok, report.text()
    assert len(report.acknowledged) == 9
    checklists = "users/<2>/<64>/Checklists.plist"
    assert report.coverage[(checklists, "first")] == {"rename of a new file"}
    assert report.coverage[(checklists, "steady state")] == {"exchange of a new file", "exchange of a rewritten file"}
    assert report.coverage[("secret", "first")] == {"link of a new file"}
    assert {("users/", "first"), ("users/<2>/", "first"), ("users/<2>/<64>/", "first")} <= report.cells()
    text = report.text()
    assert text.startswith("9 answers checked, 0 faults")
    assert "users/<2>/<64>/Checklists.plist   steady state exchange of a new file, exchange of a rewritten file" in text


# Hand-written traces: one thread (7) answers a POST on socket 5.

def request(method="POST", uri="/lists/1/items"):
    params = b""
    for name, value in ((b"REQUEST_METHOD", method.encode()), (b"REQUEST_URI", uri.encode())):
        params += bytes([len(name), len(value)]) + name + value
    record = b"\x01\x04\x00\x01" + len(params).to_bytes(2, "big") + b"\x00\x00" + params
    return f'7 1.0 read(5<socket:[9]>, "{durability.escape(record)}", 8192) = {len(record)}'


def answer(status="303 See Other"):
    body = b"\x01\x06\x00\x01\x00\x20\x00\x00Status: " + status.encode() + b"\r\n"
    return f'7 1.0 write(5<socket:[9]>, "{durability.escape(body)}", {len(body)}) = {len(body)}'


def judged(*calls):
    lines = [request()] + [f"7 1.0 {call}" for call in calls] + [answer()]
    return durability.check(None, "/data", lines=lines)


TEMPORARY = "/data/u/.Checklists.plist.tmp-1-2"
WRITE_TEMPORARY = [
    f'openat(AT_FDCWD</>, "{TEMPORARY}", O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC, 0600) = 3<{TEMPORARY}>',
    f'pwrite64(3<{TEMPORARY}>, "<?xml"..., 100, 0) = 100',
]
FLUSH_TEMPORARY = f"fsync(3<{TEMPORARY}>) = 0"
RENAME = f'rename("{TEMPORARY}", "/data/u/Checklists.plist") = 0'
FLUSH_DIRECTORY = "fsync(4</data/u>) = 0"


def test_file_then_rename_then_directory_passes():
    report = judged(*WRITE_TEMPORARY, FLUSH_TEMPORARY, RENAME, FLUSH_DIRECTORY)
    assert report.ok and len(report.acknowledged) == 1, report.text()
    assert report.coverage[("u/Checklists.plist", "first")] == {"rename of a new file"}


def test_a_rename_before_the_file_is_flushed_is_misordered():
    report = judged(*WRITE_TEMPORARY, RENAME, FLUSH_TEMPORARY.replace(TEMPORARY, "/data/u/Checklists.plist"),
                    FLUSH_DIRECTORY)
    assert [fault.missing for fault in report.faults] == [
        "misordered: named by rename before its bytes were flushed (fsync of the file, then the rename)"]


def test_bytes_never_flushed_are_missing_under_the_name_they_got():
    report = judged(*WRITE_TEMPORARY, RENAME, FLUSH_DIRECTORY)
    missing = {(fault.path, fault.missing) for fault in report.faults}
    assert ("<data>/u/.Checklists.plist.tmp-1-2 (the file now named <data>/u/Checklists.plist)",
            "missing: no fsync of the file after it before the answer") in missing, report.text()


def test_a_removal_needs_its_directory_flushed():
    unlink = 'unlink("/data/calendars/ab/abcd") = 0'
    report = judged(unlink)
    assert [(f.path, f.operation) for f in report.faults] == [("<data>/calendars/ab/abcd", "removed by unlink")]
    assert judged(unlink, "fsync(4</data/calendars/ab>) = 0").ok


def test_a_new_directory_needs_itself_and_its_parent_flushed():
    mkdir = 'mkdir("/data/users", 0700) = 0'
    assert {f.missing for f in judged(mkdir, "fsync(4</data>) = 0").faults} == {
        "missing: no fsync of the new directory itself after it before the answer"}
    assert {f.missing for f in judged(mkdir, "fsync(4</data/users>) = 0").faults} == {
        "missing: no fsync of its directory <data> after it before the answer"}
    assert judged(mkdir, "fsync(4</data/users>) = 0", "fsync(4</data>) = 0").ok


def test_a_lock_file_and_a_failed_call_owe_nothing():
    assert judged('openat(AT_FDCWD</>, "/data/u/.Checklists.lock", O_RDWR|O_CREAT|O_CLOEXEC, 0600) = 3</data/u/.Checklists.lock>',
                  'rename("/data/u/a", "/data/u/b") = -1 ENOENT (No such file or directory)').ok


def test_a_flush_still_running_when_the_answer_is_written_does_not_count():
    lines = [request(), *(f"7 1.0 {call}" for call in WRITE_TEMPORARY), f"7 1.0 {FLUSH_TEMPORARY}", f"7 1.0 {RENAME}",
             "8 1.0 fsync(4</data/u> <unfinished ...>", answer(), "8 1.0 <... fsync resumed>) = 0"]
    report = durability.check(None, "/data", lines=lines)
    assert [f.operation for f in report.faults] == ["rename to this name"], report.text()
    lines[-3:] = ["8 1.0 fsync(4</data/u> <unfinished ...>", "8 1.0 <... fsync resumed>) = 0", answer()]
    assert durability.check(None, "/data", lines=lines).ok


def test_a_get_that_writes_nothing_and_a_refused_post_are_not_acknowledgments():
    lines = [request("GET", "/lists/1"), answer("200 OK"), request(), answer("422 Unprocessable Content")]
    assert durability.check(None, "/data", lines=lines).acknowledged == []


# The PostgreSQL store: the protocol as the client's sendto/recvfrom show it.

def message(kind: bytes, body: bytes) -> bytes:
    return kind + (len(body) + 4).to_bytes(4, "big") + body


PARAMETERS = b"\x00\x03\x00\x00user\x00postgres\x00\x00"
STARTUP = (len(PARAMETERS) + 4).to_bytes(4, "big") + PARAMETERS
UPDATE = message(b"P", b"replace\x00UPDATE documents SET bytes = $1\x00\x00\x00") + message(
    b"B", b"\x00replace\x00\x00\x00\x00\x00\x00\x00") + message(b"E", b"\x00\x00\x00\x00\x00") + message(b"S", b"")
DONE = message(b"C", b"UPDATE 1\x00") + message(b"Z", b"I")


def pg(direction, data):
    name = {"out": "sendto", "in": "recvfrom"}[direction]
    return f'7 1.0 {name}(3<socket:[4]>, "{durability.escape(data)}", {len(data)}, 0, NULL, 0) = {len(data)}'


def test_a_change_answered_after_the_server_ended_its_transaction_passes():
    lines = [pg("out", STARTUP), pg("in", message(b"Z", b"I")), request(), pg("out", UPDATE), pg("in", DONE), answer()]
    report = durability.check_postgres(None, "/data", lines=lines)
    assert report.ok and not report.silent, report.text()
    assert "1 statements that write sent (0 outside any request), 1 in transactions the server reported committed" \
        in report.text()


def test_a_change_answered_before_the_server_ended_its_transaction_is_caught():
    lines = [pg("out", STARTUP), request(), pg("out", UPDATE), answer(), pg("in", DONE)]
    fault = only_fault(durability.check_postgres(None, "/data", lines=lines))
    assert fault.operation == "UPDATE documents SET bytes = $1"
    assert fault.missing.startswith("missing: the server's end of its transaction")
    # Still inside BEGIN: the server's "ready" is not idle, nothing is committed.
    in_transaction = DONE[:-1] + b"T"
    lines = [pg("out", STARTUP), request(), pg("out", UPDATE), pg("in", in_transaction), answer()]
    assert len(durability.check_postgres(None, "/data", lines=lines).faults) == 1
    rolled_back = message(b"C", b"ROLLBACK\x00") + message(b"Z", b"I")
    lines = [pg("out", STARTUP), request(), pg("out", UPDATE), pg("in", rolled_back), answer()]
    assert "rollback" in only_fault(durability.check_postgres(None, "/data", lines=lines)).missing


def test_a_session_that_sets_synchronous_commit_or_a_file_written_is_caught():
    turned_off = message(b"Q", b"SET synchronous_commit = off\x00")
    lines = [pg("out", STARTUP), pg("out", turned_off), request(), pg("out", UPDATE), pg("in", DONE), answer()]
    fault = only_fault(durability.check_postgres(None, "/data", lines=lines))
    assert str(fault) == ("the backend's connection (trace line 2): PostgreSQL: a message says "
                          "'synchronous_commit = off'; a session must leave synchronous_commit on")
    lines = [pg("out", STARTUP), request(), pg("out", UPDATE), pg("in", DONE), 'mkdir("/data/users", 0700) = 0', answer()]
    lines[-2] = "7 1.0 " + lines[-2]
    faults = durability.check_postgres(None, "/data", lines=lines).faults
    assert "written in the data directory of a PostgreSQL store" in {f.missing for f in faults}


def test_a_change_that_sends_nothing_that_writes_is_reported_silent():
    lines = [pg("out", STARTUP), request(), answer()]
    assert durability.check_postgres(None, "/data", lines=lines).silent == ["POST /lists/1/items → 303"]
