# SPDX-License-Identifier: GPL-2.0-or-later
"""The interactive screen at its edges, in tmux: whatever ends taskview (a
fatal signal, a fault, an assertion, exit() from a library) leaves the
terminal as it found it; a settings file from a newer version keeps what
this version does not know; invisible characters in a name are shown escaped.

Uses test_tui's private tmux server helper. Exit 77 (skip) without tmux.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import tmuxlib  # noqa: E402
from tmuxlib import Workload  # noqa: E402

FAULT_INJECT = os.environ.get("FAULT_INJECT", "")
BUILD_DIR = os.environ.get("BUILD_DIR", "")


def sanitized():
    """Whether taskview was built with a sanitizer, which reports faults itself."""
    try:
        with open(os.path.join(BUILD_DIR, "meson-info", "intro-buildoptions.json")) as f:
            opts = {o["name"]: o["value"] for o in json.load(f)}
    except (OSError, ValueError):
        return False
    return opts.get("b_sanitize", "none") not in ("none", "")


def fault_env(what, san):
    env = {"TERM": "xterm-256color", "LD_PRELOAD": FAULT_INJECT, "TV_FAULT": what}
    if san:
        # the sanitizer runtime need not be the first library here
        env["ASAN_OPTIONS"] = "verify_asan_link_order=0"
    return env


def pane_state(t, s):
    """What the terminal of the session's pane looks like to tmux and to stty."""
    fmt = "#{alternate_on} #{cursor_flag} #{keypad_flag} #{mouse_any_flag} #{pane_tty}"
    alt, cursor, keypad, mouse, tty = t.cmd("display", "-p", "-t", s, fmt).split()
    stty = subprocess.run(["stty", "-F", tty, "-a"], capture_output=True, text=True).stdout.split()
    return {"alternate": alt == "1", "cursor": cursor == "1", "keypad": keypad == "1", "mouse": mouse == "1",
            "echo": "echo" in stty, "icanon": "icanon" in stty}


def check_restored(t, s, what):
    st = pane_state(t, s)
    assert not st["alternate"], f"{what}: still on the alternate screen {st}"
    assert st["cursor"], f"{what}: cursor hidden {st}"
    assert not st["keypad"], f"{what}: keypad mode left on {st}"
    assert not st["mouse"], f"{what}: mouse reporting left on {st}"
    assert st["echo"] and st["icanon"], f"{what}: echo or line mode left off {st}"
    text = t.text(s)
    assert "Tasks:" not in text, f"{what}: the taskview screen is still shown:\n{text}"


def test_open_screen_state(t):
    # the checks below can fail: while taskview runs, each mode is set
    s = t.start(["-d", "0.3"], env={"TERM": "xterm-256color"})
    t.wait_for(s, "PID")
    st = pane_state(t, s)
    assert st["alternate"] and not st["cursor"] and not st["echo"] and not st["icanon"], st
    t.keys(s, "q")
    rc, _ = t.wait_exit(s)
    assert rc == 0, rc
    check_restored(t, s, "q")


def test_fatal_signals_restore(t):
    san = sanitized()
    for sig in (signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGFPE, signal.SIGILL, signal.SIGQUIT,
                signal.SIGUSR1):
        s = t.start(["-d", "0.3"], env={"TERM": "xterm-256color"})
        t.wait_for(s, "PID")
        os.kill(t.taskview_pid(s), sig)
        rc, text = t.wait_exit(s)
        # died of the signal, as the shell sees it (a sanitizer reports the
        # faults it watches and exits with its own status)
        if san and sig in (signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE):
            assert rc != 0, f"{sig.name}: exit status 0"
        else:
            assert rc == 128 + sig, f"{sig.name}: exit status {rc}"
        check_restored(t, s, sig.name)
        t.cmd("kill-session", "-t", s)


def test_faults_inside_restore(t):
    if not FAULT_INJECT or not os.path.exists(FAULT_INJECT):
        print("     (no fault injector built: skipped)")
        return
    san = sanitized()
    cases = (("segv", 128 + signal.SIGSEGV), ("fpe", 128 + signal.SIGFPE), ("abort", 128 + signal.SIGABRT),
             ("assert", 128 + signal.SIGABRT), ("exit", 3))
    for what, want in cases:
        s = t.start(["-d", "0.2"], env=fault_env(what, san))
        try:
            rc, text = t.wait_exit(s)
        except AssertionError as e:
            raise AssertionError(f"{what}: {e}") from None
        # a sanitizer reports a fault and exits with its own status
        if not (san and what in ("segv", "fpe")):
            assert rc == want, f"{what}: exit status {rc}, not {want}:\n{text}"
        else:
            assert rc != 0, f"{what}: exit status 0"
        check_restored(t, s, what)
        if what == "assert":
            assert "Assertion" in text, f"the assertion's message is readable:\n{text}"
        t.cmd("kill-session", "-t", s)
    if san:
        # a report the sanitizer makes of itself, without a signal: it ends the process with
        # _exit; the report reaches the terminal, put back first
        s = t.start(["-d", "0.2"], env=fault_env("double-free", san))
        rc, text = t.wait_exit(s)
        assert rc != 0, "double-free: exit status 0"
        check_restored(t, s, "double-free")
        assert "double-free" in text, f"the sanitizer's report reaches the terminal:\n{text}"
        t.cmd("kill-session", "-t", s)


