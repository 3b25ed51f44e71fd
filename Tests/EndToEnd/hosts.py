"""Several backend hosts on one data set behind one nginx, for one test run.

`MultiHostStack(backends=3, store="files")` starts N real backends, each
with its own FastCGI TCP port on 127.0.0.1, and one nginx whose `upstream`
balances across them. The hosts share one data set:

- `store="files"`: every backend is given the same `--data` directory. On
  one machine this is sound: each change happens under the visitor's
  `flock`, and each cached model is checked against the file before use.
- `store=<libpq URI>` (`postgresql:///NAME?host=/socket/dir&port=N`): every
  backend also gets `--store URI`; `--data` is then only a name prefix (the
  same for all of them) and nothing is written there.

The hosts are processes on different ports of 127.0.0.1, not network
namespaces: the end-to-end tests speak only to 127.0.0.1 and ::1, and a
namespace's veth address is neither. The last host is started with
`--listen 127.0.0.1:PORT`, the option a host on a real network uses.

Everything started here is stopped by process id in `stop()`, which the
fixtures call even when a test fails.
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import contextlib
import uuid

import fastcgi_client
from stack import ROOT, SCRIPTS, Stack, backend_binary, free_port

FILES = "files"

# The stores a multi-host test runs on: `files-shared` (every host on one data
# directory of this machine) and `postgres` (every host on one throwaway
# PostgreSQL cluster).
STORE_KINDS = ("files-shared", "postgres")


# The balancer settings README.md recommends ("Several hosts on PostgreSQL",
# step 4), read from its text so that the tests run what it says: what each
# upstream `server` line says about failures (a host is left out for
# `fail_timeout` after `max_fails` failures; a restarted host listens again
# well within that second), and how long nginx waits for an answer.
_README = (ROOT / "README.md").read_text()
SERVER_PARAMETERS = re.search(r"`server 10\.0\.0\.11:9000 ([^;`]*);`", _README).group(1)
READ_TIMEOUT = re.search(r"`(fastcgi_read_timeout \S+;)`", _README).group(1)


def upstream_block(ports, keepalive: str, parameters: str = SERVER_PARAMETERS) -> str:
    """The `upstream` over the hosts' FastCGI ports."""
    servers = "".join(f"        server 127.0.0.1:{port} {parameters};\n" for port in ports)
    return ("upstream checklists_backend {\n" + servers + f"        keepalive {keepalive};\n    }}")


# Which failures nginx retries on another host: `error` and `timeout` (a host
# that is down, refuses the connection or does not answer in time). nginx by
# default never passes a non-idempotent request (a POST: every change here) to
# the next host once it was sent to one, unless `non_idempotent` is listed;
# that stays off, so a change is never applied twice. A POST whose host died
# after receiving it gets a 502, and the client may send it again after
# reading back whether it took.
NEXT_UPSTREAM = ("# Another host on a connection error or time-out: a GET or HEAD always, a POST\n"
                 "        # only if it was not sent yet (non_idempotent stays off: never twice).\n"
                 "        fastcgi_next_upstream error timeout;")


