"""A backend host and its database as an operator runs them on separate
machines (README, "Several hosts on PostgreSQL"), each test with a cluster
of its own, the backend spoken to over FastCGI as nginx would:

- a real login: the database listens on TCP with TLS and `scram-sha-256`
  in `pg_hba.conf`; the backend's role has a password, given through a
  passfile (`PGPASSFILE`, mode 0600) and never on the command line, and
  the backend verifies the server's certificate (`sslmode=verify-full`,
  the tests' certificate authority). A wrong or missing password, or
  another authority, stops the start with the server's reason, and the
  password is in no log and no process list.
- a database that is down: the backend starts anyway, `/health` says not
  ready and every page is `503` with `Retry-After` until the database
  answers; the same when the database stops and starts under a running
  backend; and the log holds one line when it goes and one when it is
  back, however many requests met the outage.
"""
import os
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import fastcgi_client
from postgres import TemporaryPostgres
from stack import ROOT, backend_binary, free_port
from tls import CertificateAuthority

PASSWORD = "Wq7-correct-horse-" + os.urandom(6).hex()


class Host:
    """One `checklists serve` on a TCP port of 127.0.0.1, its log in a file;
    stopped by process id."""

    def __init__(self, store, environment=None):
        self.dir = Path(tempfile.mkdtemp(prefix="checklists-host-"))
        self.port = free_port()
        self.log_path = self.dir / "backend.log"
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [str(backend_binary()), "serve", "--port", str(self.port), "--threads", "8",
             "--data", str(self.dir / "data"), "--templates", str(ROOT / "Templates"),
             "--public", str(ROOT / "Public"), "--store", store],
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, **(environment or {})})

    def listening(self, seconds=10.0):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return True
            except OSError:
                time.sleep(0.05)
        return False

    def exit_code(self, seconds=10.0):
        try:
            return self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            return None

    def get(self, path):
        headers = {"Host": "127.0.0.1"}
        status, fields, body = fastcgi_client.request(("127.0.0.1", self.port), "GET", path, headers=headers)
        return status, fields, body

    def wait_for_health(self, status, seconds=10.0):
        """Seconds until `/health` answered `status`."""
        began = time.monotonic()
        while time.monotonic() - began < seconds:
            if self.get("/health")[0] == status:
                return time.monotonic() - began
            time.sleep(0.05)
        raise AssertionError(f"/health never answered {status}; log:\n{self.text()}")

    def text(self):
        if not self.log.closed:
            self.log.flush()
        return self.log_path.read_text(errors="replace")

    def command_line(self):
        """What `ps` shows every user of the machine."""
        return Path(f"/proc/{self.process.pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture
def hosts():
    started = []
    yield lambda *arguments, **options: started.append(Host(*arguments, **options)) or started[-1]
    for host in started:
        host.stop()


@pytest.fixture(scope="module")
def secure_cluster(certificate_authority):
    """A database as on another machine: TCP on 127.0.0.1 with TLS only, a
    password by `scram-sha-256` for the role `checklists`. One for the
    module: the tests only log in (the first also writes the secret)."""
    cluster = TemporaryPostgres(
        listen="127.0.0.1", tls=certificate_authority,
        hba=["hostssl checklists checklists 127.0.0.1/32 scram-sha-256"])
    try:
        cluster.start()
        cluster.psql(f"CREATE ROLE checklists LOGIN PASSWORD '{PASSWORD}'")
        cluster.psql("CREATE DATABASE checklists OWNER checklists")
        yield cluster
    finally:
        cluster.stop()


def passfile(directory: Path, cluster, password):
    """A passfile as README's step 1 writes it, mode 0600 (libpq ignores one
    others may read)."""
    path = directory / "pgpass"
    path.write_text(f"127.0.0.1:{cluster.port}:checklists:checklists:{password}\n")
    path.chmod(0o600)
    return path


def secure_uri(cluster, authority):
    return (f"postgresql://checklists@127.0.0.1:{cluster.port}/checklists"
            f"?sslmode=verify-full&sslrootcert={authority}")


@pytest.mark.parametrize("given", ["PGPASSFILE", "passfile in the URI"])
def test_a_password_from_a_passfile_over_verified_tls(secure_cluster, certificate_authority, hosts, tmp_path,
                                                      given):
    uri = secure_uri(secure_cluster, certificate_authority.certificate_path)
    path = passfile(tmp_path, secure_cluster, PASSWORD)
    if given == "PGPASSFILE":
        host = hosts(uri, {"PGPASSFILE": str(path)})
    else:  # libpq's own parameter, passed through as the URI's others are
        host = hosts(f"{uri}&passfile={path}", {"PGPASSFILE": str(tmp_path / "missing")})
    assert host.listening(), host.text()
    assert host.get("/health")[0] == 200, host.text()
    assert host.get("/lists")[0] == 200, host.text()
    # The server secret is in the database, written over this login and TLS.
    assert secure_cluster.psql("SELECT count(*) FROM documents WHERE name = 'secret'", "checklists").strip() == "1"
    encrypted = secure_cluster.psql(
        "SELECT bool_and(ssl) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE usename = 'checklists'")
    assert encrypted.strip() == "t"
    assert "--store" in host.command_line() and PASSWORD not in host.command_line()
    host.stop()
    assert PASSWORD not in host.text()


@pytest.mark.parametrize("case", ["wrong password", "no password", "another authority"])
def test_a_refused_login_stops_the_start_and_never_shows_the_password(
        secure_cluster, certificate_authority, hosts, tmp_path, case):
    authority = certificate_authority.certificate_path
    environment = {"PGPASSFILE": str(passfile(tmp_path, secure_cluster, PASSWORD))}
    expected = "certificate verify failed"
    if case == "wrong password":
        environment = {"PGPASSFILE": str(passfile(tmp_path, secure_cluster, PASSWORD + "-wrong"))}
        expected = 'password authentication failed for user "checklists"'
    elif case == "no password":
        environment = {"PGPASSFILE": str(tmp_path / "missing")}
        expected = "no password supplied"
    else:
        other = CertificateAuthority()
        authority = other.certificate_path
    started = time.monotonic()
    host = hosts(secure_uri(secure_cluster, authority), environment)
    assert host.exit_code() == 1, host.text()
    log = host.text()
    assert "cannot start" in log and expected in log, log
    assert time.monotonic() - started < 10
    assert PASSWORD not in log


def test_a_password_in_the_uri_is_warned_about_and_never_logged(secure_cluster, certificate_authority, hosts):
    authority = certificate_authority.certificate_path
    uri = secure_uri(secure_cluster, authority).replace("checklists@", f"checklists:{PASSWORD}@", 1)
    host = hosts(uri)
    assert host.listening(), host.text()
    assert host.get("/health")[0] == 200, host.text()
    host.stop()
    log = host.text()
    assert "holds a password" in log and PASSWORD not in log, log


def outage_lines(log: str):
    return ([line for line in log.splitlines() if "the database is not answering" in line],
            [line for line in log.splitlines() if "the database answers again" in line])


def test_a_host_starts_while_the_database_is_down_and_rides_out_a_restart(hosts):
    cluster = TemporaryPostgres()
    try:
        cluster.start()
        cluster.create_database("checklists")
        cluster.stop_server()
        host = hosts(cluster.conninfo("checklists"))
        assert host.listening(), "it starts without its database:\n" + host.text()
        status, fields, _ = host.get("/health")
        assert status == 503 and fields.get("retry-after") == "2", (status, fields)
        for _ in range(50):
            status, fields, body = host.get("/lists")
            assert status == 503 and fields.get("retry-after") == "2", (status, fields)
        assert b"cannot be reached for a moment" in body

        cluster.start_server()
        waited = host.wait_for_health(200)
        print(f"\nready {waited:.2f} s after the database started")
        assert host.get("/lists")[0] == 200, host.text()

        # The database goes away under a running host, and comes back.
        cluster.stop_server()
        host.wait_for_health(503)
        began = time.monotonic()
        refused = 0
        while time.monotonic() - began < 2:
            status, fields, _ = host.get("/lists")
            assert status == 503 and fields.get("retry-after") == "2", (status, fields)
            refused += 1
        cluster.start_server()
        waited = host.wait_for_health(200)
        print(f"{refused} requests refused in 2 s of outage; ready {waited:.2f} s after the database started")
        assert host.get("/lists")[0] == 200, "\n".join(host.text().splitlines()[-12:])
        host.stop()
        log = host.text()
        print(log)
        gone, back = outage_lines(log)
        assert len(gone) == 2 and len(back) == 2, log
        assert len(log.splitlines()) < 12, "one line per change of state, not one per request"
    finally:
        cluster.stop()
