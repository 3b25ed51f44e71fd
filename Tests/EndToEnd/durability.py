"""A crash-consistency checker for the backend's acknowledged changes, read
from an `strace` of the real process (in the spirit of ALICE, Pillai et al.,
OSDI 2014: record the system calls, then ask whether every state a power
loss could leave is one the application promised).

A power loss keeps only what reached the disk: a file's bytes once an
`fsync`/`fdatasync` of it returned, a directory's entries (a name made,
renamed or removed) once an `fsync` of that directory returned. The backend
promises a change when it writes the answer (`303`, `200`) to nginx, so
for every acknowledged change this module checks, from the trace alone,
that before the first byte of the answer was written to the FastCGI socket:

- every file the request wrote had its bytes flushed, and was flushed
  before the name that publishes it was given (`rename`, `renameat2`
  exchange, `link`): otherwise the new name could reach the disk pointing
  at bytes that did not;
- every directory entry it made, renamed or removed had its directory
  flushed after the entry changed; a name given to a file that was made
  directly (not renamed into place) is made durable only after the file's
  bytes;
- every directory it made (`mkdir`) was itself flushed.

What happened outside any request (the start-up: the server secret) is
owed by the first answer of any kind after it: every page carries a form
token made with that secret. Names that only exist on the way
(a temporary `.<name>.tmp-…` or `.<name>.new-…`, the reused spare
`.<name>.spare`) and lock files (made by `open` with `O_CREAT`, never
written) carry no promise of their own: a crash may leave or lose them and
nothing reads them as data; the file whose bytes end up under a real name
is checked under that name.

The trace is `strace -f -ttt -y -x -s N` with the calls of `TRACED`
(`command(...)` builds the wrapper's command line). Requests and answers are
found in the bytes on FastCGI sockets: a read holding `REQUEST_METHOD` and
`REQUEST_URI` starts a request on that thread, the first write holding
`Status: NNN` after it is its answer. On the PostgreSQL store the messages
a thread sends to and receives from the server (`sendto`/`recvfrom`) are
checked instead (`check_postgres`).
"""
from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

# The calls the checker reads (each has an `on_…` below); a flush by any
# other call (`sync_file_range`, `syncfs`) is not taken as one.
TRACED = ",".join([
    "open", "openat", "creat", "write", "pwrite64", "writev", "pwritev", "pwritev2", "ftruncate",
    "truncate", "fsync", "fdatasync", "rename", "renameat", "renameat2", "link", "linkat", "unlink",
    "unlinkat", "mkdir", "mkdirat", "rmdir", "read", "sendto", "recvfrom",
])


def command(trace: Path, binary, size=4096):
    """The strace command line that runs `binary` traced into `trace`."""
    return ["strace", "-f", "-ttt", "-y", "-x", "-s", str(size), "-e", f"trace={TRACED}",
            "-o", str(trace), "--", str(binary)]


# A name that exists only on the way to another, or a reserve to be reused.
TEMPORARY = re.compile(r"^\..+\.(?:tmp|new)-\d+-\d+$|^\..+\.spare$")

LINE = re.compile(r"^(\d+) +(\d+\.\d+) (.*)$")
RESUMED = re.compile(r"^<\.\.\. (\w+) resumed>(.*)$")
CALL = re.compile(r"^(\w+)\((.*)\) += (-?\d+|\?)(?:<(.*?)>)?(?: (E[A-Z]+) .*)?$", re.S)
ANNOTATED = re.compile(r"^(-?\w+)<(.*)>$", re.S)


