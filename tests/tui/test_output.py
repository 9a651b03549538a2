# SPDX-License-Identifier: GPL-2.0-or-later
"""The screen goes to the terminal in one write() per refresh.

A monitor's own output is part of what it costs the machine it watches, and
of what reaches a terminal over SSH: a refresh of a 200x50 screen sent as a
write() per cursor movement makes about seventy writes. The count comes from
the kernel (syscw in /proc/PID/io, every write-family call of the process),
so it is exact on a busy machine. Runs the real binary in a private tmux
server; exits 77 (skipped) without tmux.
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tmuxlib import Tmux  # noqa: E402

INTERVAL = 0.2
SPAN = 3.0
# the screen (1), the request to the sampling thread and its answer (pipe
# writes, counted too), with room for a resize; nothing per process started
WRITES_PER_REFRESH = 5


def write_calls(pid):
    with open(f"/proc/{pid}/io") as f:
        for line in f:
            if line.startswith("syscw:"):
                return int(line.split()[1])
    raise AssertionError("no syscw in /proc/PID/io")


def main():
    if not shutil.which("tmux"):
        print("SKIP: no tmux")
        return 77
    home = tempfile.mkdtemp(prefix="tv-output-")
    t = Tmux(home)
    try:
        s = t.start(["-d", str(INTERVAL), "--no-plugins"], width=200, height=50)
        t.wait_for(s, "F10Quit")
        time.sleep(1.0)
        pid = t.taskview_pid(s)
        w0, t0 = write_calls(pid), time.monotonic()
        time.sleep(SPAN)
        w1, t1 = write_calls(pid), time.monotonic()
        # at most one refresh per interval, one more for the rounding
        refreshes = (t1 - t0) / INTERVAL + 1
        per = (w1 - w0) / refreshes
        print(f"{w1 - w0} write calls in {t1 - t0:.1f} s: {per:.1f} per refresh at most every {INTERVAL} s")
        assert t.alive(s), t.text(s)
        assert w1 - w0 <= WRITES_PER_REFRESH * refreshes, \
            f"{w1 - w0} write calls for at most {refreshes:.0f} refreshes"
        assert w1 > w0, "the screen was never written"
        t.quit(s)
        return 0
    finally:
        t.kill_server()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
