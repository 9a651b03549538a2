# SPDX-License-Identifier: GPL-2.0-or-later
"""Drives the real taskview binary in tmux: keys in, screen text out.

Uses a private tmux server (its own socket, no user config), a fixed window
size, and HOME/XDG_CONFIG_HOME in a temporary directory. Exit 77 (skip) when
tmux is missing. Python 3 standard library only.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tmuxlib  # noqa: E402
from tmuxlib import Workload, has_colour, table_rows  # noqa: E402

def test_fold_unfold(t):
    w = Workload("--ping", "--sleepers", "2", "--name", "tv-fold")
    try:
        s = t.start(["-p", str(w.pid), "-d", "0.5", "-o", "pid,state,comm,command"])
        text = t.wait_for(s, "tv-fold")
        assert "pingA" not in text, "processes start folded"
        # THR is not shown, so the marker carries the thread count
        assert re.search(r"\+\d+ tv-fold", text), "a folded process shows +N"
        t.keys(s, "Enter")
        text = t.wait(s, lambda x: all(n in x for n in ("pingA", "pingB", "sleeper-1")), "threads")
        assert "\u251c\u2500" in text or "\u2514\u2500" in text, "tree glyphs on a UTF-8 locale"
        # Left on a thread row folds its process and selects it
        t.keys(s, "Down", "Left")
        t.wait_gone(s, "pingA")
        t.keys(s, "H")
        t.wait_for(s, "pingB")
        t.keys(s, "H")
        t.wait_gone(s, "pingB")
        t.quit(s)
        # -H starts unfolded; ASCII tree when the locale is not UTF-8
        s = t.start(["-p", str(w.pid), "-H", "-o", "pid,comm"], env={"LANG": "C", "LC_ALL": "C"})
        text = t.wait_for(s, "sleeper-2" if "sleeper-2" in w.threads else "sleeper-1")
        assert "|- " in text or "`- " in text, text
        t.quit(s)
    finally:
        w.stop()


def first_field(text):
    """The first field of the first table row, or None."""
    rows = table_rows(text)
    fields = rows[0].split() if rows else []
    return fields[0] if fields else None


def test_sort_menu(t):
    s = t.start(["-d", "0.5"])
    t.wait_for(s, "PID")
    t.keys(s, "F6")
    t.wait_for(s, "Sort by")
    t.keys(s, "Home", "Enter")
    t.wait_gone(s, "Sort by")
    # sorted by PID: init comes first
    # a capture can come while a row is being drawn: an empty first row is no answer yet
    t.wait(s, lambda x: first_field(x) == "1", "PID 1 first")
    t.keys(s, "I")
    t.wait(s, lambda x: first_field(x) not in (None, "1"), "inverted order")
    t.keys(s, ">")
    t.wait_for(s, "Sort by")
    t.keys(s, "Escape")
    t.wait_gone(s, "Sort by")
    t.quit(s)


def test_filter_search_kill(t):
    victim = subprocess.Popen(["tv-victim-proc", "300"], executable="/bin/sleep")
    w = Workload("--sleepers", "1", "--name", "tv-other")
    try:
        # other processes come and go: watch just these two
        s = t.start(["-d", "0.5", "-p", f"{victim.pid},{w.pid}", "-o", "pid,user,cpu,comm,command"])
        t.wait_for(s, "tv-other")
        # filter: only matching processes, kept while browsing, Esc clears
        t.keys(s, "\\")
        t.keys(s, "-l", "tv-victim")
        t.wait(s, lambda x: "tv-victim-proc" in x and "tv-other" not in x, "filtered list")
        t.keys(s, "Enter", "Down", "Up")
        text = t.wait_for(s, "Filter: tv-victim")
        assert "tv-other" not in text
        t.keys(s, "Escape")
        t.wait_for(s, "tv-other")
        # search jumps to the match; the kill dialog then names the selected task
        t.keys(s, "/")
        t.keys(s, "-l", "tv-victim")
        t.keys(s, "Enter")
        t.keys(s, "F9")
        t.wait_for(s, "Send signal:")
        t.keys(s, "Enter")
        text = t.wait_for(s, f"Send SIGTERM to process {victim.pid}")
        t.keys(s, "y")
        deadline = time.monotonic() + 60
        while victim.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert victim.poll() == -signal.SIGTERM, "the helper got SIGTERM"
        t.wait_gone(s, "tv-victim-proc")
        t.quit(s)
    finally:
        if victim.poll() is None:
            victim.kill()
        victim.wait()
        w.stop()


def test_help(t):
    s = t.start([])
    t.wait_for(s, "PID")
    t.keys(s, "F1")
    text = t.wait_for(s, "Keys:")
    assert "vm_pte" in text or "Page-table" in text or "choose the sort column" in text
    assert re.search(r"(?m)^ *\\, F4 ", text), "the filter key shows as one backslash"
    t.keys(s, "PageDown")
    t.wait_for(s, "Page-table size")
    t.keys(s, "x")
    t.wait_gone(s, "Keys:")
    t.keys(s, "?")
    t.wait_for(s, "Keys:")
    t.keys(s, "Escape")
    t.wait_for(s, "F10Quit")
    t.quit(s)


def test_detail_panel(t):
    w = Workload("--ping", "--sleepers", "1", "--name", "tv-detail")
    try:
        # the shown columns need neither status nor taskstats: the panel reads them itself
        s = t.start(["-p", str(w.pid), "-d", "0.5", "-o", "pid,state,comm"], height=50)
        t.wait_for(s, "tv-detail")
        t.keys(s, "i")
        text = t.wait(s, lambda x: "VmPTE" in x and "CPU delay" in x, "the detail panel")
        assert f"Process {w.pid}: tv-detail" in text, text
        assert re.search(r"VmPTE\) +\S+ \(\d+ KiB\)", text), "VmPTE is read while the panel is open"
        # it follows the samples: the interval's figures come with the next one
        t.wait_for(s, "Delays (interval")
        t.keys(s, "Escape")
        text = t.wait_gone(s, "VmPTE")
        assert "tv-detail" in text and "F10Quit" in text and re.search(r"(?m)^ +PID[ \u25b2\u25bc]", text), text
        # a thread row; q and i close the panel without quitting
        t.keys(s, "Enter")
        t.wait_for(s, "pingA")
        t.keys(s, "Down", "i")
        t.wait(s, lambda x: re.search(rf"Thread \d+ of process {w.pid}:", x), "the thread's panel")
        t.keys(s, "q")
        t.wait_gone(s, "of process")
        assert t.alive(s), "q closes the panel, not taskview"
        # scrolls when taller than the screen, and lives through tiny ones
        t.keys(s, "i")
        t.wait_for(s, "CPU delay")
        t.cmd("resize-window", "-t", s, "-x", "80", "-y", "15")
        t.wait_for(s, "lines 1-")
        t.keys(s, "End")
        t.wait_for(s, "Involuntary")
        t.keys(s, "Home")
        t.wait_for(s, "Process ID")
        for (x, y) in ((10, 3), (1, 1), (3, 2), (40, 6)):
            t.cmd("resize-window", "-t", s, "-x", str(x), "-y", str(y))
            time.sleep(0.4)
            assert t.alive(s), f"taskview died at {x}x{y}: {t.text(s)}"
        t.cmd("resize-window", "-t", s, "-x", "120", "-y", "50")
        t.wait_for(s, "CPU delay")
        t.keys(s, "i")
        t.wait_gone(s, "CPU delay")
        t.wait_for(s, "F10Quit")
        t.quit(s)
    finally:
        w.stop()


def test_stack_panel(t):
    """The panel of a process says in words what its threads' stacks reserve and use."""
    if os.geteuid() != 0:
        print("SKIP test_stack_panel: reading another user's thread stacks needs ptrace permission")
        return
    w = Workload("--stacks", "1024", "--idle", "20", "--name", "tv-stacks")
    try:
        s = t.start(["-p", str(w.pid), "-d", "0.5", "-o", "pid,stack_size,stack_rss,comm"], height=50)
        t.wait_for(s, "tv-stacks")
        t.keys(s, "i")
        # the main thread, stk-1024 and 20 idle ones: 21 stacks of 8 MiB and the main [stack]
        text = t.wait(s, lambda x: "threads reserve" in x, "the stack sentence")
        m = re.search(r"22 threads reserve (\d+) MiB of stack and use ([\d.]+) MiB of it\.", text)
        assert m, text
        assert 168 <= int(m.group(1)) <= 170, m.group(0)
        assert 1.0 <= float(m.group(2)) <= 2.0, m.group(0)
        assert re.search(r"Thread stacks reserved +\S+ \(\d+ KiB\)", text), text
        t.keys(s, "Escape")
        t.wait_gone(s, "threads reserve")
        t.quit(s)
    finally:
        w.stop()


