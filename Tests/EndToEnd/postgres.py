"""A throwaway PostgreSQL 15 cluster for the end-to-end tests.

The twin of Tests/TestSupport/TemporaryPostgres.swift: `initdb` into a
fresh temporary directory, listening only on a Unix socket in it, run by the
unprivileged `postgres` user when the tests run as root. `stop()` ends the
postmaster by its process id (from `postmaster.pid`) and removes the
directory.

    cluster = TemporaryPostgres()
    cluster.start()
    cluster.create_database("checklists")
    backend --store <cluster.conninfo("checklists")>
    cluster.restart_immediate()      # a crash: every connection cut
    cluster.stop()
"""
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

BINARIES = Path("/usr/lib/postgresql/15/bin")
PORT = 5432  # only names the socket in the cluster's own directory


class TemporaryPostgres:
    def __init__(self):
        self.directory: Path | None = None

    @property
    def data(self) -> Path:
        return self.directory / "data"

    def start(self) -> None:
        if not (BINARIES / "initdb").exists():
            raise RuntimeError("PostgreSQL 15 is not installed (scripts/install-deps test)")
        self.directory = Path(tempfile.mkdtemp(prefix="checklists-postgres-"))
        os.chmod(self.directory, 0o755)
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.directory, user.pw_uid, user.pw_gid)
        try:
            self._server(
                "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                "-E", "UTF8", "--locale=C", "--no-sync")
            options = " ".join([
                "-c listen_addresses=''",
                f"-c unix_socket_directories='{self.directory}'",
                f"-c port={PORT}", "-c fsync=on", "-c max_connections=300",
            ])
            self._server(
                "pg_ctl", "-D", str(self.data), "-l", str(self.directory / "log"),
                "-o", options, "-w", "start")
        except BaseException:
            self.stop()
            raise

    def conninfo(self, dbname: str) -> str:
        """A libpq connection string for `dbname` (what `--store` takes)."""
        return f"host={self.directory} port={PORT} user=postgres dbname={dbname}"

    def uri(self, dbname: str) -> str:
        """The same as a `postgresql://` URI."""
        return f"postgresql:///{dbname}?host={self.directory}&port={PORT}&user=postgres"

    def create_database(self, name: str | None = None) -> str:
        """Creates the database (a fresh random name when none) and returns its name."""
        name = name or "t_" + uuid.uuid4().hex
        self.sql(f'CREATE DATABASE "{name}"')
        return name

    def sql(self, statement: str, dbname: str = "postgres") -> str:
        """Runs `statement` with psql; returns its unaligned output."""
        done = subprocess.run(
            [str(BINARIES / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
             "-d", self.conninfo(dbname), "-c", statement],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"psql {statement!r}: {done.stderr}")
        return done.stdout

    @property
    def pid(self) -> int | None:
        """The postmaster's process id (it changes when the cluster restarts)."""
        try:
            return int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError, TypeError):
            return None

    def restart_immediate(self) -> None:
        """`pg_ctl restart -m immediate`: as after a crash, nothing shut down cleanly."""
        self._server(
            "pg_ctl", "-D", str(self.data), "-l", str(self.directory / "log"),
            "-m", "immediate", "-w", "restart")

    def stop(self) -> None:
        """SIGINT to the postmaster (fast shutdown; SIGKILL after 30 s), waits until
        it is gone, removes the directory."""
        if self.directory is None:
            return
        pid = self.pid
        if pid is not None:
            try:
                os.kill(pid, signal.SIGINT)
                deadline = time.monotonic() + 30
                while True:
                    os.kill(pid, 0)  # raises once it is gone
                    if time.monotonic() > deadline:
                        os.kill(pid, signal.SIGKILL)
                    time.sleep(0.02)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory = None

    def _server(self, program: str, *arguments: str) -> None:
        command = [str(BINARIES / program), *arguments]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, timeout=120)
        if done.returncode != 0:
            log = self.directory / "log" if self.directory else None
            tail = log.read_text()[-2000:] if log and log.exists() else ""
            raise RuntimeError(f"{' '.join(command)}: {done.stdout}\n{tail}")