class MultiHostStack(Stack):
    """N backends on 127.0.0.1 TCP ports + one nginx; `url(path)` reaches nginx,
    `backend_address(i)` a backend's FastCGI port directly."""

    def __init__(self, backends=3, store=FILES, change_limit=None, server_parameters=SERVER_PARAMETERS,
                 backend_directives=(READ_TIMEOUT,)):
        """`server_parameters`: what each upstream `server` line says after
        the address; `backend_directives`: more lines for `location @backend`
        (e.g. `fastcgi_read_timeout 10s;`)."""
        self.store = store
        self.count = backends
        self.processes = [None] * backends
        self.logs = [None] * backends
        super().__init__(change_limit=change_limit)
        # Each port drawn on its own may repeat one drawn before: a backend
        # on nginx's port would answer the tests' HTTP in nginx's place
        # (and close the connection on it) while nginx failed to start.
        self.backend_ports = []
        while len(self.backend_ports) < backends:
            port = free_port()
            if port != self.port and port not in self.backend_ports:
                self.backend_ports.append(port)
        conf = (self.dir / "nginx.conf").read_text()
        single = re.search(r"upstream checklists_backend \{.*?\n    \}", conf, re.S)
        assert single, "nginx.conf no longer has the upstream this stack replaces"
        keepalive = re.search(r"keepalive (\d+);", single.group(0)).group(1)
        conf = conf.replace(single.group(0), upstream_block(self.backend_ports, keepalive, server_parameters))
        assert "fastcgi_keep_conn on;" in conf
        lines = [NEXT_UPSTREAM, *backend_directives]
        conf = conf.replace("fastcgi_keep_conn on;", "fastcgi_keep_conn on;\n        " + "\n        ".join(lines), 1)
        (self.dir / "nginx.conf").write_text(conf)
        self.threads = subprocess.run([SCRIPTS / "backend-threads"], check=True, capture_output=True,
                                      text=True).stdout.strip()

    @property
    def stores_files(self) -> bool:
        return self.store == FILES

    def backend_address(self, index):
        return ("127.0.0.1", self.backend_ports[index])

    def start(self):
        try:
            for index in range(self.count):
                self.launch(index)
            for index in range(self.count):
                self.wait_until_listening(index)
            self.nginx = subprocess.Popen(
                ["nginx", "-p", f"{self.dir}/", "-c", str(self.dir / "nginx.conf"), "-g", "daemon off;"],
                stdout=subprocess.DEVNULL, stderr=open(self.dir / "logs/nginx.stderr", "w"))
            self.wait_until(lambda: self.port_open(), "nginx to listen")
        except BaseException:
            self.stop()
            raise
        return self

    def command(self, index):
        # The last host names its address as a host on a network would
        # (`--listen ADDRESS:PORT`); the others take the loopback `--port`.
        where = (["--listen", f"127.0.0.1:{self.backend_ports[index]}"] if index == self.count - 1 and index > 0
                 else ["--port", str(self.backend_ports[index])])
        command = [str(self.binary), "serve", *where, "--threads", self.threads,
                   "--data", str(self.data), "--templates", str(ROOT / "Templates"), "--public", str(self.public)]
        if not self.stores_files:
            command += ["--store", self.store]
        return command + self.backend_arguments

    def launch(self, index):
        if self.logs[index] is None:
            self.logs[index] = open(self.dir / f"logs/backend-{index}.log", "a")
        self.processes[index] = subprocess.Popen(self.command(index), stdout=self.logs[index],
                                                 stderr=subprocess.STDOUT)

    def wait_until_listening(self, index, seconds=10.0):
        process = self.processes[index]

        def listening():
            if process.poll() is not None:
                raise RuntimeError(f"backend {index} exited with {process.returncode}; see "
                                   f"{self.dir}/logs/backend-{index}.log:\n" + self.log_tail(index))
            try:
                with socket.create_connection(self.backend_address(index), timeout=0.2):
                    return True
            except OSError:
                return False
        self.wait_until(listening, f"backend {index} to listen", seconds)

    def log_tail(self, index, lines=20):
        path = self.dir / f"logs/backend-{index}.log"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""

    def logged_errors(self, limit=20):
        """The backends' last `limit` logged errors, for a failure's message."""
        lines = []
        for index in range(self.count):
            path = self.dir / f"logs/backend-{index}.log"
            if path.exists():
                lines += [f"host {index}: {line}" for line in path.read_text(errors="replace").splitlines()
                          if "error" in line.lower()]
        return "\n".join(lines[-limit:])

    def pid(self, index):
        return self.processes[index].pid

    def kill_backend(self, index):
        """SIGKILL, by process id; waits for it to be gone."""
        process = self.processes[index]
        if process is not None and process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        if process is not None:
            process.wait()

    def restart_backend(self, index):
        """Starts host `index` again on its port (after `kill_backend`) and
        waits until it accepts connections."""
        self.kill_backend(index)
        self.launch(index)
        self.wait_until_listening(index)

    def start_backend(self):  # the single stack's; every host is started by `start()` here
        raise NotImplementedError("use restart_backend(i)")

    def fastcgi(self, index, method, path, cookies=None, body=b"", headers=None):
        """One request straight to host `index`'s FastCGI port, as nginx
        would pass it; returns (status, headers, body text)."""
        fields = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if cookies:
            fields["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
        if body:
            fields["Content-Type"] = "application/x-www-form-urlencoded"
        status, answer_headers, payload = fastcgi_client.request(
            self.backend_address(index), method, path, body=body, headers=fields)
        return status, answer_headers, payload.decode("utf-8", errors="replace")

    def stop(self):
        """Stops nginx and every host by process id (TERM, then KILL after
        5 s); safe to call twice and after a partial start."""
        everything = [self.nginx] + list(self.processes)
        for process in everything:
            if process is not None and process.poll() is None:
                process.terminate()
        for process in everything:
            if process is None:
                continue
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.nginx = None
        self.processes = [None] * self.count
        for log in self.logs:
            if log is not None:
                log.close()
        self.logs = [None] * self.count
        if os.environ.get("KEEP_E2E_DIRS") is None:
            shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def running_hosts(kind, request, backends=3, factory=None, **options):
    """A started `MultiHostStack` (or `factory`'s) on the store `kind` (one
    of STORE_KINDS), stopped afterwards by pid whatever happens. For
    `postgres` each use gets a fresh database of the session's cluster (the
    `postgres_cluster` fixture), kept as `stack.postgres`."""
    cluster = None
    store = FILES
    if kind == "postgres":
        cluster = request.getfixturevalue("postgres_cluster")
        name = "checklists_" + uuid.uuid4().hex[:12]
        cluster.create_database(name)
        store = cluster.conninfo(name)
    else:
        assert kind == "files-shared", kind
    stack = (factory or MultiHostStack)(backends=backends, store=store, **options)
    stack.postgres = cluster
    try:
        yield stack.start()
    finally:
        stack.stop()
