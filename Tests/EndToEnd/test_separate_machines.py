"""README.md's "Several hosts on PostgreSQL" on separate machines: network
namespaces this test makes (see netns.py), with the README's own addresses
on a private network only they are on.

    db      10.0.0.20  PostgreSQL, reached as db.internal, TLS and a password
    app1    10.0.0.11  checklists serve --listen 10.0.0.11:9000 --allow-from 10.0.0.10 …
    app2    10.0.0.12  the same on its own address
    web     10.0.0.10  nginx laid out as "Deploying behind a system nginx"
                       says, its upstream over both hosts as step 4 says
    client  10.0.0.30  a visitor (the tests' HTTP client, on a thread inside it)

The commands and lines are taken from the README's text (each step's code
span), with only the paths of this run put in: the database login of step 1
(a role with a password typed at `createuser --pwprompt`'s prompt, the
`listen_addresses`, TLS with a certificate for db.internal from the tests'
own authority, the `hostssl … scram-sha-256` line, a passfile through
`PGPASSFILE`, `sslmode=verify-full`), step 3's `serve` and step 4's
balancer lines. The multi-host tests on
127.0.0.1 (test_multi_host.py, test_system_nginx_hosts.py) are the loopback
variant of this one; where namespaces cannot be made (not root, no
iproute2) this test is skipped and says why.
"""
import os
import pty
import pwd
import re
import select
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import fastcgi_client
import netns
from postgres import BINARIES, stop_postmaster
from stack import ROOT, Stack
from test_crash_storm import ITEM
from test_system_nginx import STOCK_FASTCGI_PARAMS, install_system_site
from tls import CertificateAuthority
from visitor import Visitor

README = (ROOT / "README.md").read_text()
MACHINES = {"db": "10.0.0.20", "app1": "10.0.0.11", "app2": "10.0.0.12", "web": "10.0.0.10",
            "client": "10.0.0.30"}
SITE_PORT = 80
HOSTS_FILE = "127.0.0.1 localhost\n10.0.0.20 db.internal\n"
PASSWORD = "Lab-" + os.urandom(8).hex()

AVAILABLE, WHY_NOT = netns.available()
pytestmark = [
    pytest.mark.skipif(not AVAILABLE, reason=f"separate machines need network namespaces: {WHY_NOT}"),
    pytest.mark.skipif(not STOCK_FASTCGI_PARAMS.exists(), reason="no system nginx (nginx-common) installed"),
    pytest.mark.skipif(not (BINARIES / "initdb").exists(), reason="PostgreSQL 15 is not installed"),
]


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else len(README)]


def code_span(text: str, pattern: str) -> str:
    """The one inline code span of `text` that matches `pattern`."""
    spans = [span for span in re.findall(r"`([^`]+)`", text) if re.search(pattern, span)]
    assert len(spans) >= 1, f"README.md has no code span matching {pattern!r}"
    return spans[0]


MULTI_HOST = section("Several hosts on PostgreSQL")
DEPLOYING = section("Deploying behind a system nginx")


class Database:
    """PostgreSQL on the db machine, set up as step 1 says."""

    def __init__(self, lab: netns.Lab, authority: CertificateAuthority):
        self.lab = lab
        self.authority = authority
        self.dir = Path(tempfile.mkdtemp(prefix="checklists-db-"))
        os.chmod(self.dir, 0o755)
        self.user = pwd.getpwnam("postgres")
        os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        self.data = self.dir / "data"

    def as_postgres(self, command):
        return ["runuser", "-u", "postgres", "--", *map(str, command)]

    def run(self, command):
        answer = self.lab.run("db", self.as_postgres(command))
        if answer.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {answer.stdout}{answer.stderr}")
        return answer.stdout

    def start(self, max_connections: int):
        self.run([BINARIES / "initdb", "-D", self.data, "-U", "postgres", "--auth-local=peer",
                  "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync"])
        # The server's certificate for db.internal, signed by an authority the hosts trust.
        certificate, key = self.authority.issue("db.internal")
        for source, name in ((certificate, "server.crt"), (key, "server.key")):
            shutil.copy(source, self.data / name)
            os.chmod(self.data / name, 0o600)
            os.chown(self.data / name, self.user.pw_uid, self.user.pw_gid)
        settings = [code_span(MULTI_HOST, r"^listen_addresses = "), code_span(MULTI_HOST, r"^ssl = on$"),
                    "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'",
                    f"unix_socket_directories = '{self.dir}'", f"max_connections = {max_connections}"]
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write("\n".join(settings) + "\n")
        # pg_hba.conf: the README's line before any other `host` line.
        hba = self.data / "pg_hba.conf"
        lines = hba.read_text().splitlines(keepends=True)
        first_host = next(i for i, line in enumerate(lines) if line.startswith("host"))
        lines.insert(first_host, code_span(MULTI_HOST, r"^hostssl checklists checklists ") + "\n")
        hba.write_text("".join(lines))
        self.run([BINARIES / "pg_ctl", "-D", self.data, "-l", self.dir / "log", "-w", "start"])

    def create_role_and_database(self):
        """Step 1's command, as the `postgres` user (`sudo -u postgres`: this
        runs as that user already), the password typed at its prompts."""
        command = code_span(MULTI_HOST, r"createuser --pwprompt .*createdb ").replace("sudo -u postgres ", "")
        shell = f"export PATH={BINARIES}:$PATH PGHOST={self.dir}; {command}"
        typed = answer_prompts(self.lab.command("db", self.as_postgres(["sh", "-c", shell])), PASSWORD)
        assert typed.count("Enter") == 2, typed

    def psql(self, statement: str) -> str:
        return self.run([BINARIES / "psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-h", self.dir,
                         "-d", "postgres", "-c", statement])

    def stop(self):
        stop_postmaster(self.data)
        shutil.rmtree(self.dir, ignore_errors=True)


