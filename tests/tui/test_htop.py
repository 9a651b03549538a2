# SPDX-License-Identifier: GPL-2.0-or-later
"""What an htop user expects of the interactive screen, in tmux at 80x24 and
200x50: the selection on its task and F, sort keys and their mark, default
columns, the tree with its sums, K, tags and F9, renice and its errors,
search and filter on the current sample, the user menu, setup, the panels,
sideways scrolling, the mouse, resizing, and TERM=dumb.

Runs the real binary in a private tmux server (tmuxlib.py). Exit 77 (skip)
when tmux is missing.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tmuxlib  # noqa: E402
from tmuxlib import (Workload, children_of, header_line, mouse,  # noqa: E402
                     row_pids, selected_row, table_rows, tagged_rows)

# the nice value this test started at (builds and CI runners run tests under nice); its children inherit it
BASE_NICE = os.getpriority(os.PRIO_PROCESS, 0)

SIZES = ((80, 24), (200, 50))


def term_type():
    """tmux's own terminal type, so keys and mouse reports arrive as its
    terminfo says; screen when that is not installed."""
    if shutil.which("infocmp") and subprocess.run(["infocmp", "tmux-256color"], capture_output=True).returncode:
        return "screen"
    return "tmux-256color"


TERM = term_type()
# monochrome: the selected row is the one in reverse video
ENV = {"NO_COLOR": "1", "TERM": TERM}
WORKLOAD = os.environ.get("WORKLOAD", "")


def start(t, args, w, h, env=None, wrap=(), keep_settings=False):
    """taskview in a new session, from default settings unless keep_settings."""
    if not keep_settings:
        shutil.rmtree(os.path.join(t.home, "cfg"), ignore_errors=True)
    s = t.start(args, env={**ENV, **(env or {})}, width=w, height=h, wrap=wrap)
    t.wait_for(s, "PID")
    return s


def type_text(t, s, text):
    """Types text in two halves: the command line of the tmux client sending it
    must not itself match a search or filter while taskview samples."""
    half = len(text) // 2
    t.keys(s, "-l", text[:half])
    t.keys(s, "-l", text[half:])


def sleepers(n, name="sleep"):
    """n sleeping processes, in PID order."""
    procs = [subprocess.Popen([name, "300"], executable="/bin/sleep") for _ in range(n)]
    return sorted(procs, key=lambda p: p.pid)


def stop(procs):
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait()


def first_pid(line):
    m = re.match(r"\s*(\d+)", line or "")
    return int(m.group(1)) if m else None


def wait_selected(t, s, pred, what, timeout=tmuxlib.WAIT):
    end = time.monotonic() + timeout
    row = None
    while time.monotonic() < end:
        row = selected_row(t, s)
        if row is not None and pred(row):
            return row
        time.sleep(0.05)
    raise AssertionError(f"selection: timed out waiting for {what}; selected row: {row!r}\n{t.text(s)}")


def status_line(t, s):
    lines = t.text(s).splitlines()
    return lines[-2] if len(lines) >= 2 else ""


def cpu_of(line, header):
    """The CPU% cell of a table line, by the header's column."""
    m = re.search(r"CPU%", header)
    cell = line[max(0, m.start() - 1):m.end()].strip().rstrip("+")
    return float(cell) if cell not in ("", "-") else None


# ---- the selection stays on its task; F says when it ends ----