def smaps_of(pid):
    """Each mapping of /proc/PID/smaps: (perms, inode, name, Size kB, Rss kB), read here."""
    maps, cur = [], None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            head = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                lo, hi = (int(x, 16) for x in head[0].split("-"))
                cur = {"lo": lo, "hi": hi, "perms": head[1], "inode": int(head[4]), "name": " ".join(head[5:])}
                maps.append(cur)
            elif head[0] in ("Size:", "Rss:"):
                cur[head[0][:-1]] = int(head[1])
    return [m for m in maps if m["name"] != "[vsyscall]"]


def stack_pointers(pid):
    """Each thread's stack pointer (task/TID/syscall's second-to-last field), or None while it runs."""
    sps = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/syscall") as f:
            fields = f.read().split()
        sps.append(None if fields[0] == "running" else int(fields[-2], 16))
    return sps


def panel_kib(text, label):
    m = re.search(re.escape(label) + r" +\S+ \((\d+) KiB\)", text)
    assert m, f"no {label!r} row in:\n{text}"
    return int(m.group(1))


def test_anatomy_panel(t):
    """The panel's address space against smaps, read here: every thread's stack
    of the workload's known sizes found, the total mapped, what is resident."""
    if os.geteuid() != 0:
        print("SKIP test_anatomy_panel: reading another user's maps and pagemap needs ptrace permission")
        return
    import resource
    soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
    if soft == resource.RLIM_INFINITY:
        print("SKIP test_anatomy_panel: RLIMIT_STACK is unlimited: glibc's default stack size is then its own")
        return
    default, small, idle, depths = soft // 1024, 256, 200, (64, 1024, 4096)
    w = Workload("--stacks", ",".join(map(str, depths)) + ",0", "--small-stack", str(small), "--idle", str(idle),
                 "--name", "tv-anat")
    try:
        # no stack column: the panel reads the mappings itself
        s = t.start(["-p", str(w.pid), "-d", "0.5", "-o", "pid,comm"], height=60)
        t.wait_for(s, "tv-anat")
        t.keys(s, "i")
        t.wait_for(s, "Process ID")
        t.keys(s, "End")
        t.wait_for(s, "A fork copies")
        nstacks = 1 + len(depths) + 1 + 1 + idle

        def reading(text):
            """The panel's figures and smaps', read now: (panel, smaps) by name."""
            smaps = smaps_of(w.pid)
            # the stacks: the mappings that hold the threads' stack pointers, found here as the stack
            # columns find them (the panel tells them apart by their guard pages)
            sps = stack_pointers(w.pid)
            stacks = [m for m in smaps if m["name"] == "[stack]" or
                      any(sp is not None and m["lo"] <= sp < m["hi"] for sp in sps)]
            assert None not in sps and all(m["Size"] in (default, small) for m in stacks if m["name"] != "[stack]"), \
                f"a thread running, or on a stack not the workload's: {sps}"
            anon = [m for m in smaps if m["inode"] == 0 and m["perms"].endswith("p") and m["perms"][:3] != "---" and
                    (not m["name"] or m["name"] in ("[heap]", "[stack]") or m["name"].startswith("[anon:"))]
            lines = text.splitlines()
            at = next(i for i, x in enumerate(lines) if f"stacks ({nstacks})" in x)
            kinds = [panel_kib(lines[i + 1], "resident") for i, x in enumerate(lines)
                     if re.search(r"│ +(stacks \(\d+\)|heap and malloc arenas \(\d+\)|other anonymous memory) {2,}"
                                  r"\S+ \(\d+ KiB\)", x)]
            panel = {"mapped": panel_kib(text, "Mapped (maps)"), "stacks": panel_kib(text, f"stacks ({nstacks})"),
                     "stacks resident": panel_kib(lines[at + 1], "resident"), "anonymous resident": sum(kinds),
                     "guards": panel_kib(text, "guard pages and reservations"), "count": len(stacks)}
            want = {"mapped": sum(m["Size"] for m in smaps), "stacks": sum(m["Size"] for m in stacks),
                    "stacks resident": sum(m["Rss"] for m in stacks), "anonymous resident": sum(m["Rss"] for m in anon),
                    "guards": sum(m["Size"] for m in smaps if m["perms"] == "---p" and m["inode"] == 0),
                    "count": nstacks}
            assert len(kinds) == 3, text
            return panel, want

        # the panel follows each sample: it comes to what smaps says (the same idle threads, read a moment apart)
        try:
            text = t.wait(s, lambda x: "A fork copies" in x and (lambda r: r[0] == r[1])(reading(x)),
                          "the panel's figures to match smaps")
        except AssertionError:
            text = t.text(s)
            panel, want = reading(text)
            raise AssertionError(f"panel {panel}, smaps {want}\n{text}")
        panel, _ = reading(text)
        assert sum(depths) + small // 2 <= panel["stacks resident"], panel
        # the words first
        joined = " ".join(x.strip("│ ") for x in text.splitlines())
        m = re.search(r"Of [\d.]+ [KMG]iB mapped, (\d+) stacks reserve ([\d.]+) GiB and use ([\d.]+) MiB of them", joined)
        assert m and int(m.group(1)) == nstacks, text
        # one page table for each used stack at least
        m = re.search(r"Page tables take ([\d.]+ [KM]iB) \(VmPTE\)\. A fork copies those that map anonymous "
                      r"memory, about ([\d.]+) ([KM])iB here", joined)
        assert m and 4 * nstacks <= float(m.group(2)) * (1024 if m.group(3) == "M" else 1), text
        t.keys(s, "Escape")
        t.wait_gone(s, "Mapped (maps)")
        t.quit(s)
    finally:
        w.stop()