def test_signal_while_opening(t):
    """Ctrl-C or SIGTERM as the screen opens ends taskview of that signal,
    the terminal put back: curses's own handler, there until taskview's
    came, ended it with status 1 and no word."""
    if not FAULT_INJECT or not os.path.exists(FAULT_INJECT):
        print("     (no fault injector built: skipped)")
        return
    san = sanitized()
    for what, sig in (("sigterm-open", signal.SIGTERM), ("sigint-open", signal.SIGINT)):
        s = t.start(["-d", "0.2"], env=fault_env(what, san))
        rc, text = t.wait_exit(s, timeout=30)
        assert rc == 128 + sig, f"{what}: exit status {rc}, not {128 + sig}:\n{text}"
        check_restored(t, s, what)
        t.cmd("kill-session", "-t", s)


def test_slow_address_space_holds_nothing(t):
    """The detail panel reads a process's memory map off the screen's thread:
    while that read waits (here: each open of a maps file takes 20 s, as a
    process whose map lock a fork loop holds), the panel opens, says the map
    is being read, answers keys, and q ends taskview, the read abandoned."""
    if not FAULT_INJECT or not os.path.exists(FAULT_INJECT):
        print("     (no fault injector built: skipped)")
        return
    w = Workload("--sleepers", "2", "--name", "tv-slowmap")
    try:
        env = fault_env("slow-maps", sanitized())
        # tall enough for the whole panel: no key to scroll (this TERM's keys are not tmux's)
        s = t.start(["-p", str(w.pid), "-d", "0.5", "-o", "pid,comm"], env=env, height=80)
        t.wait_for(s, "tv-slowmap")
        t.keys(s, "i")
        # a read on the screen's thread would hold the panel back until it ends
        t.wait_for(s, "Process ID")
        t.wait_for(s, "Being read")
        t.keys(s, "Escape")
        t.wait_gone(s, "Being read")
        t.keys(s, "q")
        # well before the read ends
        rc, _ = t.wait_exit(s, timeout=15)
        assert rc == 0, f"exit status {rc}"
        check_restored(t, s, "q")
        t.cmd("kill-session", "-t", s)
    finally:
        w.stop()


def test_keys_after_enter_are_the_screens(t):
    """Enter in the filter prompt waits for a sample with names (each sample
    takes 0.8 s here). Keys typed meanwhile are not the filter's: they reach
    the screen after the prompt closes, in order (a PID typed selects it)."""
    if not FAULT_INJECT or not os.path.exists(FAULT_INJECT):
        print("     (no fault injector built: skipped)")
        return
    w = Workload("--sleepers", "1", "--name", "tv-ahead")
    try:
        env = {**fault_env("slow-sample", sanitized()), "NO_COLOR": "1"}  # the selection in reverse video
        s = t.start(["-d", "0.3", "-o", "pid,comm"], env=env)
        t.wait_for(s, "PID")
        t.keys(s, "\\")
        t.keys(s, "-l", "tv-ahead")
        t.keys(s, "Enter")
        t.keys(s, "-l", str(w.pid))
        t.wait_for(s, "Filter: tv-ahead (Esc clears)")
        t.wait(s, lambda x: (tmuxlib.selected_row(t, s) or "").split()[:1] == [str(w.pid)], "the typed PID selected")
        assert f"tv-ahead{w.pid}" not in t.text(s), t.text(s)
        t.keys(s, "q")
        rc, _ = t.wait_exit(s)
        assert rc == 0, f"exit status {rc}"
    finally:
        w.stop()


