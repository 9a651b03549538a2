# SPDX-License-Identifier: GPL-2.0-or-later
"""The interactive screen's hold on tasks, in tmux: a collapsed subtree of the
process tree keeps showing its command line, refresh after refresh, and
taskview ends cleanly (the rows' copy of a task and the sample it came from
once both freed its command line); the selection, tags and F9 stay on their
task while two processes swap places in the CPU order.

Runs the real binary in a private tmux server (tmuxlib.py). Exit 77 (skip)
when tmux is missing.
"""
import os
import re
import signal
import subprocess
import sys
import textwrap
import time

sys.path.insert(0, os.path.dirname(__file__))
import tmuxlib  # noqa: E402
from tmuxlib import Workload, line_attrs, selected_row, table_rows, tagged_rows  # noqa: E402

# the nice value this test started at (builds and CI runners run tests under nice); its children inherit it
BASE_NICE = os.getpriority(os.PRIO_PROCESS, 0)

ENV = {"NO_COLOR": "1", "TERM": "screen"}
W, H = 160, 30


def first_pid(line):
    m = re.match(r"\s*(\d+)", line or "")
    return int(m.group(1)) if m else None


def pid_order(text, pids):
    """The given PIDs in the order of their rows."""
    return [p for p in (first_pid(r) for r in table_rows(text)) if p in pids]


def uptime(text):
    m = re.search(r"Uptime: (?:(\d+)d )?(\d+):(\d\d):(\d\d)", text)  # from a day on "3d 03:04:05"
    if not m:
        return None
    d, h, mi, s = (int(x or 0) for x in m.groups())
    return ((d * 24 + h) * 60 + mi) * 60 + s


# ---- a collapsed subtree: its row borrows the sample's strings ----

def test_collapsed_subtree_survives_refreshes(t, home):
    # a parent with children of its own, so that its row folds
    tag = f"47{os.getpid()}"
    parent = subprocess.Popen(["sh", "-c", f"sleep {tag}1 & sleep {tag}2 & wait", "tv-fold-parent"])
    folded = re.compile(rf"\+ sh -c sleep {tag}1 & sleep {tag}2")
    unfolded = re.compile(rf"(?m)\S sleep {tag}2\s*$")
    try:
        # the filter keeps the parent and its children (their command lines match)
        s = t.start(["--no-plugins", "-d", "0.2", "-F", tag], env=ENV, width=W, height=H)
        t.wait_for(s, "PID")
        pid = t.taskview_pid(s)
        t.keys(s, "t")
        t.wait(s, lambda x: unfolded.search(x), "the tree with the children")
        # select the parent, fold it
        t.keys(s, *str(parent.pid))
        wait_selected(t, s, parent.pid, "the parent")
        t.keys(s, "-")
        # folded: its one row carries the subtree, marked "+"
        text = t.wait(s, lambda x: folded.search(x), "the collapsed row with its command")
        # the command line is drawn from the sample on every refresh; under a
        # sanitizer the first refresh after the fold ended taskview
        start = uptime(text)
        t.wait(s, lambda x: not os.path.exists(f"/proc/{pid}") or (uptime(x) or 0) >= start + 4,
               "four seconds of refreshes", timeout=30)
        assert os.path.exists(f"/proc/{pid}"), f"taskview ended with the subtree collapsed:\n{t.text(s)}"
        text = t.text(s)
        assert folded.search(text), f"the collapsed row lost its command line:\n{text}"
        # and back: unfolded, folded again, a few times
        for _ in range(3):
            t.keys(s, "+")
            t.wait(s, lambda x: unfolded.search(x), "the children unfolded")
            t.keys(s, "-")
            t.wait(s, lambda x: folded.search(x) and not unfolded.search(x), "folded again")
            time.sleep(0.5)
        t.quit(s)
    finally:
        subprocess.run(["pkill", "-P", str(parent.pid)], check=False)
        parent.kill()
        parent.wait()


# ---- thread rows on the default screen: their state, nice and priority ----

def test_thread_rows_have_a_state(t, home):
    # the default columns show switches and delays (taskstats, where it runs)
    w = Workload("--sleepers", "3")
    try:
        s = t.start(["--no-plugins", "-H", "-d", "0.3", "-p", str(w.pid)], env=ENV, width=W, height=H)
        ids = {w.pid, *w.threads.values()}
        want = 1 + len(ids)  # the process row, and a row per thread (the leader's too)

        def rows(x):
            return [r.split() for r in table_rows(x) if first_pid(r) in ids]

        text = t.wait(s, lambda x: len(rows(x)) == want, "the process and its threads")
        head = next(line for line in text.splitlines() if re.match(r"\s*PID\b", line)).split()
        assert head[:5] == ["PID", "USER", "S", "NI", "PRI"], head
        # a few refreshes: each sample's thread rows are read again
        start = uptime(text)
        t.wait(s, lambda x: (uptime(x) or 0) >= start + 2, "two seconds of refreshes")
        text = t.wait(s, lambda x: len(rows(x)) == want, "the rows again")
        for r in rows(text):
            assert r[2] in ("R", "S", "D") and r[3] == str(BASE_NICE) and r[4] == str(20 + BASE_NICE), \
                f"no state, nice or priority (started at nice {BASE_NICE}): {r}\n{text}"
        t.quit(s)
    finally:
        w.stop()


# ---- the selection, tags and F9 follow their task as rows re-sort ----