def unescape(text: str) -> bytes:
    """The bytes of a string as strace prints it (`-x`: \\xHH for the rest)."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            out += c.encode("utf-8", "surrogateescape")
            i += 1
            continue
        n = text[i + 1] if i + 1 < len(text) else ""
        if n == "x":
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        elif n in "01234567":
            j = i + 1
            while j < len(text) and j < i + 4 and text[j] in "01234567":
                j += 1
            out.append(int(text[i + 1:j], 8) & 0xFF)
            i = j
        else:
            out += {"n": b"\n", "r": b"\r", "t": b"\t", "v": b"\v", "f": b"\f"}.get(n, n.encode())
            i += 2
    return bytes(out)


def split_arguments(text: str) -> list[str]:
    """Top-level arguments of a call: commas inside quotes, brackets, braces
    and `<…>` annotations do not split."""
    parts, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "[{(<":
            depth += 1
        elif c in "]})>":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def string_argument(argument: str) -> tuple[bytes, bool] | None:
    """(bytes, truncated) of a quoted argument, None when it is not one."""
    match = re.match(r'^"(.*)"(\.\.\.)?$', argument, re.S)
    if not match:
        return None
    return unescape(match.group(1)), bool(match.group(2))


def annotation(argument: str) -> str | None:
    """What `-y` printed for a descriptor: a path or `socket:[…]`."""
    match = ANNOTATED.match(argument)
    return match.group(2) if match else None


@dataclass
class Call:
    """One system call: where it started and ended in the trace (line
    numbers, 1-based; they differ when another thread's calls interleave)."""
    tid: int
    name: str
    arguments: list[str]
    result: int | None
    result_path: str | None
    error: str | None
    start: int
    end: int
    time: float


def calls(lines) -> list[Call]:
    """The trace's completed calls in the order they ended."""
    pending: dict[int, tuple[int, float, str]] = {}
    found = []
    for number, line in enumerate(lines, 1):
        match = LINE.match(line.rstrip("\n"))
        if not match:
            continue
        tid, stamp, rest = int(match.group(1)), float(match.group(2)), match.group(3)
        start = number
        if rest.endswith(" <unfinished ...>"):
            pending[tid] = (number, stamp, rest[: -len(" <unfinished ...>")])
            continue
        if (resumed := RESUMED.match(rest)):
            if tid not in pending:
                continue
            start, stamp, head = pending.pop(tid)
            rest = head + resumed.group(2)
        if rest.startswith(("+++", "---")):
            continue
        call = CALL.match(rest)
        if not call:
            continue
        result = None if call.group(3) == "?" else int(call.group(3))
        found.append(Call(tid, call.group(1), split_arguments(call.group(2)), result, call.group(4),
                          call.group(5), start, number, stamp))
    return found


@dataclass
class Duty:
    """Something a request changed that must be on the disk before its answer."""
    what: str          # "bytes" | "entry" | "directory"
    path: str          # the file, the entry's full path, or the directory made
    operation: str     # the call that changed it, as a phrase
    call: Call
    inode: int | None = None
    needs: str = ""    # the flush it needs: the file, or its directory
    flushed: int | None = None    # the trace line where that flush ended
    early: str | None = None      # an ordering fault found on the way
    conditional: bool = False     # a lock file's possible creation: owed only if written
    request: "Request | None" = None


@dataclass
class Request:
    tid: int
    method: str
    uri: str
    line: int
    status: int | None = None
    answered: int | None = None
    duties: list[Duty] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.method} {self.uri}"


@dataclass
class Fault:
    request: str
    status: int | None
    path: str
    operation: str
    missing: str
    lines: tuple[int, int]

    def __str__(self):
        if self.status is None:
            return f"{self.request} (trace line {self.lines[0]}): {self.path}: {self.operation}; {self.missing}"
        return (f"{self.request} → {self.status} (answer at trace line {self.lines[1]}): "
                f"{self.path}: {self.operation} (line {self.lines[0]}); {self.missing}")


@dataclass
class Report:
    root: str
    faults: list[Fault]
    acknowledged: list[Request]
    coverage: dict[tuple[str, str], set[str]]
    notes: list[str] = field(default_factory=list)
    silent: list[str] = field(default_factory=list)   # acknowledged changes that wrote nothing

    @property
    def ok(self) -> bool:
        return not self.faults and bool(self.acknowledged)

    def cells(self) -> set[tuple[str, str]]:
        return set(self.coverage)

    def text(self) -> str:
        out = [f"{len(self.acknowledged)} answers checked, "
               f"{len(self.faults)} faults"]
        for fault in self.faults:
            out.append(f"  FAULT {fault}")
        out += [f"  {note}" for note in self.notes]
        if self.silent:
            out.append(f"  acknowledged changes that wrote nothing: {', '.join(self.silent)}")
        if self.coverage:
            out.append("write paths covered (what × how: mechanisms seen):")
        width = max((len(kind) for kind, _ in self.coverage), default=10)
        for (kind, how) in sorted(self.coverage):
            out.append(f"  {kind:<{width}}  {how:<12} {', '.join(sorted(self.coverage[(kind, how)]))}")
        return "\n".join(out)


