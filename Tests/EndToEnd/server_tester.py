"""caldav-server-tester (the `caldav` library's own checker of a server's
features, PyPI) run against our server and against Radicale on the same
machine, for scripts/caldav-compare and test_caldav_server_tester.py.

The tester lives in a virtual environment of its own,
`.build/dav-tools-venv` (made by `scripts/install-deps test`), like the
`caldav` library of caldav_venv.py; Radicale is Debian's package, started
here on a loopback port with a temporary storage folder and a password file
of its own, and stopped by process id."""
import contextlib
import json
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from stack import ROOT, Stack, free_port, stop_process

VENV = ROOT / ".build" / "dav-tools-venv"
DRIVER = Path(__file__).resolve().parent / "server_tester_driver.py"


def python() -> Path:
    interpreter = VENV / "bin" / "python"
    assert (VENV / "bin" / "caldav-server-tester").exists(), f"no tester in {VENV}: run scripts/install-deps test"
    return interpreter


def run_tester(url, user, password, calendar=None):
    """({feature: support level}, {check class: error}) as the tester finds
    them at `url`: `full`, `unsupported`, `broken`, `ungraceful`, `fragile`,
    `quirk`, `unknown`, or `?` for a feature that is a value rather than a
    level; the second, the checks that stopped with an error of the
    tester's. `calendar` names a calendar to work in, for a server that
    cannot make one (MKCALENDAR)."""
    asked = {"url": url, "user": user, "password": password, "calendar": calendar}
    finished = subprocess.run([str(python()), str(DRIVER)], input=json.dumps(asked),
                              capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr[-3000:]
    found = json.loads(finished.stdout)
    assert found["features"], finished.stderr[-3000:]
    return found["features"], found["aborted"]


def listening(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


@contextlib.contextmanager
def radicale():
    """Radicale on a free loopback port, with user `tester`: yields its URL,
    user and password; stopped by its process id afterwards."""
    program = shutil.which("radicale")
    assert program, "no radicale: run scripts/install-deps test"
    folder = Path(tempfile.mkdtemp(prefix="checklists-radicale-"))
    port = free_port()
    (folder / "users").write_text("tester:radicale-password\n")
    (folder / "config").write_text(f"""[server]
hosts = 127.0.0.1:{port}
[auth]
type = htpasswd
htpasswd_filename = {folder}/users
htpasswd_encryption = plain
[storage]
filesystem_folder = {folder}/collections
[logging]
level = warning
""")
    log = open(folder / "radicale.log", "w")
    process = subprocess.Popen([program, "--config", str(folder / "config")], stdout=log, stderr=subprocess.STDOUT)
    try:
        Stack.wait_until(lambda: listening(port), "Radicale to listen")
        yield f"http://127.0.0.1:{port}/", "tester", "radicale-password"
    finally:
        stop_process(process)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def compare(ours, radicales):
    """The side-by-side table: every feature either run reported (`*` where
    they differ), then the checks that stopped with the tester's error."""
    (our_features, our_aborts), (their_features, their_aborts) = ours, radicales
    names = sorted(set(our_features) | set(their_features))
    width = max(len(name) for name in names)
    rows = [f"{'feature'.ljust(width)}  {'Checklists':<12} Radicale", f"{'-' * width}  {'-' * 12} {'-' * 10}"]
    for name in names:
        mine, theirs = our_features.get(name, "-"), their_features.get(name, "-")
        rows.append(f"{name.ljust(width)}  {mine:<12} {theirs}{'' if mine == theirs else '   *'}")
    for server, aborts in (("Checklists", our_aborts), ("Radicale", their_aborts)):
        for check, error in sorted(aborts.items()):
            rows.append(f"stopped on {server}: {check}: {error}")
    return "\n".join(rows)


def run_both(stack_url, app):
    """Runs the tester against our server (an app password's, in its first
    list, `List`) and against a fresh Radicale: (ours, Radicale's, seconds),
    each as `run_tester` returns it."""
    began = time.monotonic()
    ours = run_tester(stack_url, app["user"], app["password"], calendar="List")
    with radicale() as (url, user, password):
        theirs = run_tester(url, user, password)
    return ours, theirs, time.monotonic() - began