def test_selection_and_follow(t, w, h):
    # more than the table holds at 200x50
    ps = sleepers(60, "tv-sel")
    pids = [p.pid for p in ps]
    try:
        s = start(t, ["-d", "0.3", "-s", "pid", "-p", ",".join(map(str, pids))], w, h)
        t.wait(s, lambda x: str(pids[3]) in x, "the sleepers")
        # the top row at start (htop), not a task followed from the first sample
        wait_selected(t, s, lambda r: first_pid(r) == pids[0], "the top row")
        t.keys(s, "Down")
        wait_selected(t, s, lambda r: first_pid(r) == pids[1], "the second row")
        # no key for a while: the list changes, the selection stays on its task
        time.sleep(5.5)
        ps[0].kill()
        ps[0].wait()
        t.wait(s, lambda x: pids[0] not in row_pids(x), "the first sleeper's row to go")
        wait_selected(t, s, lambda r: first_pid(r) == pids[1], "the same task, moved up a row")
        # F shows the task followed; when it ends, the selection keeps its row
        t.keys(s, "F")
        t.wait_for(s, f"[following {pids[1]}")
        time.sleep(5.5)
        ps[1].kill()
        ps[1].wait()
        t.wait(s, lambda x: pids[1] not in row_pids(x), "the second sleeper's row to go")
        t.wait_for(s, f"{pids[1]} is no longer shown: not following")
        wait_selected(t, s, lambda r: first_pid(r) == pids[2], "the same row, now the next task")
        # shrink, scroll down a little, grow: the first rows come back into view
        t.cmd("resize-window", "-t", s, "-x", str(w), "-y", "10")
        t.keys(s, "Home", "Down", "Down", "Down", "Down", "Down")
        wait_selected(t, s, lambda r: first_pid(r) == pids[7], "the sixth row")
        t.wait(s, lambda x: pids[2] not in row_pids(x), "the top row scrolled away")
        t.cmd("resize-window", "-t", s, "-x", str(w), "-y", str(h))
        t.wait(s, lambda x: pids[2] in row_pids(x), "the top row back")
        # digits jump to a PID
        t.keys(s, "-l", str(pids[3]))
        wait_selected(t, s, lambda r: first_pid(r) == pids[3], "the PID typed")
        t.quit(s)
    finally:
        stop(ps)


# ---- default columns, sort keys and mark, K, sideways, key bar, mouse ----