def test_search_not_lost_to_a_late_refresh(t):
    """A refresh asked for before the search prompt opened carries no thread
    names. When it arrives while the prompt shows a thread found by name
    (here: each sample takes 0.8 s, so one is always on its way), the search
    still holds: "not found" never shows, and Enter selects the thread."""
    if not FAULT_INJECT or not os.path.exists(FAULT_INJECT):
        print("     (no fault injector built: skipped)")
        return
    w = Workload("--sleepers", "2", "--sleeper-name", "tvlatenap", "--name", "tv-late")
    try:
        env = fault_env("slow-sample", sanitized())
        s = t.start(["-p", str(w.pid), "-d", "0.3", "-o", "pid,comm"], env=env)
        t.wait_for(s, "tv-late")
        for last in (False, False, True):
            # found on a sample with names: the first search asks for one
            t.keys(s, "/")
            t.keys(s, "-l", "tvlate")
            t.keys(s, "-l", "nap-2")
            t.wait_for(s, "in thread tvlatenap-2")
            t.keys(s, "Escape")
            t.wait_gone(s, "Search:")
            # the refresh after the one with names is asked for without them;
            # the prompt opens while it is on its way
            time.sleep(1.0)
            t.keys(s, "/")
            t.keys(s, "-l", "tvlate")
            t.keys(s, "-l", "nap-2")
            t.wait(s, lambda x: "tvlatenap-2" in x and "Search:" in x, "the prompt")
            # two refreshes: the one without names and the next
            end = time.monotonic() + 2.0
            while time.monotonic() < end:
                text = t.text(s)
                assert "not found" not in text, f"the search lost its thread to a refresh:\n{text}"
                time.sleep(0.02)
            if not last:
                t.keys(s, "Escape")
                t.wait_gone(s, "Search:")
                continue
            # Enter unfolds the process at the thread
            t.keys(s, "Enter")
            t.wait_for(s, "Search: tvlatenap-2 (F3 next)")
            assert "no match" not in t.text(s), t.text(s)
            t.wait_for(s, "\u2514\u2500 tvlatenap-2")
        t.keys(s, "q")
        rc, _ = t.wait_exit(s)
        assert rc == 0, f"exit status {rc}"
        t.cmd("kill-session", "-t", s)
    finally:
        w.stop()


def test_busy_address_space_keeps_the_refresh(t):
    """Reading a process's maps waits for its memory-map lock, which a process
    that forks or maps often holds: here each read of a maps file takes 0.2 s,
    and the workload's is 80 pages long. The stacks may take half a refresh, at
    least 1 s: by then they are unknown for that refresh, and the maps file is
    read no further, where reading it whole would hold each refresh 16 s."""
    if not FAULT_INJECT or not os.path.exists(FAULT_INJECT):
        print("     (no fault injector built: skipped)")
        return
    w = Workload("--mappings", "6000", "--sleepers", "2", "--name", "tv-busymap")
    args = [tmuxlib.TASKVIEW, "-b", "--format", "json", "-o", "pid,stack_size,stack_rss", "-p", str(w.pid),
            "-d", "0.5", "-n", "3"]
    try:
        # the stacks as read without the fault: known
        r = subprocess.run(args, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        docs = [json.loads(x) for x in r.stdout.splitlines()]
        assert all(d["tasks"][0]["stack_size"] is not None for d in docs), r.stdout
        with tempfile.TemporaryDirectory() as d:
            count = os.path.join(d, "reads")
            env = dict(os.environ, **fault_env("slow-maps-read", sanitized()), TV_FAULT_SLOW_MS="200",
                       TV_FAULT_COUNT=count)
            r = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env)
            assert r.returncode == 0, r.stderr
            docs = [json.loads(x) for x in r.stdout.splitlines()]
            assert len(docs) == 3 and all(d["tasks"][0]["stack_size"] is None for d in docs), r.stdout
            with open(count) as f:
                reads = len(f.read())
        # four samples (the first primes the rates), each with 1 s for its stacks: at most
        # five reads of 0.2 s and the one that passes it; the whole file is 80
        assert 0 < reads <= 4 * 6, f"maps reads: {reads}"
    finally:
        w.stop()


def test_child_leaves_the_screen_alone(t):
    if not FAULT_INJECT or not os.path.exists(FAULT_INJECT):
        print("     (no fault injector built: skipped)")
        return
    # a child forked from the loop (a helper) that exits or crashes must not
    # put the terminal back under the running screen
    san = sanitized()
    for what in ("child-exit", "child-segv"):
        s = t.start(["-d", "0.2"], env=fault_env(what, san))
        t.wait_for(s, "PID")
        time.sleep(1.5)
        st = pane_state(t, s)
        assert t.alive(s), f"{what}: taskview ended"
        assert st["alternate"] and not st["cursor"] and not st["echo"], f"{what}: terminal reset under the screen {st}"
        t.keys(s, "q")
        rc, _ = t.wait_exit(s)
        assert rc == 0, f"{what}: exit status {rc}"
        check_restored(t, s, what)
        t.cmd("kill-session", "-t", s)