def answer_prompts(command, answer: str, seconds=20.0) -> str:
    """Runs `command` on a terminal of its own (createuser reads a password
    from its terminal, never from standard input), typing `answer` at each
    prompt; returns what it printed."""
    pid, terminal = pty.fork()
    if pid == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    printed = b""
    answered = 0
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([terminal], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(terminal, 4096)
                except OSError:  # the program ended and its terminal closed
                    break
                if not chunk:
                    break
                printed += chunk
                if printed.rstrip().endswith(b":") and printed.count(b":") > answered:
                    os.write(terminal, answer.encode() + b"\n")
                    answered = printed.count(b":")
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(terminal)
    text = printed.decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    return text


class Machines(Stack):
    """Every machine of the README's multi-host layout in its namespace."""

    HOSTS = ("app1", "app2")

    def __init__(self, lab: netns.Lab, authority: CertificateAuthority):
        super().__init__()
        self.lab = lab
        self.authority = authority
        self.database = Database(lab, authority)
        self.hosts = {}
        self.host_logs = {}
        self.serve = code_span(MULTI_HOST, r"^checklists serve --listen ")
        self.threads = int(re.search(r"--threads (\d+)", self.serve).group(1))
        self.store = re.search(r"--store (\S+)", self.serve).group(1)
        install_system_site(self)
        # "Deploying" step 3: the listen line, for a machine browsers reach.
        shipped = code_span(DEPLOYING, r"^listen 127\.0\.0\.1:@PORT@;$").replace("@PORT@", str(self.port))
        listen = code_span(DEPLOYING, r"^listen 10\.0\.0\.10:80;$")
        self.upstream_line = code_span(MULTI_HOST, r"^server 10\.0\.0\.11:9000 ")
        site = self.dir / "sites-enabled/checklists"
        conf = site.read_text()
        upstream = re.search(r"upstream checklists_backend \{.*?\n    \}", conf, re.S).group(0)
        servers = "".join(f"        {self.upstream_line.replace('10.0.0.11', MACHINES[host])}\n"
                          for host in self.HOSTS)
        keepalive = re.search(r"keepalive \d+;", upstream).group(0)
        conf = conf.replace(upstream, "upstream checklists_backend {\n" + servers + f"        {keepalive}\n    }}")
        location = [code_span(MULTI_HOST, r"^fastcgi_next_upstream "), code_span(MULTI_HOST, r"^fastcgi_read_timeout ")]
        assert "fastcgi_keep_conn on;" in conf
        conf = conf.replace("fastcgi_keep_conn on;", "\n        ".join(["fastcgi_keep_conn on;", *location]), 1)
        # For the test only: which host answered each request.
        conf = conf.replace("        access_log ", "        access_log logs/hosts.log hosts;\n        access_log ", 1)
        assert conf.count(shipped) == 1, shipped
        conf = conf.replace(shipped, listen)
        site.write_text("log_format hosts '$upstream_addr $status $request';\n\n" + conf)
        for machine in MACHINES:
            lab.hosts_file(machine, HOSTS_FILE)

    def url(self, path: str) -> str:
        return f"http://{MACHINES['web']}:{SITE_PORT}{path}"

    def host_command(self, host: str) -> list:
        """Step 3's command line for `host`, this run's paths in place of the
        README's (`--data`, and the `…` of the options from "Deploying")."""
        line = self.serve.replace("10.0.0.11", MACHINES[host]).replace("/var/lib/checklists", str(self.data))
        line = line.replace("/etc/checklists/db-ca.pem", str(self.authority.certificate_path)).replace("'", "")
        line = line.replace("…", f"--templates {ROOT / 'Templates'} --public {self.public}")
        words = line.split()
        assert words[0] == "checklists"
        return [str(self.binary), *words[1:]]

    def start(self):
        # Step 3: max_connections ≥ hosts × (threads + 3) + a margin.
        self.database.start(max_connections=len(self.HOSTS) * (self.threads + 3) + 20)
        self.database.create_role_and_database()
        environment = {**os.environ, "PGPASSFILE": str(self.passfile())}
        for host in self.HOSTS:
            self.host_logs[host] = open(self.dir / f"logs/{host}.log", "a")
            self.hosts[host] = self.lab.popen(host, self.host_command(host), stdout=self.host_logs[host],
                                              stderr=subprocess.STDOUT, env=environment)
        for host in self.HOSTS:
            self.wait_until(lambda: self.listening(host), f"{host} to listen")
        self.nginx = self.lab.popen("web", ["nginx", "-p", f"{self.dir}/", "-c", self.dir / "nginx.conf",
                                            "-g", "daemon off;"],
                                    stdout=subprocess.DEVNULL, stderr=open(self.dir / "logs/nginx.stderr", "w"))
        self.wait_until(lambda: self.lab.call("client", reachable, MACHINES["web"], SITE_PORT), "nginx to listen")
        return self

    def passfile(self) -> Path:
        """Step 1's passfile line with the password, mode 0600."""
        line = code_span(MULTI_HOST, r"^db\.internal:5432:checklists:checklists:PASSWORD$")
        path = self.dir / "pgpass"
        path.write_text(line.replace("PASSWORD", PASSWORD) + "\n")
        path.chmod(0o600)
        return path

    def listening(self, host: str) -> bool:
        process = self.hosts[host]
        if process.poll() is not None:
            raise RuntimeError(f"{host} exited with {process.returncode}:\n" + self.log(host))
        return "listening" in self.log(host).lower() or self.lab.call(
            "web", reachable, MACHINES[host], 9000)

    def log(self, host: str) -> str:
        path = self.dir / f"logs/{host}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self):
        for process in [self.nginx, *self.hosts.values()]:
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self.nginx = None
        self.hosts = {}
        for log in self.host_logs.values():
            log.close()
        self.database.stop()
        if os.environ.get("KEEP_E2E_DIRS") is None:
            shutil.rmtree(self.dir, ignore_errors=True)


def reachable(address: str, port: int) -> bool:
    try:
        with socket.create_connection((address, port), timeout=0.3):
            return True
    except OSError:
        return False


@pytest.fixture
def machines(certificate_authority):
    lab = netns.Lab(MACHINES)
    try:
        running = Machines(lab, certificate_authority)
        try:
            yield running.start()
        finally:
            running.stop()
    finally:
        lab.close()


def visit(machines):
    """From the client machine: a list made, items added and ticked, the
    visitor back at `/` landing on it, as every host sees it."""
    visitor = Visitor(machines)
    assert visitor.get("/").status_code == 303
    list_id = visitor.create_list("Hardware store")
    for text in ("screws", "glue", "hinges"):
        visitor.add_item(list_id, text)
    page = visitor.get(f"/lists/{list_id}")
    items = {text: item for item, _, text in ITEM.findall(page.text)}
    assert visitor.post(f"/lists/{list_id}/items/{items['glue']}/toggle").status_code == 303
    landings = []
    for _ in range(6):  # nginx sends them to one host after the other
        landing = visitor.get("/")
        landings.append((landing.status_code, landing.headers.get("Location")))
        page = visitor.get(landing.headers["Location"])
        items = sorted((text, checked) for _, checked, text in ITEM.findall(page.text))
        assert items == [("glue", "true"), ("hinges", "false"), ("screws", "false")], items
    return list_id, landings


def test_the_readme_multi_host_steps_on_separate_machines(machines):
    list_id, landings = machines.lab.call("client", visit, machines)
    assert set(landings) == {(303, f"/lists/{list_id}")}, landings
    machines.wait_until(lambda: (machines.dir / "logs/hosts.log").exists(), "nginx's log buffer", 5)
    machines.wait_until(lambda: len(answered_by(machines)) == 2, "requests answered by both hosts", 5)
    assert answered_by(machines) == {f"{MACHINES[host]}:9000" for host in Machines.HOSTS}
    # Every host logged in over TLS from its own address, by password.
    logins = machines.database.psql(
        "SELECT DISTINCT client_addr, ssl FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) "
        "WHERE usename = 'checklists' ORDER BY 1")
    assert logins.split() == [f"{MACHINES[host]}|t" for host in Machines.HOSTS], logins
    for host in Machines.HOSTS:
        assert PASSWORD not in machines.log(host)

    # A host answers the balancing nginx's machine only: from the client's
    # machine its FastCGI port closes the connection, and says who it refused.
    def straight_to_a_host(address):
        try:
            return fastcgi_client.request((address, 9000), "GET", "/health")
        except (OSError, EOFError, ValueError) as error:
            return type(error).__name__
    refused = machines.lab.call("client", straight_to_a_host, MACHINES["app1"])
    assert not isinstance(refused, tuple), refused
    machines.wait_until(lambda: MACHINES["client"] in machines.log("app1"), "app1 to log the refused peer", 5)
    allowed = machines.lab.call("web", straight_to_a_host, MACHINES["app1"])
    assert isinstance(allowed, tuple) and allowed[0] == 200, allowed


def answered_by(machines) -> set:
    path = machines.dir / "logs/hosts.log"
    text = path.read_text() if path.exists() else ""
    return set(re.findall(r"^(10\.0\.0\.\d+:9000) ", text, re.M))
