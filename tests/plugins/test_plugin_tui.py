# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile plugins in the interactive screen (real binary, private tmux server): each is named on
the status line and disabled while the screen goes on updating; q, SIGTERM, SIGINT and SIGHUP
work while a plugin hangs; the terminal is given back intact. Exit 77 (skip) without tmux."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tui"))
import tmuxlib  # noqa: E402

BUILD_DIR = os.environ.get("BUILD_DIR", "build")
TEST_MODS = os.environ.get("PLUGIN_TEST_DIR", os.path.join(BUILD_DIR, "tests", "plugins"))


def mod(name):
    return os.path.join(TEST_MODS, name + ".so")


def plugin_args(name, *more):
    return ["-d", "0.3", "--no-plugins", "--plugin", mod(name), "--plugin", mod("hello"),
            "-o", f"pid,comm,hello.tid,{name}.value", *more]


def uptime(text):
    # "03:04:05", from a day on "3d 03:04:05": the clock, which moves every second
    m = re.search(r"Uptime: ((?:\d+d )?\d+:\d\d:\d\d)", text)
    return m.group(1) if m else None


def assert_updating(t, s):
    """The header's clock moves: the screen is being refreshed."""
    first = uptime(t.wait_for(s, "Uptime:"))
    t.wait(s, lambda x: uptime(x) not in (None, first), "the screen to refresh")


def assert_restored(text):
    """After taskview: the shell's output, not taskview's screen, and no plugin bytes."""
    assert "Tasks:" not in text and "F10Quit" not in text, f"the screen was not restored:\n{text}"
    # noisy's first line is quoted, escaped, in its message; its second line never shows
    assert "noisy on stderr" not in text and "noisy on" not in text.replace("\\x07noisy on stdout", ""), \
        f"plugin output reached the terminal:\n{text}"


def test_failures_named(t):
    for name, words in (("segv", "the plugin helper ended while it ran"),
                        ("aborts", "the plugin helper ended while it ran"),
                        ("exits", "the plugin helper ended while it ran (exit status 3)"),
                        ("junk", "sent malformed data"),
                        ("noisy", "it wrote to standard output or error")):
        s = t.start(plugin_args(name))
        title = t.cmd("display", "-p", "-t", s, "#{pane_title}")
        text = t.wait_for(s, f"plugin {name} disabled: ")
        assert "noisy on" not in text.replace("\\x07noisy on stdout", ""), f"plugin output on the screen:\n{text}"
        # the other plugin's column and the rest of the screen go on
        assert re.search(r"(?m)^ +\d+ .* \d+ +- *$", text), f"no hello.tid beside an unknown value:\n{text}"
        assert_updating(t, s)
        assert t.cmd("display", "-p", "-t", s, "#{pane_title}") == title, "the pane title changed"
        text = t.quit(s)
        assert_restored(text)
        # the message is printed again once the screen is closed
        assert f"taskview: plugin {name} disabled: " in text.replace("\n", ""), text


def test_terminal_out_of_reach(t):
    """A plugin that opens its parent's /proc/PID/fd/0..2 in every collect and writes escape
    sequences there (hostile.c, terminal): it has no way to taskview's terminal, so the screen
    keeps its header, shows none of its text, and the pane keeps its title."""
    s = t.start(plugin_args("terminal"))
    title = t.cmd("display", "-p", "-t", s, "#{pane_title}")
    # its column has values: collect ran, and wrote if it could
    t.wait(s, lambda x: re.search(r"(?m)^ +(\d+) .* \1 +\1 *$", x), "a terminal.value")
    for _ in range(3):
        try:
            assert_updating(t, s)
        finally:
            text = t.text(s)
            assert "PLUGIN WROTE HERE" not in text, f"the plugin wrote to the terminal:\n{text}"
    assert "Tasks:" in text and "plugin terminal" not in text, f"the screen was cleared or a message shown:\n{text}"
    assert t.cmd("display", "-p", "-t", s, "#{pane_title}") == title, "the plugin set the pane title"
    text = t.quit(s)
    assert "PLUGIN WROTE HERE" not in text, text
    assert_restored(text)
    if os.geteuid() == 0:
        terminal_out_of_reach_as_user()