def kind_of(relative: str) -> str:
    """A path with its hex names generalised: `users/<2>/<64>/Checklists.plist`."""
    parts = []
    for part in relative.split("/"):
        if re.fullmatch(r"[0-9a-f]+", part) and len(part) in (2, 32, 64):
            parts.append(f"<{len(part)}>")
        elif (corrupt := re.match(r"^(.*)\.corrupt-.*$", part)):
            parts.append(f"{corrupt.group(1)}.corrupt-…")
        else:
            parts.append(part)
    return "/".join(parts)


class Checker:
    """Replays a trace against a model of what has reached the disk."""

    def __init__(self, root: str, display_root: str | None = None):
        self.root = os.path.normpath(root)
        self.display_root = display_root or self.root
        self.names: dict[str, int] = {}           # a path → its file (a number of ours)
        self.inode_names: dict[int, set[str]] = defaultdict(set)
        self.next_inode = 1
        self.dirty_bytes: dict[int, list[Duty]] = defaultdict(list)
        self.dirty_entries: dict[str, list[Duty]] = defaultdict(list)   # directory → entries
        self.dirty_directories: dict[int, list[Duty]] = defaultdict(list)
        self.duties: list[Duty] = []
        self.current: dict[int, Request] = {}
        self.requests: list[Request] = []
        self.faults: list[Fault] = []
        self.acknowledged: list[Request] = []
        self.coverage: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.owed_outside: list[Duty] = []    # duties of no request, owed by the next answer
        self.made: set[int] = set()           # files made in the trace (open with O_EXCL)
        self.rewritten: set[int] = set()      # files opened for writing as they were (the spare)

    # MARK: paths and files

    def inside(self, path: str | None) -> bool:
        return path is not None and (path == self.root or path.startswith(self.root + "/"))

    def show(self, path: str) -> str:
        """A path under the data directory as `<data>/…`."""
        return "<data>" + path[len(self.root):] if self.inside(path) else path

    def inode(self, path: str) -> int:
        if path not in self.names:
            self.bind(path, self.new_inode())
        return self.names[path]

    def new_inode(self) -> int:
        self.next_inode += 1
        return self.next_inode

    def bind(self, path: str, inode: int):
        old = self.names.get(path)
        if old is not None:
            self.inode_names[old].discard(path)
        self.names[path] = inode
        self.inode_names[inode].add(path)

    def unbind(self, path: str):
        old = self.names.pop(path, None)
        if old is not None:
            self.inode_names[old].discard(path)

    @staticmethod
    def temporary(path: str) -> bool:
        return bool(TEMPORARY.match(os.path.basename(path)))

    def resolve(self, directory_argument: str | None, path_argument: str) -> str | None:
        decoded = string_argument(path_argument)
        if decoded is None:
            return None
        path = decoded[0].decode("utf-8", "surrogateescape")
        if not path.startswith("/"):
            base = annotation(directory_argument) if directory_argument else None
            if base is None:
                return None
            path = os.path.join(base, path)
        return os.path.normpath(path)

    # MARK: replay

    def run(self, lines) -> Report:
        for call in calls(lines):
            handler = getattr(self, f"on_{call.name}", None)
            if handler is not None:
                handler(call)
        silent = [f"{r.label} → {r.status}" for r in self.acknowledged
                  if r.method == "POST" and not self.wrote_for(r)]
        return Report(self.display_root, self.faults, self.acknowledged, dict(self.coverage), silent=silent)

    def wrote_for(self, request: Request) -> bool:
        return any(not d.conditional for d in request.duties)

    def owe(self, duty: Duty):
        request = self.current.get(duty.call.tid)
        if request is not None and request.answered is None:
            duty.request = request
            request.duties.append(duty)
        else:
            self.owed_outside.append(duty)
        self.duties.append(duty)

    def wrote(self, call: Call, path: str | None, how: str):
        if call.result is None or call.result < 0 or not self.inside(path) or path is None:
            return
        inode = self.inode(path)
        duty = Duty("bytes", path, f"{how} of its bytes", call, inode=inode,
                    needs="no fsync of the file after it")
        self.dirty_bytes[inode].append(duty)
        self.owe(duty)

    def entry(self, call: Call, path: str, operation: str, inode: int | None, conditional=False):
        directory = os.path.dirname(path)
        duty = Duty("entry", path, operation, call, inode=inode, conditional=conditional,
                    needs=f"no fsync of its directory {self.show(directory)} after it")
        self.dirty_entries[directory].append(duty)
        self.owe(duty)
        return duty

    def publish(self, call: Call, path: str, inode: int, how: str, first: bool):
        """`path` now names `inode` by `how`: its bytes must be on the disk already."""
        if self.temporary(path):
            return
        pending = [d for d in self.dirty_bytes.get(inode, []) if d.flushed is None]
        duty = self.entry(call, path, f"{how} to this name", inode)
        if pending:
            duty.early = f"named by {call.name} before its bytes were flushed (fsync of the file, then the rename)"
        made = "a rewritten file" if inode in self.rewritten else "a new file" if inode in self.made else "a file"
        self.coverage[(kind_of(os.path.relpath(path, self.root)), "first" if first else "steady state")].add(f"{how} of {made}")

    def on_open(self, call: Call, offset=0):
        if call.result is None or call.result < 0:
            return
        flags = call.arguments[1 + offset] if len(call.arguments) > 1 + offset else ""
        path = os.path.normpath(call.result_path) if call.result_path else None
        if path is None or not self.inside(path):
            return
        if "O_CREAT" not in flags:
            if "O_RDWR" in flags or "O_WRONLY" in flags:
                self.rewritten.add(self.inode(path))
            return
        if "O_EXCL" in flags:
            self.bind(path, self.new_inode())
            self.made.add(self.names[path])
            if not self.temporary(path):
                self.entry(call, path, "made by open(O_CREAT|O_EXCL)", self.names[path])
                self.coverage[(kind_of(os.path.relpath(path, self.root)), "first")].add("open O_EXCL")
        elif path not in self.names:
            # A lock file (or any file opened this way): owed only once written.
            self.bind(path, self.new_inode())
            if not self.temporary(path):
                self.entry(call, path, "made by open(O_CREAT)", self.names[path], conditional=True)

    def on_openat(self, call: Call):
        self.on_open(call, offset=1)

    def on_creat(self, call: Call):
        if call.result is not None and call.result >= 0 and call.result_path:
            path = os.path.normpath(call.result_path)
            if self.inside(path):
                self.bind(path, self.new_inode())
                self.entry(call, path, "made by creat", self.names[path])

    def file_path(self, argument: str) -> str | None:
        found = annotation(argument)
        if found is None or not found.startswith("/"):
            return None
        return os.path.normpath(found.removesuffix(" (deleted)"))

    def on_write(self, call: Call):
        found = annotation(call.arguments[0]) if call.arguments else None
        if found is not None and found.startswith("socket:"):
            self.socket_write(call)
            return
        self.wrote(call, self.file_path(call.arguments[0]), call.name)

    on_pwrite64 = on_writev = on_pwritev = on_pwritev2 = on_ftruncate = on_write

    def on_truncate(self, call: Call):
        self.wrote(call, self.resolve(None, call.arguments[0]), "truncate")

    def on_fsync(self, call: Call):
        if call.result != 0:
            return
        path = self.file_path(call.arguments[0])
        if not self.inside(path) or path is None:
            return
        inode = self.names.get(path)
        for duty in self.dirty_bytes.get(inode, []) + self.dirty_directories.get(inode, []):
            if duty.flushed is None and duty.call.end < call.start:
                duty.flushed = call.end
        if inode is not None:
            self.dirty_bytes[inode] = [d for d in self.dirty_bytes[inode] if d.flushed is None]
            self.dirty_directories[inode] = [d for d in self.dirty_directories[inode] if d.flushed is None]
        # A directory's entries: fdatasync of a directory writes them as fsync does.
        remaining = []
        for duty in self.dirty_entries.get(path, []):
            if duty.flushed is None and duty.call.end < call.start:
                duty.flushed = call.end
                unflushed = [d for d in self.dirty_bytes.get(duty.inode, []) if d.flushed is None]
                if unflushed and not duty.early and not duty.conditional:
                    duty.early = (f"its directory was flushed (line {call.end}) before its bytes: "
                                  "fsync of the file must come first")
            else:
                remaining.append(duty)
        self.dirty_entries[path] = remaining

    on_fdatasync = on_fsync

    def on_rename(self, call: Call, old=None, new=None, flags=""):
        if call.result != 0:
            return
        if old is None:
            old = self.resolve(None, call.arguments[0])
            new = self.resolve(None, call.arguments[1])
        if old is None or new is None or not (self.inside(old) or self.inside(new)):
            return
        if "RENAME_EXCHANGE" in flags:
            a, b = self.inode(old), self.inode(new)
            self.bind(old, b)
            self.bind(new, a)
            self.publish(call, new, a, "exchange", first=False)
            self.publish(call, old, b, "exchange", first=False)
            return
        first = new not in self.names
        inode = self.inode(old)
        self.unbind(old)
        self.bind(new, inode)
        if os.path.dirname(old) != os.path.dirname(new) and not self.temporary(old):
            self.entry(call, old, f"removed by {call.name} to {self.show(new)}", None)
        self.publish(call, new, inode, "rename", first=first)

    def on_renameat(self, call: Call):
        arguments = call.arguments
        self.on_rename(call, self.resolve(arguments[0], arguments[1]),
                       self.resolve(arguments[2], arguments[3]),
                       arguments[4] if len(arguments) > 4 else "")

    on_renameat2 = on_renameat

    def on_link(self, call: Call, old=None, new=None):
        if call.result != 0:
            return
        if old is None:
            old = self.resolve(None, call.arguments[0])
            new = self.resolve(None, call.arguments[1])
        if old is None or new is None or not self.inside(new):
            return
        first = new not in self.names
        inode = self.inode(old)
        self.bind(new, inode)
        self.publish(call, new, inode, "link", first=first)

    def on_linkat(self, call: Call):
        arguments = call.arguments
        self.on_link(call, self.resolve(arguments[0], arguments[1]), self.resolve(arguments[2], arguments[3]))

    def on_unlink(self, call: Call, path=None, directory=False):
        if call.result != 0:
            return
        path = path or self.resolve(None, call.arguments[0])
        if path is None or not self.inside(path):
            return
        self.unbind(path)
        if self.temporary(path):
            return
        self.entry(call, path, "removed by " + ("rmdir" if directory else call.name), None)
        self.coverage[(kind_of(os.path.relpath(path, self.root)), "removed")].add(call.name)

    def on_unlinkat(self, call: Call):
        arguments = call.arguments
        self.on_unlink(call, self.resolve(arguments[0], arguments[1]),
                       directory=len(arguments) > 2 and "AT_REMOVEDIR" in arguments[2])

    def on_rmdir(self, call: Call):
        self.on_unlink(call, directory=True)

    def on_mkdir(self, call: Call, path=None):
        if call.result != 0:
            return
        path = path or self.resolve(None, call.arguments[0])
        if path is None or not self.inside(path):
            return
        inode = self.new_inode()
        self.bind(path, inode)
        self.entry(call, path, "made by mkdir", inode)
        itself = Duty("directory", path, "made by mkdir", call, inode=inode,
                      needs="no fsync of the new directory itself after it")
        self.dirty_directories[inode].append(itself)
        self.owe(itself)
        self.coverage[(kind_of(os.path.relpath(path, self.root)) + "/", "first")].add("mkdir")

    def on_mkdirat(self, call: Call):
        self.on_mkdir(call, self.resolve(call.arguments[0], call.arguments[1]))

    # MARK: requests and answers on the FastCGI socket

    def on_read(self, call: Call):
        found = annotation(call.arguments[0]) if call.arguments else None
        if found is None or not found.startswith("socket:") or call.result is None or call.result <= 0:
            return
        data = string_argument(call.arguments[1])
        if data is None:
            return
        method = fastcgi_parameter(data[0], b"REQUEST_METHOD")
        if method is None:
            return
        uri = fastcgi_parameter(data[0], b"REQUEST_URI") or "?"
        request = Request(call.tid, method, uri, call.end)
        self.current[call.tid] = request
        self.requests.append(request)

    def socket_write(self, call: Call):
        request = self.current.get(call.tid)
        if request is None or request.answered is not None:
            return
        data = self.sent_bytes(call)
        if data is None:
            return
        status = re.search(rb"Status: (\d{3})", data[0])
        if status is None:
            return
        request.status = int(status.group(1))
        request.answered = call.start
        # A change's answer promises what it wrote; any answer at all promises
        # what was written outside every request before it (the start-up's
        # server secret, the key of the forms' tokens every page carries).
        outside = [d for d in self.owed_outside if d.call.end < call.start]
        promised = (request.method == "POST" and 200 <= request.status < 400) or any(
            not d.conditional for d in outside) or self.owed_outside_store(call.start)
        if not promised:
            return
        self.acknowledged.append(request)
        owed = outside + request.duties
        self.owed_outside = [d for d in self.owed_outside if d.call.end >= call.start]
        for duty in owed:
            self.judge(duty, request, call.start)
        self.judge_request(request, call.start)

    @staticmethod
    def sent_bytes(call: Call) -> tuple[bytes, bool] | None:
        """What a write to a socket sent: a `write`'s string, or a `writev`'s
        pieces joined (the server sends each answer's records in one)."""
        if len(call.arguments) < 2:
            return None
        if call.name != "writev":
            return string_argument(call.arguments[1])
        pieces = re.findall(r'iov_base="((?:[^"\\]|\\.)*)"(\.\.\.)?', call.arguments[1])
        if not pieces:
            return None
        return b"".join(unescape(text) for text, _ in pieces), any(cut for _, cut in pieces)

    def judge_request(self, request: Request, answer: int):
        """What else a store checks of an acknowledged request (PostgreSQL)."""

    def owed_outside_store(self, answer: int) -> bool:
        """Whether a store's write outside any request awaits an answer."""
        return False

    def judge(self, duty: Duty, request: Request, answer: int):
        if duty.conditional and not self.ever_written(duty.inode):
            return
        if duty.what == "bytes" and not any(not self.temporary(n) for n in self.inode_names[duty.inode]):
            return  # bytes of a file no longer named (a temporary removed): nothing reads them
        shown = self.show(duty.path)
        if self.temporary(duty.path) and duty.inode is not None:
            named = sorted(self.show(n) for n in self.inode_names[duty.inode] if not self.temporary(n))
            shown += f" (the file now named {', '.join(named)})" if named else ""
        where = (duty.call.start, answer)
        owner = "" if duty.request is request else " (outside any request, before it)"
        if duty.flushed is None or duty.flushed >= answer:
            self.faults.append(Fault(request.label, request.status, shown, duty.operation + owner,
                                     f"missing: {duty.needs} before the answer", where))
        if duty.early:
            self.faults.append(Fault(request.label, request.status, shown, duty.operation + owner,
                                     f"misordered: {duty.early}", where))

    def ever_written(self, inode: int | None) -> bool:
        return any(d.what == "bytes" and d.inode == inode for d in self.duties)