def test_columns_sort_keys_mouse(t, w, h):
    s = start(t, ["-d", "0.5"], w, h)
    text = t.wait_for(s, "CPU%\u25bc")
    head = header_line(text)
    # COMMAND keeps at least 15 columns; wider screens show more columns
    assert "COMMAND" in head and w - head.index("COMMAND") >= 15, head
    assert ("TIME" in head and "NI" in head) == (w >= 140), head
    for key, mark in (("N", "PID\u25b2"), ("N", "PID\u25bc"), ("P", "CPU%\u25bc"), ("M", "RES\u25bc"),
                      ("I", "RES\u25b2")):
        t.keys(s, key)
        t.wait(s, lambda x: mark in header_line(x), f"{key}: {mark}")
    t.keys(s, "T")
    if w >= 140:
        t.wait(s, lambda x: "TIME\u25bc" in header_line(x), "T: TIME")
    else:
        t.wait(s, lambda x: "\u25bc" not in header_line(x) and "\u25b2" not in header_line(x),
               "T: the sort column is not shown")
    # a click on a header sorts by it; again inverts
    head = header_line(t.text(s))
    x = head.index("PID")
    y = t.text(s).splitlines().index(head)
    mouse(t, s, x, y)
    t.wait(s, lambda x: "PID\u25b2" in header_line(x), "click: PID")
    mouse(t, s, x, y)
    t.wait(s, lambda x: "PID\u25bc" in header_line(x), "click again: inverted")
    t.keys(s, "N")
    t.wait(s, lambda x: "PID\u25b2" in header_line(x), "N")
    # a click selects a row; the wheel moves the selection. Processes come and go on a busy
    # machine (PIDs wrap, a new one can sort anywhere): a refresh between the look and the
    # click moves the rows, so a click that met other rows is tried again
    for attempt in range(8):
        rows = table_rows(t.text(s))
        mouse(t, s, 3, y + 3)
        got = wait_selected(t, s, lambda r: r.split()[:1] in ([x.split()[:1] for x in table_rows(t.text(s))[1:4]]),
                            "a row near the clicked one")
        if got.split()[:1] == rows[2].split()[:1]:
            break
    else:
        raise AssertionError(f"a click never selected the row under it: {got!r}, {rows[2]!r}")
    clicked = first_pid(got)

    def three_below(r):
        pids = [first_pid(x) for x in table_rows(t.text(s))]
        return clicked in pids and first_pid(r) in pids and pids.index(first_pid(r)) - pids.index(clicked) == 3
    # the wheel: three rows down from the selection. A row that ends or starts between the
    # clicked one and the third below it (a compiler beside the suite) moves the rows under
    # the selection: the selection is clicked again and the wheel tried again
    for attempt in range(8):
        mouse(t, s, 3, y + 3, button=65)
        try:
            wait_selected(t, s, three_below, "three rows down", timeout=5)
            break
        except AssertionError:
            if attempt == 7:
                raise
        mouse(t, s, 3, y + 3)
        clicked = first_pid(wait_selected(t, s, lambda r: True, "a row clicked again"))
    # the key bar: F5 is the tree
    bar = t.text(s).splitlines()[-1]
    mouse(t, s, bar.index("F5") + 2, h - 1)
    t.wait_for(s, "process tree")
    t.keys(s, "t")
    # kernel threads are hidden at start; K shows them
    t.keys(s, "\\")
    type_text(t, s, "kthreadd")
    t.wait_for(s, "not found")
    t.keys(s, "Enter")
    t.wait_for(s, "no process matches")
    t.keys(s, "K")
    t.wait(s, lambda x: "[kthreadd]" in x, "K: kernel threads")
    t.keys(s, "Escape", "K")
    t.wait_for(s, "kernel threads hidden")
    # sideways: the header moves left by one step, and back
    def head_at(x):
        return x.splitlines()[y]
    before = head_at(t.text(s))
    t.keys(s, "}")
    t.wait(s, lambda x: head_at(x).startswith(before[8:40]), "scrolled right")
    t.keys(s, "S-Left" if TERM == "tmux-256color" else "{")
    t.wait(s, lambda x: head_at(x).startswith(before[:20]), "scrolled back")
    t.keys(s, "$")
    t.wait(s, lambda x: not head_at(x).startswith(before[:20]), "scrolled to the end")
    t.keys(s, "^")
    t.wait(s, lambda x: head_at(x).startswith(before[:20]), "back to the start")
    assert t.cmd("display", "-p", "-t", s, "#{mouse_any_flag}").strip() == "1", "mouse reporting is on"
    t.quit(s)
    # --no-mouse and mouse=0 leave the mouse to the terminal
    s = start(t, ["--no-mouse"], w, h)
    assert t.cmd("display", "-p", "-t", s, "#{mouse_any_flag}").strip() == "0", "--no-mouse"
    t.quit(s)
    cfg = os.path.join(t.home, "cfg", "taskview")
    os.makedirs(cfg, exist_ok=True)
    rc = os.path.join(cfg, "taskviewrc")
    with open(rc, "w") as f:
        f.write("mouse=0\n")
    try:
        s = start(t, [], w, h, keep_settings=True)
        assert t.cmd("display", "-p", "-t", s, "#{mouse_any_flag}").strip() == "0", "mouse=0"
        t.quit(s)
    finally:
        os.unlink(rc)


# ---- the tree: children under parents, threads folded, a collapsed subtree's sums ----

