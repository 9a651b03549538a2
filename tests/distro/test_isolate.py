#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/isolate.py, which meson runs every test through: a test sees neither the
settings, plugins and language of the person running the suite nor the
installed plugins, and leaves no temporary directory or tmux server behind,
whether it passes, fails or is stopped."""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from tvtest import Skip, check, main  # noqa: E402

SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD_DIR = os.environ.get("BUILD_DIR", "build")
TASKVIEW = os.environ.get("TASKVIEW", "taskview")
ISOLATE = [sys.executable, os.path.join(SOURCE_DIR, "tests", "isolate.py")]
HELLO = os.path.join(BUILD_DIR, "tests", "plugins", "hello.so")

# prints what the isolated command sees, as Python literals
PROBE = ("import os; e = os.environ; m = os.umask(0); "
         "print(repr({k: e.get(k) for k in ('HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'TMPDIR', "
         "'TMUX_TMPDIR', 'TASKVIEW_PLUGINDIR', 'LANG', 'LC_ALL', 'LC_MESSAGES', 'LANGUAGE', 'TMUX', "
         "'PYTHONDONTWRITEBYTECODE')})); "
         "print(m)")


def outer_env(**kw):
    """The caller's environment as a developer's shell might have it."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LANGUAGE": "de", "TMUX": "/tmp/x,1,0"})
    env.update(kw)
    return env


def test_environment():
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([*ISOLATE, sys.executable, "-c", PROBE], capture_output=True, text=True,
                           env=outer_env(HOME=d, XDG_CONFIG_HOME=d, XDG_DATA_HOME=d), timeout=60,
                           preexec_fn=lambda: os.umask(0o002))
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        lines = r.stdout.splitlines()
        seen = eval(lines[0])  # noqa: S307 - our own probe's repr
        check(lines[1] == "18", f"umask {int(lines[1]):o}, want 22")
        root = os.path.dirname(seen["HOME"])
        for k in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "TMPDIR", "TMUX_TMPDIR", "TASKVIEW_PLUGINDIR"):
            check(seen[k] and seen[k].startswith(root + "/") and not seen[k].startswith(d),
                  f"{k}={seen[k]} is not private")
        check(seen["LC_ALL"] == "C.UTF-8" and seen["LANGUAGE"] == "" and seen["LANG"] is None
              and seen["LC_MESSAGES"] is None, f"locale {seen}")
        check(seen["TMUX"] is None, "the caller's tmux session is not the test's")
        check(seen["PYTHONDONTWRITEBYTECODE"] == "1", "tests would write __pycache__ into the source tree")
        check(not os.path.exists(root), f"{root} left behind")


def test_no_host_plugins():
    """A plugin in the caller's user directory or in the directory named by
    TASKVIEW_PLUGINDIR is loaded without isolation and not with it."""
    if not os.path.exists(HELLO):
        raise Skip(f"{HELLO} not built")
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        plugins = os.path.join(d, "taskview", "plugins")
        os.makedirs(plugins, mode=0o755)
        os.chmod(os.path.join(d, "taskview"), 0o755)
        shutil.copy(HELLO, os.path.join(plugins, "hello.so"))
        os.chmod(os.path.join(plugins, "hello.so"), 0o755)
        for env in (outer_env(XDG_DATA_HOME=d), outer_env(TASKVIEW_PLUGINDIR=plugins)):
            plain = subprocess.run([TASKVIEW, "--list-columns"], capture_output=True, text=True, env=env, timeout=60)
            check("hello.tid" in plain.stdout, f"control: hello.so not found without isolation: {plain.stderr}")
            r = subprocess.run([*ISOLATE, TASKVIEW, "--list-columns"], capture_output=True, text=True, env=env,
                               timeout=60)
            check(r.returncode == 0 and "hello.tid" not in r.stdout, f"a plugin of the host was loaded: {r.stdout}")
            # and in English, whatever the caller's language
            check("process ID" in r.stdout, f"untranslated column list: {r.stdout[:200]}")


def start_isolated(script):
    return subprocess.Popen([*ISOLATE, "sh", "-c", script], stdout=subprocess.PIPE, text=True,
                            env=outer_env(), start_new_session=True)


def test_cleanup_after_failure():
    p = start_isolated('echo "$TMPDIR"; mkdir -p "$TMPDIR/a/b"; touch "$TMPDIR/a/b/f"; exit 3')
    tmp = p.stdout.readline().strip()
    check(p.wait(timeout=60) == 3, f"exit status {p.returncode}, want the command's 3")
    check(tmp and not os.path.exists(os.path.dirname(tmp)), f"{tmp} left behind after a failure")


def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_cleanup_after_sigterm():
    """Stopped the way meson stops a test that runs too long: SIGTERM to its
    process group. A tmux server the test started goes too."""
    tmux = shutil.which("tmux")
    start = 'tmux -L t -f /dev/null new-session -d sleep 600 && ' if tmux else ""
    p = start_isolated(f'{start}echo "$TMPDIR"; exec sleep 600')
    tmp = p.stdout.readline().strip()
    sock = os.path.join(tmp, f"tmux-{os.geteuid()}", "t")
    server = None
    if tmux:
        r = subprocess.run(["tmux", "-S", sock, "display-message", "-p", "#{pid}"], capture_output=True, text=True)
        check(r.returncode == 0, f"the test's tmux server at {sock} did not start: {r.stderr}")
        server = int(r.stdout)
    os.killpg(p.pid, signal.SIGTERM)
    check(p.wait(timeout=30) == 128 + signal.SIGTERM, f"exit status {p.returncode}")
    check(not os.path.exists(os.path.dirname(tmp)), f"{tmp} left behind after SIGTERM")
    if server:
        for _ in range(50):
            if not running(server):
                break
            time.sleep(0.1)
        check(not running(server), f"the test's tmux server (pid {server}) still runs")


def test_cleanup_of_a_server_that_does_not_answer():
    """A tmux server that cannot answer kill-server (a loaded machine, here one stopped): the test's
    status is still its own, and the server is ended all the same."""
    if not shutil.which("tmux"):
        raise Skip("tmux is not installed")
    p = start_isolated('tmux -L t -f /dev/null new-session -d sleep 600 && echo "$TMPDIR" && '
                       'kill -STOP "$(tmux -L t display-message -p "#{pid}")" && exit 0')
    tmp = p.stdout.readline().strip()
    check(p.wait(timeout=120) == 0, f"exit status {p.returncode}, want the test's 0")
    check(not os.path.exists(os.path.dirname(tmp)), f"{tmp} left behind")
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    import isolate
    left = isolate.tmux_of(os.path.join(tmp, f"tmux-{os.geteuid()}", "t"))
    check(not [pid for pid in left if running(pid)], f"the stopped tmux server still runs: {left}")


if __name__ == "__main__":
    sys.exit(main([
        test_environment,
        test_no_host_plugins,
        test_cleanup_after_failure,
        test_cleanup_after_sigterm,
        test_cleanup_of_a_server_that_does_not_answer,
    ]))