def fastcgi_parameter(data: bytes, name: bytes) -> str | None:
    """A FastCGI name-value pair's value found in a record's bytes."""
    at = 0
    while (at := data.find(name, at)) > 0:
        if at >= 2 and data[at - 2] == len(name) and data[at - 1] < 0x80:
            length = data[at - 1]
        elif at >= 5 and data[at - 5] == len(name) and data[at - 4] & 0x80:
            length = int.from_bytes(data[at - 4:at], "big") & 0x7FFFFFFF
        else:
            at += 1
            continue
        value = data[at + len(name):at + len(name) + length]
        return value.decode("utf-8", "replace")
    return None


def check(trace: Path | str, root: str, lines=None) -> Report:
    """The report of a trace file (or of `lines`) for the data directory `root`."""
    if lines is None:
        lines = Path(trace).read_text(errors="surrogateescape").splitlines()
    return Checker(root).run(lines)


WRITES = re.compile(rb"\b(INSERT|UPDATE|DELETE)\b", re.I)


@dataclass
class Statement:
    """A statement that changes the database, sent by a request's thread."""
    request: Request | None
    call: Call
    sql: bytes
    committed: int | None = None   # the line where the server said the transaction ended, committed
    failed: bool = False
    judged: bool = False

    @property
    def summary(self) -> str:
        return " ".join(self.sql.decode("utf-8", "replace").split())[:60]