def terminal_out_of_reach_as_user(user=65534):
    """The same as an ordinary user, in a terminal of that user's own (a tmux server of theirs):
    there the helper has no capability to give up, and taskview not being dumpable is what holds."""
    sys.path.insert(0, os.path.join(HERE, "..", "integration"))
    from tvtest import reachable  # noqa: E402
    # SHELL set: tmux runs the command through it, and without it through the user's login
    # shell, which for nobody is nologin.
    home = tempfile.mkdtemp(prefix="tv-plugin-tui-user-")
    os.chmod(home, 0o777)
    as_user = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups",
               "env", f"HOME={home}", f"TMUX_TMPDIR={home}", "SHELL=/bin/sh", f"XDG_CONFIG_HOME={home}", "LC_ALL=C.UTF-8"]

    def tmux(*args):
        r = subprocess.run([*as_user, "tmux", "-L", "tvuser", "-f", "/dev/null", *args],
                           capture_output=True, text=True, errors="replace")
        assert r.returncode == 0, f"tmux {args[0]} as user {user}: {r.stderr.strip()}"
        return r.stdout

    taskview = reachable(os.environ.get("TASKVIEW", "taskview"), user)
    plugin = reachable(mod("terminal"), user)
    try:
        tmux("new-session", "-d", "-s", "u", "-x", "120", "-y", "30",
             f"{taskview} -d 0.3 --no-plugins --plugin {plugin} -o pid,comm,terminal.value; sleep 60")
        title = tmux("display", "-p", "-t", "u", "#{pane_title}")
        end = time.monotonic() + 8
        seen = set()
        text = ""
        # three different uptimes after the plugin's column has a value: collect ran each time
        while len(seen) < 3 and time.monotonic() < end:
            text = tmux("capture-pane", "-p", "-t", "u")
            assert "PLUGIN WROTE HERE" not in text, f"as a user, the plugin wrote to the terminal:\n{text}"
            if re.search(r"(?m)^ +(\d+) .* \1 *$", text) and uptime(text):
                seen.add(uptime(text))
            time.sleep(0.1)
        assert len(seen) == 3, f"as a user, the screen did not refresh with the plugin's values:\n{text}"
        assert tmux("display", "-p", "-t", "u", "#{pane_title}") == title, "as a user, the plugin set the title"
    finally:
        subprocess.run([*as_user, "tmux", "-L", "tvuser", "kill-server"], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def test_hang_then_recover(t):
    """A plugin that never answers: given up at its deadline, then the screen updates without it."""
    for name in ("loop_collect", "block_collect"):
        s = t.start(plugin_args(name))
        t.wait_for(s, f"plugin {name} disabled: no answer within")
        assert_updating(t, s)
        assert_restored(t.quit(s))


def helper_runs(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_keys_and_signals_while_hanging(t):
    """While a plugin hangs (its deadline is seconds away): q and quit signals end taskview at once,
    the terminal restored, and no helper left running."""
    cases = [("q", 0), (signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 129)]
    for how, want in cases:
        s = t.start(plugin_args("loop_collect"))
        # taskview starts the helper with its first sample: a busy machine may take a while to get there
        deadline = time.monotonic() + 15
        while True:
            pid = t.taskview_pid(s)
            helpers = [int(x) for x in open(f"/proc/{pid}/task/{pid}/children").read().split()] if pid else []
            if helpers or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert helpers, "no plugin helper"
        t0 = time.monotonic()
        if how == "q":
            t.keys(s, "q")
        else:
            os.kill(pid, how)
        # the process's own end, not the screen's: capturing the pane is slow on a busy machine
        end = time.monotonic() + 10
        while helper_runs(pid) and time.monotonic() < end:
            time.sleep(0.01)
        took = time.monotonic() - t0
        rc, text = t.wait_exit(s, timeout=30)
        t.cmd("kill-session", "-t", s, check=False)
        assert rc == want, f"{how}: exit status {rc}, want {want}: {text}"
        assert took < 1.5, f"{how}: took {took:.1f} s to quit while a plugin hangs"
        assert_restored(text)
        # killed as taskview ends; on a busy machine the helper may need a moment to be scheduled and
        # die (a helper left running stays: this waits for the end, it does not excuse its absence)
        for h in helpers:
            end = time.monotonic() + 5
            while helper_runs(h) and time.monotonic() < end:
                time.sleep(0.05)
            assert not helper_runs(h), f"{how}: helper {h} still runs"


TESTS = [test_failures_named, test_terminal_out_of_reach, test_hang_then_recover, test_keys_and_signals_while_hanging]


def main():
    return tmuxlib.run_tests("tv-plugin-tui-", TESTS)


if __name__ == "__main__":
    sys.exit(main())