def test_newer_settings_kept(t):
    rc = os.path.join(t.home, "cfg", "taskview", "taskviewrc")
    os.makedirs(os.path.dirname(rc), exist_ok=True)
    newer = ("version=3\n"
             "columns=pid,future.col,user,cpu,command\n"
             "sort=future_sort\n"
             "delay=fast\n"
             "future_key=a=b\n")
    with open(rc, "w") as f:
        f.write(newer)
    # reverse the order and hide USER: both are written, nothing else is lost
    s = t.start([])
    t.wait_for(s, "USER")
    t.keys(s, "I")
    t.keys(s, "F2")
    t.wait_for(s, "Columns (shown first")
    t.keys(s, "Down", "Space", "Escape")
    t.wait_gone(s, "Columns (shown first")
    t.wait_gone(s, "USER")
    t.quit(s)
    with open(rc) as f:
        lines = f.read().splitlines()
    for want in ("version=3", "sort=future_sort", "delay=fast", "future_key=a=b", "reverse=1",
                 "columns=pid,future.col,cpu,command"):
        assert want in lines, f"{want!r} not in the saved file:\n" + "\n".join(lines)
    assert not any(line.startswith("version=1") for line in lines), lines
    os.unlink(rc)


def test_large_settings_kept(t):
    # past 256 KiB (where reading once stopped): a setting changed on quit
    # keeps every line the file had, the last one too
    rc = os.path.join(t.home, "cfg", "taskview", "taskviewrc")
    os.makedirs(os.path.dirname(rc), exist_ok=True)
    notes = [f"note_{i:05d}={i:060d}" for i in range(6000)]
    with open(rc, "w") as f:
        f.write("# my notes\nversion=2\n" + "\n".join(notes) + "\nlast_key=end\n")
    assert os.path.getsize(rc) > 400 * 1024
    try:
        s = t.start([])
        t.wait_for(s, "PID")
        t.keys(s, "I")
        t.quit(s)
        with open(rc) as f:
            lines = f.read().splitlines()
        assert "reverse=1" in lines, lines[:5]
        missing = sorted(set(notes + ["last_key=end", "# my notes"]) - set(lines))
        assert not missing, f"{len(missing)} lines lost on save, the first {missing[0][:20]}"
    finally:
        os.unlink(rc)


def test_oversized_settings_not_written(t):
    # past what is read at all, or holding binary data (a NUL byte: 15 MiB of it
    # was once written back as 25 KB): an error at the start, and the file is not
    # written over on quit, with a message saying so
    rc = os.path.join(t.home, "cfg", "taskview", "taskviewrc")
    os.makedirs(os.path.dirname(rc), exist_ok=True)
    cases = (("File too large", ("# " + "x" * 1021 + "\n") * (17 * 1024)),
             ("binary", "# mine\n" + "blob\0\x01\x02\n" * 1000 + "# also mine\n"))
    for why, body in cases:
        with open(rc, "w") as f:
            f.write("version=1\nsort=pid\n" + body)
        before = os.stat(rc)
        try:
            s = t.start([])
            t.wait_for(s, "PID")
            t.keys(s, "I")
            text = t.quit(s)
            after = os.stat(rc)
            assert (after.st_ino, after.st_size, after.st_mtime_ns) == \
                (before.st_ino, before.st_size, before.st_mtime_ns), f"{why}: the settings file was written over"
            flat = " ".join(text.split())
            assert "settings not saved" in flat and why in flat, text
        finally:
            os.unlink(rc)


def test_invisible_characters_escaped(t):
    # a soft hyphen, an unassigned code point, an Arabic number sign: the
    # terminal would draw them in no column or one of its own choosing
    w = Workload("--name", "a\u00ad\u0378")
    w2 = Workload("--name", "\u0600b")
    try:
        s = t.start(["-p", f"{w.pid},{w2.pid}", "-o", "pid,comm,threads"])
        text = t.wait_for(s, "a\\u00ad\\u0378")
        assert "\\u0600b" in text, text
        # the column after the name starts where its header does
        lines = text.splitlines()
        head = [line for line in lines if line.lstrip().startswith("PID ")][0]
        row = [line for line in lines if "a\\u00ad" in line][0]
        assert row.rstrip().endswith(" 1"), row
        assert len(row.rstrip()) == len(head.rstrip()), f"columns shifted:\n{head}\n{row}"
        t.quit(s)
    finally:
        w.stop()
        w2.stop()


TESTS = [test_open_screen_state, test_fatal_signals_restore, test_faults_inside_restore, test_signal_while_opening,
         test_child_leaves_the_screen_alone, test_slow_address_space_holds_nothing,
         test_search_not_lost_to_a_late_refresh, test_keys_after_enter_are_the_screens,
         test_busy_address_space_keeps_the_refresh,
         test_newer_settings_kept, test_large_settings_kept, test_oversized_settings_not_written,
         test_invisible_characters_escaped]


def main():
    return tmuxlib.run_tests("tv-tui-edges-", TESTS)

if __name__ == "__main__":
    sys.exit(main())