class Connection:
    """One PostgreSQL connection's two byte streams, read as protocol messages."""

    def __init__(self):
        self.sent = bytearray()
        self.received = bytearray()
        self.started = False
        self.statements: dict[bytes, bytes] = {}
        self.pending: list[Statement] = []
        self.error = False
        self.unreadable: int | None = None   # the line from which strace cut the bytes (`-s`)

    @staticmethod
    def messages(buffer: bytearray):
        while len(buffer) >= 5:
            length = int.from_bytes(buffer[1:5], "big")
            if len(buffer) < 1 + length:
                return
            kind, body = bytes(buffer[:1]), bytes(buffer[5:1 + length])
            del buffer[:1 + length]
            yield kind, body


class PostgresChecker(Checker):
    """As `Checker`, and for the PostgreSQL store: every statement a change
    sent that writes (`INSERT`, `UPDATE`, `DELETE`) must be in a transaction
    the server reported ended (`ReadyForQuery`, idle, no error, not
    `ROLLBACK`) before the answer's first byte: with `synchronous_commit`
    on, the server says so only once the commit is flushed. No client
    message may set `synchronous_commit`. `check_postgres` also fails on
    any file written in the data directory (none should be)."""

    def __init__(self, root: str):
        super().__init__(root)
        self.connections: dict[str, Connection] = defaultdict(Connection)
        self.statements: list[Statement] = []

    def connection(self, call: Call) -> tuple[Connection, bytes] | None:
        found = annotation(call.arguments[0]) if call.arguments else None
        data = string_argument(call.arguments[1]) if len(call.arguments) > 1 else None
        if found is None or not found.startswith("socket:") or data is None or not call.result or call.result < 0:
            return None
        connection = self.connections[found]
        if data[1] and connection.unreadable is None:
            connection.unreadable = call.end
        return connection, data[0]

    def on_sendto(self, call: Call):
        found = self.connection(call)
        if found is None:
            return
        connection, data = found
        connection.sent += data
        if not connection.started and len(connection.sent) >= 4:
            length = int.from_bytes(connection.sent[:4], "big")
            if len(connection.sent) < length:
                return
            self.settings(call, bytes(connection.sent[8:length]))
            del connection.sent[:length]
            connection.started = True
        for kind, body in Connection.messages(connection.sent):
            sql = None
            if kind == b"Q":
                sql = body.rstrip(b"\x00")
            elif kind == b"P":
                name, rest = body.split(b"\x00", 1)
                connection.statements[name] = rest.split(b"\x00", 1)[0]
                self.settings(call, connection.statements[name])
            elif kind == b"B":
                statement = body.split(b"\x00", 2)[1]
                sql = connection.statements.get(statement, b"")
            if sql is not None:
                self.settings(call, sql)
                if WRITES.search(sql):
                    request = self.current.get(call.tid)
                    request = request if request is not None and request.answered is None else None
                    statement = Statement(request, call, sql)
                    connection.pending.append(statement)
                    self.statements.append(statement)

    def settings(self, call: Call, text: bytes):
        at = text.lower().find(b"synchronous_commit")
        if at >= 0:
            said = text[at:at + 40].split(b"\x00")[0].decode("utf-8", "replace")
            self.faults.append(Fault("the backend's connection", None, "PostgreSQL", f"a message says {said!r}",
                                     "a session must leave synchronous_commit on", (call.start, call.end)))

    def on_recvfrom(self, call: Call):
        found = self.connection(call)
        if found is None:
            return
        connection, data = found
        connection.received += data
        for kind, body in Connection.messages(connection.received):
            if kind == b"E" or (kind == b"C" and body.startswith(b"ROLLBACK")):
                connection.error = True
            elif kind == b"Z" and body[:1] in (b"I", b"E"):
                for statement in connection.pending:
                    if connection.error or body[:1] == b"E":
                        statement.failed = True
                    else:
                        statement.committed = call.end
                connection.pending = []
                connection.error = False

    def wrote_for(self, request: Request) -> bool:
        return any(s.request is request for s in self.statements)

    def owed_outside_store(self, answer: int) -> bool:
        return any(s.request is None and not s.judged and s.call.end < answer for s in self.statements)

    def judge_request(self, request: Request, answer: int):
        for statement in self.statements:
            # A change's own statements, and those of no request (the start-up's
            # server secret) that no answer has judged yet.
            outside = statement.request is None and not statement.judged and statement.call.end < answer
            if statement.request is not request and not outside:
                continue
            statement.judged = True
            where = (statement.call.start, answer)
            if statement.failed:
                missing = "the server reported an error or a rollback for its transaction"
            elif statement.committed is None or statement.committed >= answer:
                missing = "missing: the server's end of its transaction (COMMIT answered, ready and idle) before the answer"
            else:
                continue
            self.faults.append(Fault(request.label, request.status, "PostgreSQL", statement.summary, missing, where))
        for key, connection in self.connections.items():
            if connection.unreadable is not None and connection.unreadable < answer:
                self.faults.append(Fault(request.label, request.status, "PostgreSQL", key,
                                         "unreadable: the trace cut its bytes (raise strace's -s)",
                                         (connection.unreadable, answer)))
                connection.unreadable = answer + 10**9  # reported once