def test_setup_and_settings(t):
    s = t.start([])
    t.wait_for(s, "USER")
    t.keys(s, "F2")
    t.wait_for(s, "Columns (shown first")
    # pid is first, user second: hide user
    t.keys(s, "Down", "Space", "Escape")
    t.wait_gone(s, "Columns (shown first")
    text = t.wait_gone(s, "USER")
    assert "PID" in text
    t.quit(s)
    rc = os.path.join(t.home, "cfg", "taskview", "taskviewrc")
    with open(rc) as f:
        saved = f.read()
    assert "columns=" in saved and "user" not in saved.split("columns=")[1].split("\n")[0], saved
    # the next run starts without USER; -o on the command line wins
    s = t.start([])
    text = t.wait_for(s, "PID")
    assert "USER" not in text
    t.quit(s)
    s = t.start(["-o", "pid,user,command"])
    t.wait_for(s, "USER")
    t.quit(s)
    # a corrupt file: a message, never a crash
    with open(rc, "a") as f:
        f.write("garbage line\ncolumns=pid,no_such_column,command\nfuture_key=1\n")
    s = t.start([])
    t.wait_for(s, "taskviewrc")
    t.wait_for(s, "COMMAND")
    t.quit(s)
    os.unlink(rc)


def test_escape_name(t):
    name = "\x1b[2J\x1b]0;pwn\x07"
    w = Workload("--name", name)
    try:
        # the name as the last column: room for all of its escaped form
        s = t.start(["-p", str(w.pid), "-o", "pid,threads,comm"])
        text = t.wait_for(s, "\\e[2J")
        assert "\\e]0;pwn\\x07" in text, text
        assert "Tasks:" in text and "F10Quit" in text, "the rest of the screen is intact"
        title = t.cmd("display", "-p", "-t", s, "#{pane_title}")
        assert "pwn" not in title, f"the title changed: {title!r}"
        # the column headers are where they belong
        assert re.search(r"(?m)^ +PID +THR NAME *$", text), text
        t.quit(s)
        # the command line carries the same bytes as an argument
        s = t.start(["-p", str(w.pid), "-o", "pid,command"])
        text = t.wait_for(s, "--name \\e[2J")
        assert "Tasks:" in text and "F10Quit" in text
        t.quit(s)
    finally:
        w.stop()


