# SPDX-License-Identifier: GPL-2.0-or-later
"""Keys never wait for a refresh: the samples are taken on a thread of their own.

A plugin column whose every refresh takes 1.5 s (tests/plugins/hostile.c,
drowsy: it sleeps, using no CPU) keeps the sampler busy most of the time;
F1 must still open the help screen, and Escape close it, within a fraction of
that, whenever the key comes. Runs the real binary in a private tmux server;
exits 77 (skipped) without tmux.
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tmuxlib import Tmux  # noqa: E402

PLUGIN = os.path.join(os.environ.get("PLUGIN_TEST_DIR", "."), "drowsy.so")
LIMIT = 0.4  # seconds; a key waiting for the refresh would take up to 1.5 s


def answered(t, s, key, pred):
    start = time.monotonic()
    t.keys(s, key)
    t.wait(s, pred, f"the answer to {key}", timeout=5.0)
    return time.monotonic() - start


def main():
    if not shutil.which("tmux"):
        print("SKIP: no tmux")
        return 77
    home = tempfile.mkdtemp(prefix="tv-latency-")
    t = Tmux(home)
    try:
        s = t.start(["-d", "0.5", "--no-plugins", "--plugin", PLUGIN, "-o", "pid,drowsy.value,comm"])
        t.wait_for(s, "F10Quit", timeout=10)
        t.wait_for(s, "HOSTILE", timeout=10)  # its column is shown: the plugin runs every refresh
        waits = []
        for i in range(8):
            time.sleep(0.23 * (i % 5) + 0.1)  # keys at different moments of the refresh
            waits.append(answered(t, s, "F1", lambda x: "Keys:" in x))
            waits.append(answered(t, s, "Escape", lambda x: "Keys:" not in x and "F10Quit" in x))
        assert t.alive(s), t.text(s)
        print(f"keys answered in {min(waits) * 1000:.0f}..{max(waits) * 1000:.0f} ms "
              f"while each refresh takes 1.5 s")
        assert max(waits) < LIMIT, f"a key waited {max(waits):.2f} s: {waits}"
        t.quit(s)
        return 0
    finally:
        t.kill_server()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