def check_postgres(trace: Path | str, root: str, lines=None) -> Report:
    """The report of a PostgreSQL store's trace; `root` is `--data`, where
    nothing may be written."""
    if lines is None:
        lines = Path(trace).read_text(errors="surrogateescape").splitlines()
    checker = PostgresChecker(root)
    report = checker.run(lines)
    for duty in checker.duties:
        report.faults.append(Fault(duty.request.label if duty.request else "(outside any request)",
                                   duty.request.status if duty.request else None, checker.show(duty.path),
                                   duty.operation, "written in the data directory of a PostgreSQL store",
                                   (duty.call.start, duty.call.end)))
    statements = checker.statements
    committed = sum(1 for s in statements if s.committed is not None)
    outside = sum(1 for s in statements if s.request is None)
    report.notes.append(f"{len(statements)} statements that write sent ({outside} outside any request), "
                        f"{committed} in transactions the server reported committed; "
                        f"{len(checker.duties)} changes to files in the data directory")
    return report


def excerpt(lines, root: str, until: int, stand_in: str = "/data", since: int = 1) -> list[str]:
    """The lines of a trace the checker reads, from line `since` to line
    `until`: calls on paths under `root` and the FastCGI reads and answers
    of the requests that changed something, with `root` written as
    `stand_in`. What a fixture of a failing run keeps."""
    root = os.path.normpath(root)
    wanted = set()
    checker = Checker(root)
    checker.run(lines[:until])
    for request in checker.acknowledged:
        wanted.update({request.line, request.answered})
    for call in calls(lines[:until]):
        touched = any(root in argument for argument in call.arguments) or root in (call.result_path or "")
        if touched:
            wanted.update({call.start, call.end})
    kept = [shorten(lines[number - 1]) for number in sorted(wanted) if since <= number <= until]
    return [line.replace(root, stand_in) for line in kept]


