# SPDX-License-Identifier: GPL-2.0-or-later
"""Keys never wait for a refresh: the samples are taken on a thread of their own.

A plugin column whose every refresh takes 1.5 s (tests/plugins/hostile.c,
drowsy: it sleeps, using no CPU) keeps the sampler busy most of the time.
While its helper process sleeps in a refresh, F1 must open the help screen
and Escape close it: the helper's voluntary switches, read before the key
and after the answer, show it did not wake in between, so the answer did not
wait for that refresh. Told by events, not by time: on a busy machine an
answer may come after the helper woke, which proves nothing either way and
is tried again; a screen that waited for the refresh can never pass. The
figures shown are then older than two intervals: the header says so. Runs the
real binary in a private tmux server; exits 77 (skipped) without tmux.
"""
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tmuxlib import Tmux  # noqa: E402
from tvtest import children  # noqa: E402

PLUGIN = os.path.join(os.environ.get("PLUGIN_TEST_DIR", "."), "drowsy.so")
ANSWERS = 8       # keys answered while the helper slept, wanted
TRIES = 60        # keys sent at most


def sleeping_switches(pid):
    """The helper's voluntary switches while it sleeps in the plugin (in a nanosleep: waiting
    for the next request between refreshes is another wait), else None."""
    try:
        with open(f"/proc/{pid}/wchan") as f:
            wchan = f.read()
        with open(f"/proc/{pid}/status") as f:
            vol = [int(x.split()[1]) for x in f if x.startswith("voluntary_ctxt_switches:")][0]
    except (OSError, IndexError, ValueError):
        return None
    return vol if "nanosleep" in wchan else None


def main():
    if not shutil.which("tmux"):
        print("SKIP: no tmux")
        return 77
    home = tempfile.mkdtemp(prefix="tv-latency-")
    t = Tmux(home)
    try:
        s = t.start(["-d", "0.5", "--no-plugins", "--plugin", PLUGIN, "-o", "pid,drowsy.value,comm"])
        t.wait_for(s, "F10Quit")
        t.wait_for(s, "HOSTILE")  # its column is shown: the plugin runs every refresh
        tv = t.taskview_pid(s)
        helpers = children(tv)
        assert len(helpers) == 1, f"one plugin helper: {helpers}"
        helper = helpers[0]
        good = tries = 0
        waits = []
        open_help = True
        while good < ANSWERS and tries < TRIES:
            before = sleeping_switches(helper)
            if before is None:
                time.sleep(0.02)
                continue
            tries += 1
            start = time.monotonic()
            if open_help:
                t.keys(s, "F1")
                t.wait(s, lambda x: "Keys:" in x, "the help screen")
            else:
                t.keys(s, "Escape")
                t.wait(s, lambda x: "Keys:" not in x and "F10Quit" in x, "the table again")
            waits.append(time.monotonic() - start)
            open_help = not open_help
            if sleeping_switches(helper) == before:
                good += 1  # answered while the refresh in progress still slept
        assert t.alive(s), t.text(s)
        print(f"{good} of {tries} keys answered while a refresh slept in the plugin "
              f"(in {min(waits) * 1000:.0f}..{max(waits) * 1000:.0f} ms; each refresh takes 1.5 s)")
        assert good == ANSWERS, f"only {good} of {tries} keys were answered during a refresh"
        # a refresh of 1.5 s at -d 0.5: the figures shown are older than two intervals, and the
        # header says so, with their age (the help screen closed first: an odd number of tries
        # left it open)
        if "Keys:" in t.text(s):
            t.keys(s, "Escape")
            t.wait(s, lambda x: "Keys:" not in x and "F10Quit" in x, "the table again")
        text = t.wait(s, lambda x: re.search(r"Stale: figures \d+ s old", x), "the stale figures' age")
        assert "Refresh: 0.5 s" in text, text
        t.quit(s)
        return 0
    finally:
        t.kill_server()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
