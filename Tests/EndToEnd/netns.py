"""Separate machines on one: network namespaces the test makes itself.

`Lab(["db", "app1", "web", "client"])` makes one namespace per machine and a
"switch" namespace holding a bridge; each machine gets an `eth0` (one end of
a veth pair whose other end is on the bridge) with the address the test
gives it, and its own loopback. Nothing is routed outside the lab: the
machines reach only one another, as hosts on one private network do, and the
root namespace (the machine the tests run on) is not on it at all.

- `run(machine, command)` runs a command on a machine (`ip netns exec`);
  `popen(machine, command)` starts one there and returns its process, whose
  id is the command's own (`ip netns exec` execs it).
- `call(machine, function, *args)` calls a Python function on a thread that
  has entered the machine's network namespace, so that the tests' HTTP
  client (requests) speaks from that machine.
- `hosts_file(machine, text)` gives a machine its own `/etc/hosts`
  (`ip netns exec` binds `/etc/netns/NAME/hosts` over it), so that a name
  such as `db.internal` resolves there as on a real network.

`available()` says whether this machine can make namespaces (root and
`ip netns`); `close()` deletes every namespace (their veths go with them)
and the hosts files, and is safe to call twice.
"""
import concurrent.futures
import ctypes
import os
import shutil
import subprocess
import uuid
from pathlib import Path

CLONE_NEWNET = 0x40000000
NETNS_ETC = Path("/etc/netns")


def available() -> tuple[bool, str]:
    """Whether namespaces can be made here, and why not."""
    if os.geteuid() != 0:
        return False, "network namespaces need root"
    if shutil.which("ip") is None:
        return False, "no `ip` (iproute2)"
    probe = f"clprobe-{uuid.uuid4().hex[:6]}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return False, f"`ip netns add` failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return True, ""


class Lab:
    def __init__(self, machines: dict[str, str], prefix_length: int = 24):
        """`machines`: name → IPv4 address on the lab's one network."""
        self.tag = uuid.uuid4().hex[:6]
        self.addresses = dict(machines)
        self.names = {}
        self.executors = {}
        self.switch = f"cl{self.tag}-lan"
        try:
            self._ip("netns", "add", self.switch)
            self._ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
            self._ip("-n", self.switch, "link", "set", "br0", "up")
            for index, (machine, address) in enumerate(machines.items()):
                namespace = f"cl{self.tag}-{machine}"
                self._ip("netns", "add", namespace)
                self.names[machine] = namespace
                port = f"p{index}"
                self._ip("-n", self.switch, "link", "add", port, "type", "veth", "peer", "name", "eth0",
                         "netns", namespace)
                self._ip("-n", self.switch, "link", "set", port, "master", "br0", "up")
                self._ip("-n", namespace, "addr", "add", f"{address}/{prefix_length}", "dev", "eth0")
                self._ip("-n", namespace, "link", "set", "eth0", "up")
                self._ip("-n", namespace, "link", "set", "lo", "up")
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _ip(*arguments):
        subprocess.run(["ip", *arguments], check=True, capture_output=True, text=True)

    def namespace(self, machine: str) -> str:
        return self.names[machine]

    def command(self, machine: str, command) -> list:
        return ["ip", "netns", "exec", self.names[machine], *map(str, command)]

    def run(self, machine: str, command, **options):
        options.setdefault("capture_output", True)
        options.setdefault("text", True)
        return subprocess.run(self.command(machine, command), **options)

    def popen(self, machine: str, command, **options):
        return subprocess.Popen(self.command(machine, command), **options)

    def hosts_file(self, machine: str, text: str):
        folder = NETNS_ETC / self.names[machine]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "hosts").write_text(text)

    def call(self, machine: str, function, *arguments, **keywords):
        """`function(*arguments)` on a thread inside `machine`'s network namespace."""
        if machine not in self.executors:
            namespace = self.names[machine]
            self.executors[machine] = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, initializer=_enter, initargs=(namespace,))
        return self.executors[machine].submit(function, *arguments, **keywords).result()

    def close(self):
        for executor in self.executors.values():
            executor.shutdown(wait=True)
        self.executors = {}
        for namespace in list(self.names.values()) + [self.switch]:
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
            shutil.rmtree(NETNS_ETC / namespace, ignore_errors=True)
        self.names = {}
        try:
            NETNS_ETC.rmdir()  # only if the lab made it and nothing else is there
        except OSError:
            pass


def _enter(namespace: str):
    """Moves the calling thread (only it: network namespaces are per thread)
    into `namespace`."""
    libc = ctypes.CDLL(None, use_errno=True)
    descriptor = os.open(f"/run/netns/{namespace}", os.O_RDONLY)
    try:
        if libc.setns(descriptor, CLONE_NEWNET) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"setns into {namespace}: {os.strerror(error)}")
    finally:
        os.close(descriptor)