def test_tree(t, w, h):
    if not (WORKLOAD and os.access(WORKLOAD, os.X_OK)):
        print("     (tv-workload not built: tree test skipped)")
        return
    # a parent with a busy child and a child with two threads
    parent = subprocess.Popen(["sh", "-c", f"{WORKLOAD} --sleepers 1 --name tv-treekid --seconds 120 & "
                                            "sh -c 'while :; do :; done' & wait"], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(children_of(parent.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        kids = children_of(parent.pid)
        assert len(kids) == 2, kids
        ids = ",".join(map(str, [parent.pid, *kids]))
        s = start(t, ["-d", "0.5", "-p", ids, "-o", "pid,cpu,threads,comm"], w, h)
        t.wait_for(s, "tv-treekid")
        t.keys(s, "F5")
        text = t.wait(s, lambda x: "\u2514\u2500" in x and "\u251c\u2500" in x, "tree glyphs")
        rows = table_rows(text)
        assert rows[0].split()[0] == str(parent.pid), rows
        # the workload's threads are still folded under it
        assert re.search(r"\u2500\+ tv-treekid", text), text
        assert "sleeper-1" not in text, text
        head = header_line(text)
        # on a busy machine the spinner gets what share it can: busy and idle by comparison, in one sample
        t.wait(s, lambda x: (cpu_of(table_rows(x)[0], head) or 0) <= 0.5 and
               any((cpu_of(r, head) or 0) > 1.0 for r in table_rows(x)), "a busy child, an idle parent")
        # a click on the parent's fold mark collapses it: its row carries the subtree's sum
        lines = text.splitlines()
        hy = lines.index(head)
        name_x = head.index("NAME")
        mouse(t, s, name_x, hy + 1)
        text = t.wait(s, lambda x: "tv-treekid" not in x, "the subtree collapsed")
        assert re.search(rf"^\s*{parent.pid}\s.*\+ sh", table_rows(text)[0]), text
        t.wait(s, lambda x: (cpu_of(table_rows(x)[0], head) or 0) > 1.0, "the sum of the subtree")
        # + opens it again; on the workload, + unfolds its threads
        t.keys(s, "+")
        t.wait_for(s, "tv-treekid")
        row = next(i for i, r in enumerate(table_rows(t.text(s))) if "tv-treekid" in r)
        # its "+" (a child: two columns in) unfolds its threads
        mouse(t, s, name_x + 2, hy + 1 + row)
        t.wait(s, lambda x: "sleeper-1" in x and "- tv-treekid" in x, "its threads")
        wait_selected(t, s, lambda r: "tv-treekid" in r, "the workload")
        # c tags a process and its descendants; U untags
        t.keys(s, "Home", "c")
        t.wait_for(s, "3 processes tagged")
        t.wait_for(s, "3 tagged")
        t.keys(s, "U")
        t.wait_gone(s, "3 tagged")
        # the status line names the view in force
        t.wait_for(s, "[tree: t leaves]")
        t.quit(s)
    finally:
        for k in children_of(parent.pid):
            try:
                os.kill(k, signal.SIGKILL)
            except ProcessLookupError:
                pass
        parent.kill()
        parent.wait()


# ---- search and filter on the current sample, the user menu, Esc ----

def test_search_filter_user(t, w, h):
    # thread names of its own: other tests' workloads, running at the same
    # time, have sleeper-1 and sleeper-2 threads too
    wl = Workload("--ping", "--sleepers", "2", "--sleeper-name", "tvsrchnap", "--name", "tv-srch")
    other = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "sleep", "300"])
    try:
        s = start(t, ["-d", "0.5"], w, h)
        # the workload is in the sample, though on a busy machine its row may be below the screen
        t.wait(s, lambda x: row_pids(x), "the table")
        # a thread name inside a folded process: found, unfolded on Enter
        end = time.monotonic() + 60
        while True:
            t.keys(s, "/")
            type_text(t, s, "tvsrchnap-2")
            text = t.wait(s, lambda x: "in thread tvsrchnap-2" in x or "not found" in x, "the search's answer")
            if "in thread tvsrchnap-2" in text or time.monotonic() > end:
                break
            t.keys(s, "Escape")  # the first sample may not have had it yet
            time.sleep(0.5)
        t.wait_for(s, "in thread tvsrchnap-2")
        t.keys(s, "Enter")
        wait_selected(t, s, lambda r: "tvsrchnap-2" in r, "the thread row")
        t.wait_for(s, "Search: tvsrchnap-2 (F3 next)")
        # nothing matches: said at once
        t.keys(s, "/")
        type_text(t, s, "no-such-name-xyz")
        t.wait_for(s, "not found")
        t.keys(s, "Escape")
        t.keys(s, "/")
        type_text(t, s, "pingB")
        t.keys(s, "Enter")
        t.wait_for(s, "Search: pingB (F3 next)")
        # frozen: no sample is taken, the filter still works on the one shown
        t.keys(s, "z")
        t.wait_for(s, "[frozen")
        t.keys(s, "\\")
        line = t.wait(s, lambda x: "Filter: _" in x, "the filter prompt")
        prompt = next(l for l in line.splitlines() if "Filter: _" in l)
        assert "F3 next" not in prompt, f"stale text behind the prompt: {prompt!r}"
        type_text(t, s, "tv-srch")
        t.wait(s, lambda x: [r.split()[0] for r in table_rows(x) if r.strip() and not re.match(r"\s*\d+ .*[\u251c\u2514]", r)]
               == [str(wl.pid)], "filtered")
        t.keys(s, "Enter")
        t.wait_for(s, "Filter: tv-srch (Esc clears)")
        # the user menu lists every user of the sample, not only those shown
        t.keys(s, "u")
        text = t.wait_for(s, "Show processes of:")
        assert "nobody" in text, text
        type_text(t, s, "nobody")
        t.keys(s, "Enter")
        t.wait_for(s, "User: nobody")
        t.wait_for(s, "no process matches")
        # Esc clears the filter and the user
        t.keys(s, "Escape")
        t.wait(s, lambda x: "User:" not in x and "Filter:" not in x and len(table_rows(x)) > 3, "cleared")
        t.keys(s, "z")
        t.quit(s)
    finally:
        wl.stop()
        other.kill()
        other.wait()


# ---- tags and F9, a signal from a thread row, renice and its errors ----

def test_kill_and_renice(t, w, h):
    victims = sleepers(2, "tv-victim")
    wl = Workload("--sleepers", "1", "--name", "tv-thr")
    try:
        ids = ",".join(str(p) for p in [victims[0].pid, victims[1].pid, wl.pid])
        s = start(t, ["-d", "0.5", "-s", "pid", "-p", ids, "-o", "pid,nice,comm"], w, h)
        t.wait_for(s, "tv-thr")
        # Space tags and moves down; F9 signals every tagged task
        t.keys(s, "Space", "Space")
        t.wait_for(s, "2 tagged")
        tagged = tagged_rows(t, s)
        assert [first_pid(r) for r in tagged] == [victims[0].pid, victims[1].pid], tagged
        t.keys(s, "F9")
        t.wait_for(s, "Send signal to 2 tagged tasks:")
        t.keys(s, "Enter")
        t.wait_for(s, f"Send SIGTERM to 2 tagged tasks: {victims[0].pid} (sleep), {victims[1].pid} (sleep)?")
        t.keys(s, "y")
        for v in victims:
            v.wait(timeout=60)
            assert v.returncode == -signal.SIGTERM, v.returncode
        t.wait_for(s, "sent SIGTERM to 2 tasks")
        # renice: every thread of the process
        t.wait(s, lambda x: len(table_rows(x)) >= 1 and "tv-thr" in table_rows(x)[0], "only the workload left")
        t.keys(s, "]")
        t.wait_for(s, f"{wl.pid} (tv-thr) now has nice {BASE_NICE - 1}")
        for tid in os.listdir(f"/proc/{wl.pid}/task"):
            with open(f"/proc/{wl.pid}/task/{tid}/stat") as f:
                assert int(f.read().rsplit(")", 1)[1].split()[16]) == BASE_NICE - 1, f"thread {tid} reniced"
        t.keys(s, "[", "[")
        t.wait_for(s, f"now has nice {BASE_NICE + 1}")
        # from a thread row: what the default action does, and either target
        t.keys(s, "Enter")
        t.wait_for(s, "sleeper-1")
        t.keys(s, "End", "F9")
        t.wait_for(s, "Send signal:")
        t.keys(s, "Enter")
        text = t.wait_for(s, "default action ends the whole")
        assert "t: this thread only (tgkill)" in text and "p: the whole process (kill)" in text, text
        t.keys(s, "Escape")
        t.wait_gone(s, "default action ends the whole")
        assert wl.proc.poll() is None, "Esc sends nothing"
        t.keys(s, "F9", "Enter")
        t.wait_for(s, "default action ends the whole")
        t.keys(s, "t")
        wl.proc.wait(timeout=60)
        assert wl.proc.returncode == -signal.SIGTERM, "SIGTERM to one thread ends the process, as said"
        t.quit(s)
    finally:
        stop(victims)
        wl.stop()
    # without privileges: clear errors
    mine = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "sleep", "300"])
    root = subprocess.Popen(["tv-rootsleep", "300"], executable="/bin/sleep")
    try:
        time.sleep(0.1)
        ids = f"{root.pid},{mine.pid}"
        s = start(t, ["-d", "0.5", "-s", "pid", "-p", ids], w, h,
                  wrap=("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"))
        t.wait_for(s, "tv-rootsleep")
        first_is_root = root.pid < mine.pid
        # someone else's process: not even a higher nice value
        t.keys(s, "Home" if first_is_root else "End", "[")
        t.wait_for(s, "belongs to another user")
        # one's own: a lower nice value needs a privilege
        t.keys(s, "End" if first_is_root else "Home", "]")
        t.wait_for(s, "needs CAP_SYS_NICE")
        t.keys(s, "q")
        t.wait_exit(s)
    finally:
        stop([mine, root])