# busy while the control file names it, else idle: the test makes the two
# swap places in the CPU order when it chooses
SEESAW = textwrap.dedent("""
    import ctypes, sys, time
    ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)
    me, ctl = sys.argv[2], sys.argv[3]
    while True:
        with open(ctl) as f:
            busy = f.read().strip() == me
        end = time.monotonic() + 0.05
        while busy and time.monotonic() < end:
            pass
        if not busy:
            time.sleep(0.05)
""")


class Seesaw:
    def __init__(self, home):
        path = os.path.join(home, "seesaw.py")
        self.ctl = os.path.join(home, "seesaw.ctl")
        with open(path, "w") as f:
            f.write(SEESAW)
        self.busy(0)
        self.procs = [subprocess.Popen([sys.executable, path, f"tv-seesaw{i}", str(i), self.ctl])
                      for i in range(2)]
        self.pids = [p.pid for p in self.procs]

    def busy(self, i):
        with open(self.ctl + ".new", "w") as f:
            f.write(str(i))
        os.replace(self.ctl + ".new", self.ctl)

    def busy_pid(self, pid):
        self.busy(self.pids.index(pid))

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()


def wait_order_selected(t, s, pids, want, sel, what, timeout=tmuxlib.WAIT):
    """Waits for a screen, one capture, with the rows in the order want and
    sel selected: under load the CPU order may flicker back for a refresh, and
    a selection left on its row would then look right in a second capture."""
    end = time.monotonic() + timeout
    seen = None
    while time.monotonic() < end:
        lines = line_attrs(t, s)
        order = pid_order("\n".join(line for line, _ in lines), pids)
        head = next((i for i, (line, a) in enumerate(lines) if re.search(r"\bPID\b", line) and "reverse" in a), None)
        chosen = next((first_pid(line) for line, a in lines[head + 1:] if "reverse" in a), None) \
            if head is not None else None
        if order == want:
            seen = chosen
            if chosen == sel:
                return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}: with the rows {want}, {seen} was selected\n{t.text(s)}")


def wait_order(t, s, pids, want, what, timeout=tmuxlib.WAIT):
    return t.wait(s, lambda x: pid_order(x, pids) == want, what, timeout)


def wait_selected(t, s, pid, what, timeout=tmuxlib.WAIT):
    end = time.monotonic() + timeout
    row = None
    while time.monotonic() < end:
        row = selected_row(t, s)
        if first_pid(row) == pid:
            return row
        time.sleep(0.05)
    raise AssertionError(f"selection: timed out waiting for {what}; selected row: {row!r}\n{t.text(s)}")


def test_selection_tags_and_f9_follow_the_task(t, home):
    w = Seesaw(home)
    pids = w.pids
    x, y = pids
    try:
        # a refresh a second: a busy process starved for a whole interval on a
        # loaded machine is rarer than in a short one
        s = t.start(["--no-plugins", "-d", "1", "-s", "cpu", "-p", ",".join(map(str, pids)),
                     "-o", "pid,cpu,comm"], env=ENV, width=W, height=H)
        wait_order(t, s, pids, [x, y], "the busy process on top")
        # Space tags the selected task and moves down to the other (each
        # chosen by its PID too: the order may flicker between keys)
        t.keys(s, *str(x))
        wait_selected(t, s, x, "the busy process")
        t.keys(s, "Space")
        t.keys(s, *str(y))
        wait_selected(t, s, y, "the second process after Space")
        # no key for a while, then the two swap places under the selection
        time.sleep(5.5)
        w.busy_pid(y)
        wait_order_selected(t, s, pids, [y, x], y, "the selection to move up with its task")
        # Space tags the selected task, the one not tagged yet
        t.keys(s, "Space")
        t.wait_for(s, "2 tagged")
        tagged = {first_pid(r) for r in tagged_rows(t, s)} - {None}
        assert tagged == {x, y}, f"both tagged, not one tagged and untagged: {tagged}\n{t.text(s)}"
        # U clears the tags
        t.keys(s, "U")
        t.wait(s, lambda _: not {first_pid(r) for r in tagged_rows(t, s)} - {None}, "no tags")
        # F9 on the selected task after the rows swapped: it signals that task
        t.keys(s, *str(y))
        wait_order_selected(t, s, pids, [y, x], y, "the busy process on top, selected")
        time.sleep(5.5)
        w.busy_pid(x)
        wait_order_selected(t, s, pids, [x, y], y, "the selection to move down with its task")
        t.keys(s, "F9")
        t.wait_for(s, "Send signal:")
        # the rows swap again while the menu is open (it covers them: no
        # waiting for it to show, the targets were taken when it opened)
        w.busy_pid(y)
        time.sleep(2.5)
        t.keys(s, "Enter")
        t.wait(s, lambda z: re.search(rf"Send SIGTERM to (process )?{y} ", z), f"SIGTERM offered for {y}")
        t.keys(s, "y")
        w.procs[1].wait(timeout=60)
        assert w.procs[1].returncode == -signal.SIGTERM, w.procs[1].returncode
        assert w.procs[0].poll() is None, "the other process was signalled"
        t.quit(s)
    finally:
        w.stop()


TESTS = [test_collapsed_subtree_survives_refreshes, test_thread_rows_have_a_state,
         test_selection_tags_and_f9_follow_the_task]


def main():
    return tmuxlib.run_tests("tv-tui-tasks-", TESTS, call=lambda test, t, home: test(t, home))

if __name__ == "__main__":
    sys.exit(main())