def escape(data: bytes) -> str:
    """Bytes as `strace -x` prints them."""
    named = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x0B: "\\v", 0x0C: "\\f", 0x22: '\\"', 0x5C: "\\\\"}
    return "".join(named.get(b) or (chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02x}") for b in data)


def shorten(line: str) -> str:
    """A FastCGI read or answer cut (as a smaller `-s` would) just after what
    the checker reads of it, the request's method and address or the status;
    the bytes written to or read from a file cut to 32."""
    match = LINE.match(line)
    call = CALL.match(match.group(3)) if match else None
    if call is None or call.group(1) not in ("read", "write", "pwrite64"):
        return line
    arguments = split_arguments(call.group(2))
    data = string_argument(arguments[1]) if len(arguments) > 1 else None
    if data is None:
        return line
    on_socket = (annotation(arguments[0]) or "/").startswith("socket:")
    ends = [data[0].find(b"\r\n", data[0].find(b"Status: ")) if b"Status: " in data[0] else -1]
    if not on_socket:
        ends = [32]  # a file's bytes: the checker reads none of them
    for name in (b"REQUEST_METHOD", b"REQUEST_URI"):
        value = fastcgi_parameter(data[0], name)
        if value is not None:
            ends.append(data[0].find(name) + len(name) + len(value.encode()))
    end = max(ends)
    if end < 0 or end >= len(data[0]):
        return line
    arguments[1] = f'"{escape(data[0][:end])}"...'
    head = line[: match.start(3)] + call.group(1) + "(" + ", ".join(arguments) + ")"
    return head + match.group(3)[match.group(3).rindex(") = ") + 1:]


def main(arguments):
    """`python3 durability.py TRACE DATA_DIR [EXCERPT]`: prints the report;
    with EXCERPT, also writes the lines up to the first fault's answer there."""
    lines = Path(arguments[0]).read_text(errors="surrogateescape").splitlines()
    report = Checker(arguments[1]).run(lines)
    print(report.text())
    if len(arguments) > 2 and report.faults:
        kept = excerpt(lines, arguments[1], report.faults[0].lines[1])
        Path(arguments[2]).write_text("\n".join(kept) + "\n", errors="surrogateescape")
        print(f"{len(kept)} lines kept in {arguments[2]}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