# ---- panels, setup in place, one thread, TERM=dumb ----

def test_panels_setup(t, w, h):
    long_arg = "x" * 150
    p = subprocess.Popen(["sh", "-c", "sleep 300; :", "tv-longcmd", long_arg])
    try:
        s = start(t, ["-d", "0.5", "-p", str(p.pid)], w, h)
        t.wait_for(s, "sh -c sleep 300")
        # w: the whole command line, wrapped
        t.keys(s, "w")
        text = t.wait_for(s, "Command line of process")
        assert text.count("x") >= 150, text
        t.keys(s, "w")
        t.wait_gone(s, "Command line of process")
        # i: the detail panel holds the whole command line, below the figures (and above the
        # address space, which comes in once read): found scrolling up from the end
        t.keys(s, "i")
        t.wait_for(s, "CPU delay")
        t.keys(s, "End")
        def lines_shown(x):  # "lines 40-59 of 59" where the panel scrolls
            m = re.search(r"lines (\d+)-(\d+) of (\d+)", x)
            return m and m.groups()
        text = t.wait(s, lambda x: "tv-longcmd" in x or (lines_shown(x) and lines_shown(x)[1] == lines_shown(x)[2]),
                      "the panel's end")
        while "tv-longcmd" not in text and lines_shown(text) and lines_shown(text)[0] != "1":
            where = lines_shown(text)
            t.keys(s, "Up")
            text = t.wait(s, lambda x: "tv-longcmd" in x or lines_shown(x) != where, "a line up")
        assert "tv-longcmd" in text, text
        t.keys(s, "Escape")
        t.wait_gone(s, "CPU delay")
        # H: a single thread is not repeated as a thread row
        t.keys(s, "H")
        time.sleep(1.2)
        rows = [r for r in table_rows(t.text(s)) if r.strip()]
        assert len(rows) == 1, rows
        t.keys(s, "H")
        # setup: a toggled column stays on its line, toggled back in place
        t.keys(s, "F2")
        text = t.wait_for(s, "Columns (shown first")
        lines = text.splitlines()
        at = next(i for i, l in enumerate(lines) if "[x] USER" in l)
        t.keys(s, "Down", "Space")
        text = t.wait(s, lambda x: "[ ] USER" in x, "hidden")
        assert "[ ] USER" in text.splitlines()[at], text
        t.keys(s, "Space")
        text = t.wait(s, lambda x: "[x] USER" in x, "shown again")
        assert "[x] USER" in text.splitlines()[at], text
        t.keys(s, "Escape")
        t.wait_gone(s, "Columns (shown first")
        t.quit(s)
    finally:
        for k in children_of(p.pid):
            os.kill(k, signal.SIGKILL)
        p.kill()
        p.wait()
    s = t.start([], env={"TERM": "dumb"}, width=w, height=h)
    rc, text = t.wait_exit(s)
    assert rc == 1 and "cannot position the cursor" in text, text
    t.cmd("kill-session", "-t", s)


TESTS = [test_selection_and_follow, test_columns_sort_keys_mouse, test_tree, test_search_filter_user,
         test_kill_and_renice, test_panels_setup]


def main():
    # TV_TEST_ONLY=name part, TV_TEST_SIZES=80x24,...: a part of the suite
    only = os.environ.get("TV_TEST_ONLY")
    sizes = [tuple(map(int, z.split("x"))) for z in os.environ.get("TV_TEST_SIZES", "").split(",") if z] or SIZES
    tests = [x for x in TESTS if not only or only in x.__name__]
    return tmuxlib.run_tests("tv-htop-", tmuxlib.sized(tests, sizes), public=True)


if __name__ == "__main__":
    sys.exit(main())
