"""A throwaway PostgreSQL 15 cluster for one test run (Debian's
`postgresql-15`): `initdb` into a temporary directory, listening only on a
unix socket there, run by the unprivileged `postgres` user when the tests
run as root, and stopped by the postmaster's process id.

`conninfo(name)` is the URI `checklists serve --store` takes.

`TemporaryPostgres(listen="127.0.0.1", tls=authority, hba=[…])` is a
database as on another machine: it also listens on a TCP port of that
address, with TLS (the tests' certificate authority's server certificate)
and the given `pg_hba.conf` lines, which replace initdb's `trust` for
every connection but the unix socket's."""
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path

BINARIES = Path("/usr/lib/postgresql/15/bin")
PORT = 5432  # names the socket file only (.s.PGSQL.5432 in the directory)


def postmaster_pid(data: Path):
    """The process id of the postmaster of the cluster in `data`, or None."""
    try:
        return int((data / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None


def stop_postmaster(data: Path):
    """Stops the postmaster of the cluster in `data` by process id (SIGINT,
    a fast shutdown; SIGKILL after 30 s) and waits until it is gone."""
    pid = postmaster_pid(data)
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGINT)
        deadline = time.monotonic() + 30
        while True:
            os.kill(pid, 0)
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.02)
    except ProcessLookupError:
        pass


class TemporaryPostgres:
    def __init__(self, listen=None, tls=None, hba=None):
        self.dir = None
        self.listen = listen
        self.tls = tls
        self.hba = hba
        self.port = PORT

    @property
    def data(self) -> Path:
        return self.dir / "data"

    def _as_server(self, command, **kwargs):
        """Runs a server program as `postgres` when we are root (initdb and
        postgres refuse to run as root)."""
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--"] + command
        return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)

    def start(self):
        if not (BINARIES / "initdb").exists():
            raise RuntimeError("PostgreSQL 15 is not installed: scripts/install-deps test")
        self.dir = Path(tempfile.mkdtemp(prefix="checklists-pg-"))
        os.chmod(self.dir, 0o755)
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
        try:
            self._as_server([str(BINARIES / "initdb"), "-D", str(self.data), "-U", "postgres",
                             "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
            if self.listen is not None:
                self._listen_over_tcp()
            self.start_server()
        except BaseException:
            self.stop()
            raise
        return self

    def _listen_over_tcp(self):
        """A free port on `listen`, TLS with the authority's certificate (the
        key the server's own, mode 0600, as PostgreSQL demands), and
        `pg_hba.conf` as given (the unix socket stays `trust` for psql)."""
        from stack import free_port
        self.port = free_port()
        settings = [f"listen_addresses = '{self.listen}'"]
        if self.tls is not None:
            for name, source in (("server.crt", self.tls.server_certificate), ("server.key", self.tls.server_key)):
                shutil.copy(source, self.data / name)
                os.chmod(self.data / name, 0o600)
                if os.geteuid() == 0:
                    user = pwd.getpwnam("postgres")
                    os.chown(self.data / name, user.pw_uid, user.pw_gid)
            settings += ["ssl = on", "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'"]
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write("\n".join(settings) + "\n")
        (self.data / "pg_hba.conf").write_text("local all all trust\n" + "".join(f"{line}\n" for line in self.hba or []))

    def start_server(self):
        """`pg_ctl start` on the cluster's directory; returns once it accepts
        connections."""
        options = (f"-c unix_socket_directories='{self.dir}' -c port={self.port} -c fsync=on "
                   f"-c synchronous_commit=on -c max_connections=400")
        if self.listen is None:
            options = "-c listen_addresses='' " + options
        self._as_server([str(BINARIES / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"),
                         "-o", options, "-w", "start"])

    def stop_server(self):
        """Stops the postmaster by process id (a fast shutdown), keeping the
        cluster for `start_server`."""
        stop_postmaster(self.data)

    @property
    def pid(self):
        """The postmaster's process id (a restart gives a new one)."""
        return postmaster_pid(self.data)

    def conninfo(self, dbname: str) -> str:
        host = urllib.parse.quote(str(self.dir), safe="")
        return f"postgresql:///{dbname}?host={host}&port={self.port}&user=postgres"

    def psql(self, statement: str, dbname: str = "postgres") -> str:
        return subprocess.run(
            [str(BINARIES / "psql"), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", str(self.dir),
             "-p", str(self.port), "-U", "postgres", "-d", dbname, "-c", statement],
            check=True, capture_output=True, text=True).stdout

    def create_database(self, name: str):
        self.psql(f'CREATE DATABASE "{name}"')
        return name

    def restart_immediate(self):
        """`pg_ctl restart -m immediate`: every connection cut as in a crash,
        then the server recovers from its log; returns once it accepts
        connections again."""
        self._as_server([str(BINARIES / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"),
                         "-m", "immediate", "-w", "restart"])

    def stop(self):
        """Stops the postmaster by process id (SIGINT, a fast shutdown; SIGKILL
        after 30 s), waits until it is gone and removes the directory."""
        if self.dir is None:
            return
        self.stop_server()
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None
