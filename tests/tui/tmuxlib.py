# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared by the tmux tests: a private tmux server that runs the real taskview
binary (keys in, screen text out), and a workload with named threads.

A private server (its own socket, no user config), fixed window sizes, and
HOME/XDG_CONFIG_HOME in a temporary directory. Python 3 standard library only.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import tvtest  # noqa: E402  (reachable: a copy of the binary the users tests switch to can run)

TASKVIEW = os.environ.get("TASKVIEW", "taskview")
WORKLOAD = os.environ.get("WORKLOAD", "")
WIDTH, HEIGHT = 120, 40
# How long a wait for the screen gives up after: what it waits for comes in well under a
# second on a quiet machine; a busy one (CI beside CPU hogs, an exit storm) takes longer
WAIT = 30.0


class Tmux:
    def __init__(self, home):
        self.sock = f"tvtest-{os.getpid()}"
        self.home = home
        self.n = 0

    def cmd(self, *args, check=True):
        r = subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", *args],
                           capture_output=True, text=True, errors="replace")
        if check and r.returncode != 0:
            raise AssertionError(f"tmux {args[0]} failed: {r.stderr.strip()}")
        return r.stdout

    def start(self, args, env=None, width=WIDTH, height=HEIGHT, wrap=(), cwd=None):
        """Runs taskview in a new session; the shell prints its exit status after.
        wrap: a command that runs it (setpriv ...); cwd: its directory."""
        self.n += 1
        name = f"s{self.n}"
        envs = {"HOME": self.home, "XDG_CONFIG_HOME": os.path.join(self.home, "cfg"),
                "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        envs.update(env or {})
        assign = " ".join(f"{k}={shlex.quote(v)}" for k, v in envs.items())
        pre = " ".join(shlex.quote(a) for a in wrap)
        exe = tvtest.reachable(TASKVIEW, wrap=wrap) if wrap else TASKVIEW
        line = f"{pre} env {assign} {shlex.quote(exe)} {' '.join(shlex.quote(a) for a in args)}; " \
               f"echo EXIT=$?; sleep 60"
        self.cmd("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height),
                 *(["-c", cwd] if cwd else []), "sh", "-c", line)
        return name

    def keys(self, session, *keys):
        self.cmd("send-keys", "-t", session, *keys)

    def text(self, session, escapes=False):
        return self.cmd("capture-pane", "-p", *(["-e"] if escapes else []), "-t", session)

    def wait(self, session, pred, what, timeout=WAIT):
        """Polls the screen until pred(text) holds."""
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.text(session)
            if pred(text):
                return text
            time.sleep(0.05)
        # the screen without its blank lines, so that a log that keeps only the start of a
        # message still shows all of it; and what the pane's processes were doing
        shown = "\n".join(line for line in text.splitlines() if line.strip())
        raise AssertionError(f"timed out waiting for {what}; screen:\n{shown}\n{self.doing(session)}")

    def doing(self, session):
        """The pane's processes, each with its state, where it waits and its CPU time: a
        screen that stopped changing says whether its program hangs, spins or is gone."""
        try:
            pid = int(self.cmd("display", "-p", "-t", session, "#{pane_pid}").strip())
        except (AssertionError, ValueError):
            return "(the pane is gone)"
        out, todo = [], [pid]
        while todo and len(out) < 16:
            p = todo.pop(0)
            try:
                with open(f"/proc/{p}/stat") as f:
                    rest = f.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{p}/comm") as f:
                    comm = f.read().strip()
                with open(f"/proc/{p}/wchan") as f:
                    wchan = f.read().strip() or "-"
            except OSError:
                continue
            tick = os.sysconf("SC_CLK_TCK")
            out.append(f"  {p} {comm}: state {rest[0]}, waits in {wchan}, "
                       f"CPU {(int(rest[11]) + int(rest[12])) / tick:.2f} s")
            todo += tvtest.children(p)
        return "processes of the pane:\n" + "\n".join(out)

    def wait_for(self, session, needle, timeout=WAIT):
        return self.wait(session, lambda t: needle in t, repr(needle), timeout)

    def wait_gone(self, session, needle, timeout=WAIT):
        return self.wait(session, lambda t: needle not in t, f"{needle!r} to go", timeout)

    def wait_exit(self, session, timeout=WAIT):
        """The exit status the shell printed after taskview ended."""
        text = self.wait(session, lambda x: re.search(r"(?m)^EXIT=\d+", x), "exit", timeout)
        return int(re.search(r"(?m)^EXIT=(\d+)", text).group(1)), text

    def alive(self, session):
        return not re.search(r"(?m)^EXIT=\d+", self.text(session))

    def taskview_pid(self, session):
        sh = int(self.cmd("display", "-p", "-t", session, "#{pane_pid}").strip())
        with open(f"/proc/{sh}/task/{sh}/children") as f:
            kids = f.read().split()
        return int(kids[0]) if kids else None

    def quit(self, session):
        self.keys(session, "q")
        # a busy machine may take seconds to schedule the end; a screen that does not quit still fails
        rc, text = self.wait_exit(session, timeout=30)
        self.cmd("kill-session", "-t", session, check=False)
        assert rc == 0, f"exit status {rc}: {text}"
        return text

    def kill_server(self):
        self.cmd("kill-server", check=False)


class Workload:
    """tv-workload with named threads, or a python stand-in when it is not built."""

    def __init__(self, *args):
        if WORKLOAD and os.access(WORKLOAD, os.X_OK):
            cmd = [WORKLOAD, "--seconds", "120", *args]
        else:
            # from a file, so the command line stays short enough to read on screen
            path = os.path.join(tempfile.gettempdir(), f"tv-standin-{os.getpid()}.py")
            with open(path, "w") as f:
                f.write(STANDIN)
            cmd = [sys.executable, path, *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        info = json.loads(self.proc.stdout.readline())
        self.pid = info["pid"]
        self.threads = info["threads"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


# a process with named threads, printing the same ready line as tv-workload
STANDIN = r"""
import ctypes, json, os, sys, threading, time
libc = ctypes.CDLL(None)
args = sys.argv[1:]
if "--name" in args:
    libc.prctl(15, args[args.index("--name") + 1].encode("latin-1", "surrogateescape"), 0, 0, 0)
tids = {}
def run(name):
    libc.prctl(15, name.encode(), 0, 0, 0)
    tids[name] = threading.get_native_id()
    time.sleep(120)
for n in ("pingA", "pingB", "sleeper-1"):
    threading.Thread(target=run, args=(n,), daemon=True).start()
while len(tids) < 3:
    time.sleep(0.01)
print(json.dumps({"pid": os.getpid(), "threads": tids}), flush=True)
time.sleep(120)
"""


def has_colour(screen):
    """Whether an SGR sequence in screen sets a foreground or background colour."""
    for params in re.findall(r"\x1b\[([0-9;]*)m", screen):
        for p in params.split(";"):
            if p and (30 <= int(p) <= 38 or 40 <= int(p) <= 48 or 90 <= int(p) <= 107):
                return True
    return False


def table_rows(text):
    """Screen lines below the column headers."""
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if re.match(r"\s*PID\b", l):
            rows = lines[i + 1:]
            # not the status line and the key bar
            return rows[:-2] if len(rows) >= 2 and "F10" in rows[-1] else rows
    return []


def row_pids(text):
    """The PIDs that begin the table rows. A PID as wide as its column has no
    space before it (pid_max is 4194304 on many systems)."""
    return {int(m.group(1)) for l in table_rows(text) if (m := re.match(r"\s*(\d+)\s", l))}


def mouse(t, session, x, y, button=0):
    """A mouse press at screen column x, line y (0-based), as a terminal of type
    tmux-256color or screen reports it (X10 encoding); button 64/65: wheel
    up/down."""
    seq = bytes([0x1b, ord("["), ord("M"), 32 + button, 33 + x, 33 + y])
    if button < 64:  # a click ends with the release a terminal sends (button 3)
        seq += bytes([0x1b, ord("["), ord("M"), 32 + 3, 33 + x, 33 + y])
    t.cmd("send-keys", "-t", session, "-H", *[f"{b:02x}" for b in seq])


def lines_with_escapes(t, session):
    return t.text(session, escapes=True).splitlines()


SGR = re.compile(r"\x1b\[[0-9;]*m")


def plain(line):
    return SGR.sub("", line)


def line_attrs(t, session):
    """Each screen line as (text, attributes of its first character): tmux
    sends an SGR only where attributes change, so they are followed across
    lines. Attributes: "reverse", "bold", "underline"."""
    out = []
    attrs = set()
    for line in t.text(session, escapes=True).split("\n"):
        first = None
        text = []
        for part in re.split(r"(\x1b\[[0-9;]*m)", line):
            if part.startswith("\x1b["):
                params = part[2:-1].split(";") if part[2:-1] else ["0"]
                for p in params:
                    p = int(p) if p else 0
                    if p == 0:
                        attrs = set()
                    elif p == 7:
                        attrs.add("reverse")
                    elif p == 27:
                        attrs.discard("reverse")
                    elif p == 1:
                        attrs.add("bold")
                    elif p == 22:
                        attrs.discard("bold")
                    elif p == 4:
                        attrs.add("underline")
                    elif p == 24:
                        attrs.discard("underline")
            elif part:
                if first is None:
                    first = set(attrs)
                text.append(part)
        out.append(("".join(text), first if first is not None else set(attrs)))
    return out


def selected_row(t, session):
    """The text of the table row drawn in reverse video (monochrome: NO_COLOR),
    or None. The column header is reverse too: rows start after it."""
    lines = line_attrs(t, session)
    head = next((i for i, (l, a) in enumerate(lines) if re.search(r"\bPID\b", l) and "reverse" in a), None)
    if head is None:
        return None
    for l, a in lines[head + 1:]:
        if "reverse" in a:
            return l
    return None


def tagged_rows(t, session):
    """Rows drawn bold and underlined (tagged, monochrome)."""
    return [l for l, a in line_attrs(t, session) if {"bold", "underline"} <= a]


def header_line(text):
    for l in text.splitlines():
        if re.search(r"\bPID\b", l) and ("COMMAND" in l or "NAME" in l or "USER" in l):
            return l
    return ""


def children_of(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def sized(tests, sizes):
    """Each test once per screen size (w, h): test(t, w, h), named "test WxH"."""
    out = []
    for (w, h) in sizes:
        for test in tests:
            def one(t, test=test, w=w, h=h):
                test(t, w, h)
            one.__name__ = f"{test.__name__} {w}x{h}"
            out.append(one)
    return out


def run_tests(prefix, tests, call=lambda test, t, home: test(t), public=False):
    """Runs tests in one tmux server (a session "keep" holds it open); a failure
    prints the screens of the sessions it left, which are then killed. Names on
    the command line pick some (a name picks every size of a sized test).
    call(test, t, home) runs one; public: a home other users can enter.
    Returns the exit status."""
    if not shutil.which("tmux"):
        print("tmux not found: skipped")
        return 77
    home = tempfile.mkdtemp(prefix=prefix)
    if public:
        os.chmod(home, 0o755)
    t = Tmux(home)
    t.cmd("new-session", "-d", "-s", "keep", "sleep", "900")
    failed = 0
    start = time.monotonic()
    picked = sys.argv[1:]
    tests = [x for x in tests if not picked or x.__name__.split(" ")[0] in picked]
    try:
        for test in tests:
            t0 = time.monotonic()
            try:
                call(test, t, home)
                print(f"ok   {test.__name__} ({time.monotonic() - t0:.1f} s)")
            except Exception:
                failed += 1
                print(f"FAIL {test.__name__}")
                traceback.print_exc(file=sys.stdout)  # where the CI summary reads the reason
                for s in t.cmd("list-sessions", "-F", "#{session_name}", check=False).split():
                    if s != "keep":
                        try:
                            print(f"--- session {s}:\n{t.text(s)}")
                        except Exception:
                            pass
            t.cmd("kill-session", "-a", "-t", "keep", check=False)
    finally:
        t.kill_server()
        shutil.rmtree(home, ignore_errors=True)
    print(f"{len(tests) - failed}/{len(tests)} passed in {time.monotonic() - start:.1f} s")
    return 1 if failed else 0
