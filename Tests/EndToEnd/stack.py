"""Starts the real backend and a real nginx on loopback for one test run.

Everything started here is stopped by process id in `stop()`, which the
fixtures call even when a test fails.
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"


def backend_binary() -> Path:
    configured = os.environ.get("CHECKLISTS_BINARY")
    if configured:
        return Path(configured)
    for candidate in (ROOT / ".build/debug/checklists", ROOT / ".build/release/checklists"):
        if candidate.exists():
            return candidate
    raise RuntimeError("build the backend first: swift build")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Stack:
    """nginx + backend in a temporary run folder; `url(path)` reaches them."""

    # Far above anything a test or the benchmark sends from 127.0.0.1: only
    # the test of the limit itself runs with the real budget of settings.env.
    UNLIMITED_CHANGES = {"CHANGES_PER_SECOND": "100000", "CHANGE_BURST": "100000"}

    def __init__(self, change_limit=None, tls=None, real_ip_from=None):
        """`change_limit`: None for no practical limit on POSTs per client
        address, {} for settings.env's, or explicit CHANGES_PER_SECOND /
        CHANGE_BURST values. `tls`: a tls.CertificateAuthority whose
        certificate nginx serves HTTPS with (and HSTS), None for plain HTTP.
        `real_ip_from`: the address of a proxy in front, whose
        X-Forwarded-For nginx takes as the client's address."""
        self.tls = tls
        self.dir = Path(tempfile.mkdtemp(prefix="checklists-e2e-"))
        os.chmod(self.dir, 0o755)  # nginx's workers run as another user under root
        self.public = self.dir / "Public"
        shutil.copytree(ROOT / "Public", self.public)
        self.data = self.dir / "data"
        self.data.mkdir()
        (self.dir / "logs").mkdir()
        (self.dir / "tmp").mkdir()
        self.socket = self.dir / "backend.sock"
        self.port = free_port()
        self.backend = None
        self.nginx = None
        self.backend_arguments = []  # more options of `checklists serve`
        self.binary = backend_binary()
        subprocess.run([self.binary, "generate", "--public", self.public, "--templates", ROOT / "Templates"],
                       check=True, capture_output=True)
        limit = self.UNLIMITED_CHANGES if change_limit is None else change_limit
        environment = {key: value for key, value in os.environ.items()
                       if key not in ("CHANGES_PER_SECOND", "CHANGE_BURST", "TLS_CERTIFICATE",
                                      "TLS_CERTIFICATE_KEY", "REAL_IP_FROM")}
        if tls is not None:
            environment.update(TLS_CERTIFICATE=str(tls.server_certificate),
                               TLS_CERTIFICATE_KEY=str(tls.server_key))
        if real_ip_from is not None:
            environment["REAL_IP_FROM"] = real_ip_from
        conf = subprocess.run(
            [SCRIPTS / "render-nginx-conf", str(self.port), f"unix:{self.socket}", str(self.public)],
            check=True, capture_output=True, text=True, env={**environment, **limit}).stdout
        (self.dir / "nginx.conf").write_text(conf)

    @property
    def scheme(self) -> str:
        return "https" if self.tls else "http"

    def url(self, path: str) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}{path}"

    def cookie_name(self, name: str) -> str:
        """The name the product gives cookie `name` here: `__Host-` over HTTPS."""
        return f"__Host-{name}" if self.tls else name

    def start(self):
        self.start_backend()
        self.start_nginx()
        return self

    def start_nginx(self):
        self.nginx = subprocess.Popen(
            ["nginx", "-p", f"{self.dir}/", "-c", str(self.dir / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=open(self.dir / "logs/nginx.stderr", "a"))
        self.wait_until(lambda: self.port_open(), "nginx to listen")

    def stop_nginx(self):
        """Stops nginx by its pid: the site's address refuses connections,
        as a browser with no network sees it (the backend keeps running)."""
        stop_process(self.nginx)
        self.nginx = None
        self.wait_until(lambda: not self.port_open(), "nginx to stop")

    def start_backend(self):
        threads = subprocess.run([SCRIPTS / "backend-threads"], check=True, capture_output=True, text=True).stdout.strip()
        group = subprocess.run([SCRIPTS / "socket-group"], capture_output=True, text=True).stdout.strip()
        command = [str(self.binary), "serve", "--socket", str(self.socket), "--threads", threads, "--data", str(self.data),
                   "--templates", str(ROOT / "Templates"), "--public", str(self.public)]
        if group:
            command += ["--socket-group", group]
        command += self.backend_arguments
        self.backend_log = open(self.dir / "logs/backend.log", "a")
        self.backend = subprocess.Popen(command, stdout=self.backend_log, stderr=subprocess.STDOUT)
        # The file appears at bind(), before listen(): a connection then is refused, and
        # nginx answers the first request 502 on a loaded machine.
        self.wait_until(lambda: self.socket_accepts(), "the backend's socket")

    def socket_accepts(self) -> bool:
        """Whether the backend's socket takes a connection (it listens)."""
        if not self.socket.exists():
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(str(self.socket))
                return True
            except OSError:
                return False

    def stop_backend(self, sig=signal.SIGTERM, timeout=5.0):
        """Signals the backend and returns (exit code, seconds it took)."""
        if self.backend is None:
            return None, 0.0
        began = time.monotonic()
        self.backend.send_signal(sig)
        try:
            code = self.backend.wait(timeout)
        except subprocess.TimeoutExpired:
            self.backend.kill()
            code = self.backend.wait()
        self.backend = None
        return code, time.monotonic() - began

    def stop(self):
        for process in (self.nginx, self.backend):
            if process is not None and process.poll() is None:
                stop_process(process)
        self.nginx = self.backend = None
        if os.environ.get("KEEP_E2E_DIRS") is None:
            shutil.rmtree(self.dir, ignore_errors=True)

    def port_open(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    @staticmethod
    def wait_until(condition, what, seconds=10.0):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.05)
        raise RuntimeError(f"timed out waiting for {what}")

    def session(self) -> requests.Session:
        """A client of this stack; over HTTPS it verifies nginx's certificate
        against the tests' certificate authority."""
        session = requests.Session()
        if self.tls:
            session.verify = str(self.tls.certificate_path)
            # Else REQUESTS_CA_BUNDLE, when set, would replace `verify`.
            session.trust_env = False
        return session


def stop_process(process):
    """Ends a process this test started: SIGTERM, then SIGKILL after 5 s."""
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
