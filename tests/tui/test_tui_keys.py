# SPDX-License-Identifier: GPL-2.0-or-later
"""The keys an htop user reaches for, and a terminal that goes away, in tmux:
a taskview whose terminal is gone ends at once, with or without a hang-up
signal; a signal's number typed in the signal menu selects it; e, l, a and s
show the environment, the open files, the CPU affinity (and set it) and
trace the task, as root and as a user, with control characters escaped;
keys that do nothing say so.

Runs the real binary in private tmux servers (tmuxlib.py). Exit 77 (skip)
when tmux is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tmuxlib import Tmux, selected_row  # noqa: E402

ENV = {"NO_COLOR": "1", "TERM": "screen"}
AS_ROOT = os.geteuid() == 0
NOBODY = ("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups")


def descendants(pid):
    out = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                kids = [int(x) for x in f.read().split()]
        except OSError:
            continue
        out += kids
        todo += kids
    return out


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def find_taskview(t, s):
    sh = int(t.cmd("display", "-p", "-t", s, "#{pane_pid}").strip())
    for p in descendants(sh):
        if comm(p) == "taskview":
            return p
    raise AssertionError(f"no taskview below {sh}")


def cpu_ticks(pid):
    """utime + stime of a process, or None when it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[11]) + int(fields[12])


def start(t, args, w=100, h=30, wrap=(), env=None):
    shutil.rmtree(os.path.join(t.home, "cfg"), ignore_errors=True)
    s = t.start(args, env={**ENV, **(env or {})}, width=w, height=h, wrap=wrap)
    t.wait_for(s, "PID", timeout=10)
    return s


def status_line(t, s):
    lines = t.text(s).splitlines()
    return lines[-2] if len(lines) >= 2 else ""


# ---- the terminal goes away ----

def hangup_case(home, wrap, what):
    """taskview in a tmux server of its own, then the server killed."""
    t = Tmux(home)
    t.sock = f"tvhup-{os.getpid()}-{what}"
    try:
        s = start(t, ["-d", "0.5"], wrap=wrap)
        pid = find_taskview(t, s)
        t.kill_server()
        # it ends within seconds; until then, it must not spin
        end = time.monotonic() + 5
        first = cpu_ticks(pid)
        while time.monotonic() < end and cpu_ticks(pid) is not None:
            time.sleep(0.05)
        last = cpu_ticks(pid)
        if last is None:
            print(f"  {what}: ended {time.monotonic() - (end - 5):.2f} s after the server was killed")
        else:
            os.kill(pid, 9)
            hz = os.sysconf("SC_CLK_TCK")
            raise AssertionError(f"{what}: taskview {pid} still runs 5 s after its terminal went away, "
                                 f"having used {(last - first) / hz:.2f} s of CPU meanwhile")
    finally:
        t.kill_server()


def test_terminal_gone(t):
    home = t.home
    # a session of its own: no hang-up signal reaches it, only end of file
    hangup_case(home, ("setsid",), "setsid")
    # hang-ups ignored by whatever started it
    hangup_case(home, ("sh", "-c", "trap '' HUP; exec setsid \"$@\"", "sh"), "nohup")
    # the same session: SIGHUP
    hangup_case(home, (), "sighup")
    if AS_ROOT and shutil.which("runuser"):
        hangup_case(home, ("runuser", "-u", "nobody", "--"), "runuser")


TESTS = [test_terminal_gone]


def main():
    if not shutil.which("tmux"):
        print("tmux not found: skipped")
        return 77
    home = tempfile.mkdtemp(prefix="tv-tui-keys-")
    os.chmod(home, 0o755)
    t = Tmux(home)
    t.cmd("new-session", "-d", "-s", "keep", "sleep", "600")
    failed = 0
    start_time = time.monotonic()
    only = sys.argv[1:]
    tests = [x for x in TESTS if not only or x.__name__ in only]
    try:
        for test in tests:
            t0 = time.monotonic()
            try:
                test(t)
                print(f"ok   {test.__name__} ({time.monotonic() - t0:.1f} s)")
            except Exception:
                failed += 1
                print(f"FAIL {test.__name__}")
                traceback.print_exc()
            t.cmd("kill-session", "-a", "-t", "keep", check=False)
    finally:
        t.kill_server()
        shutil.rmtree(home, ignore_errors=True)
    print(f"{len(tests) - failed}/{len(tests)} passed in {time.monotonic() - start_time:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