def test_resize(t):
    s = t.start(["-d", "0.3"])
    t.wait_for(s, "Tasks:")
    for (x, y) in ((10, 3), (1, 1), (30, 5), (250, 80), (80, 24)):
        t.cmd("resize-window", "-t", s, "-x", str(x), "-y", str(y))
        time.sleep(0.4)
        assert t.alive(s), f"taskview died at {x}x{y}: {t.text(s)}"
    t.wait_for(s, "Tasks:")
    t.wait_for(s, "F10Quit")
    t.quit(s)


def test_terminal(t):
    # unknown TERM: a clear error and exit 1
    s = t.start([], env={"TERM": "no-such-terminal-xyz"})
    rc, text = t.wait_exit(s)
    assert rc == 1 and "unknown terminal type" in text, text
    # and nothing else: under the sanitizers, no leak report (tests/lsan.supp names ncurses' own)
    assert "Sanitizer" not in text, text
    t.cmd("kill-session", "-t", s)
    for term in ("xterm", "xterm-256color", "vt100", "linux", "screen", "tmux-256color"):
        if shutil.which("infocmp") and subprocess.run(["infocmp", term], capture_output=True).returncode != 0:
            print(f"     (no terminfo for {term})")
            continue
        s = t.start([], env={"TERM": term})
        t.wait_for(s, "PID")
        text = t.quit(s)
        # terminals with an alternate screen get their old screen back
        if term in ("xterm", "xterm-256color", "screen", "tmux-256color"):
            assert "Tasks:" not in text, f"{term}: the screen was not restored"
    # colour by default; NO_COLOR and --no-color: attributes only
    for env, args, want in (({}, [], True), ({"NO_COLOR": "1"}, [], False), ({}, ["--no-color"], False)):
        s = t.start(args, env={"TERM": "xterm-256color", **env})
        t.wait_for(s, "PID")
        time.sleep(0.2)
        assert has_colour(t.text(s, escapes=True)) == want, f"colour with {env} {args}"
        t.quit(s)
    # -n: quits by itself after that many refreshes
    s = t.start(["-n", "2", "-d", "0.2"])
    rc, text = t.wait_exit(s)
    assert rc == 0, text
    t.cmd("kill-session", "-t", s)
    # SIGTERM: terminal restored, dies of the signal
    s = t.start([])
    t.wait_for(s, "PID")
    pid = t.taskview_pid(s)
    os.kill(pid, signal.SIGTERM)
    rc, text = t.wait_exit(s)
    assert rc == 143 and "Tasks:" not in text, text
    t.cmd("kill-session", "-t", s)


TESTS = [test_fold_unfold, test_sort_menu, test_filter_search_kill, test_help, test_detail_panel,
         test_stack_panel, test_anatomy_panel, test_setup_and_settings, test_escape_name, test_resize, test_terminal]


def main():
    try:
        return tmuxlib.run_tests("tv-tui-", TESTS)
    finally:
        try:
            os.unlink(os.path.join(tempfile.gettempdir(), f"tv-standin-{os.getpid()}.py"))
        except FileNotFoundError:
            pass


if __name__ == "__main__":
    sys.exit(main())
