#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs one test command away from what is set up on the host, and cleans up after it.

meson runs every test through this script (tests/meson.build, the default test
setup). The test gets an empty home (HOME, XDG_CONFIG_HOME, XDG_DATA_HOME), so
no settings file or user plugin of the person running the tests is read; no
system plugin directory (TASKVIEW_PLUGINDIR names one that does not exist), so
installed plugins are not loaded; the C.UTF-8 locale with LANGUAGE empty, so
messages are the untranslated ones whatever the host's language and whatever
catalogs are installed; umask 022, so files the tests create as root pass
taskview's ownership rules; TMPDIR and TMUX_TMPDIR in a private directory; and
no Python byte code written next to the test scripts in the source tree.
Afterwards, also when the test failed or was stopped with SIGTERM or SIGINT
(meson's timeout), any tmux server the test left running there is stopped
and the directory removed.

Usage: isolate.py COMMAND [ARG...]; the exit status is the command's.
"""
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile


def tmux_of(sock):
    """The tmux processes (servers, and clients stuck on them) of sock: named by its path (-S),
    or by its name (-L) with the TMUX_TMPDIR it is under (another test's server may have the
    same name under its own), read from their command lines and environments."""
    name = os.path.basename(sock).encode()
    tmpdir = b"TMUX_TMPDIR=" + os.path.dirname(os.path.dirname(sock)).encode()
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
            if not os.path.basename(args[0]).startswith(b"tmux"):
                continue
            if sock.encode() not in args:
                if b"-L" + name not in args and not any(a == b"-L" and b == name for a, b in zip(args, args[1:])):
                    continue
                with open(f"/proc/{d}/environ", "rb") as f:
                    if tmpdir not in f.read().split(b"\0"):
                        continue
        except OSError:
            continue
        out.append(int(d))
    return out


def stop_tmux(tmp):
    """Stops tmux servers with a socket under tmp (a test that died keeps them running). A
    server too busy to answer kill-server in 10 s (a loaded machine) is killed: the test's
    result is what it said, not how long its cleanup took."""
    if not shutil.which("tmux"):
        return
    for sock in glob.glob(os.path.join(tmp, "tmux-*", "*")):
        try:
            subprocess.run(["tmux", "-S", sock, "kill-server"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=10, check=False)
        except subprocess.TimeoutExpired:
            pass
        for pid in tmux_of(sock):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def environment(root):
    home = os.path.join(root, "home")
    tmp = os.path.join(root, "tmp")
    os.mkdir(home)
    os.mkdir(tmp)
    # tests run programs as nobody: like /tmp, these must stay reachable
    os.chmod(root, 0o755)
    os.chmod(home, 0o755)
    os.chmod(tmp, 0o1777)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LC_", "XDG_")) and k not in ("LANG", "LANGUAGE", "TMUX", "TMUX_PANE")}
    env.update({
        "HOME": home,
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "TASKVIEW_PLUGINDIR": os.path.join(root, "no-system-plugins"),
        "LC_ALL": "C.UTF-8",
        "LANGUAGE": "",
        "TMPDIR": tmp,
        "TMUX_TMPDIR": tmp,
        # the tests import tvtest.py: no __pycache__ in the source tree
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    return env


def main(argv):
    if not argv:
        print("usage: isolate.py COMMAND [ARG...]", file=sys.stderr)
        return 2
    os.umask(0o022)
    root = tempfile.mkdtemp(prefix="taskview-test-")
    child = None

    def forward(signum, _frame):
        if child and child.poll() is None:
            child.send_signal(signum)

    old = {s: signal.signal(s, forward) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        env = environment(root)
        child = subprocess.Popen(argv, env=env)
        rc = child.wait()
        return rc if rc >= 0 else 128 - rc
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        if child and child.poll() is None:
            child.kill()
            child.wait()
        stop_tmux(os.path.join(root, "tmp"))
        shutil.rmtree(root, ignore_errors=True)
        if os.path.exists(root):
            print(f"isolate.py: could not remove {root}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
