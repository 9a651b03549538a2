# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared helpers for taskview's integration tests (python3 standard library only)."""
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

TASKVIEW = os.environ.get("TASKVIEW", "taskview")

# meson ends a test past its time with SIGTERM: as an exit, so that the finally
# blocks run (a host setting switched off for a test is put back)
signal.signal(signal.SIGTERM, lambda sig, frame: sys.exit(128 + sig))
WORKLOAD = os.environ.get("WORKLOAD", "tv-workload")


def reachable(path, user=None, wrap=None):
    """path, or a copy of it that user (or the command wrap runs things as) can
    read and run: a build directory below a private one (such as /root, or a
    checkout in a 0700 temporary directory) is out of reach of the users the
    tests switch to."""
    wrap = tuple(wrap or ("setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"))
    if (path, wrap) in _reachable:
        return _reachable[path, wrap]
    r = subprocess.run([*wrap, "test", "-r", path, "-a", "-x", path], capture_output=True)
    if r.returncode == 0:
        copy = path
    else:
        d = tempfile.mkdtemp(prefix="tv-reachable-")
        atexit.register(shutil.rmtree, d, True)
        os.chmod(d, 0o755)
        copy = os.path.join(d, os.path.basename(path))
        shutil.copy(path, copy)
        os.chmod(copy, 0o755)
    _reachable[path, wrap] = copy
    return copy


_reachable = {}

MEMORY_FS = {"tmpfs", "ramfs", "devtmpfs", "proc", "sysfs"}


def disk_dir(user=None):
    """A writable directory on a file system backed by a disk (block I/O to wait for),
    one that user can reach and write in where given; None if there is none."""
    for d in (os.environ.get("BUILD_DIR"), "/var/tmp", os.getcwd(), "/tmp"):
        if not d or not os.path.isdir(d) or not os.access(d, os.W_OK):
            continue
        r = subprocess.run(["stat", "-f", "-c", "%T", d], capture_output=True, text=True)
        if r.returncode != 0 or r.stdout.strip() in MEMORY_FS:
            continue
        if user is not None and subprocess.run(["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups",
                                                "test", "-x", d], capture_output=True).returncode != 0:
            continue  # a directory made here for user would be out of its reach
        return d
    return None


def drop_to(user):
    """A preexec function that makes the child run as user (uid and gid), without groups."""
    def preexec():
        os.setgroups([])
        os.setgid(user)
        os.setuid(user)
    return preexec


class Workload:
    """A tv-workload process, as user when given; reads its ready line with PID and thread IDs."""

    def __init__(self, *args, env=None, user=None):
        exe = reachable(WORKLOAD, user) if user else WORKLOAD
        self.proc = subprocess.Popen([exe, "--seconds", "120", *args], stdout=subprocess.PIPE,
                                     env=env, preexec_fn=drop_to(user) if user else None, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("workload did not start")
        info = json.loads(line)
        self.pid = info["pid"]
        self.threads = info["threads"]

    def stop(self):
        self.proc.kill()
        self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def run(*args, env=None, timeout=180, user=None):
    # timeout: a guard against a hang, not a measurement: beside two CPU hogs, an exit storm and
    # three other tests, a run that takes a second of CPU alone was once held past 60 s
    cmd = [TASKVIEW, *args]
    if user:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", reachable(TASKVIEW, user), *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout,
                          errors="surrogateescape")


def json_lines(text):
    """The documents of JSON Lines output. Split at "\\n" only: str.splitlines() also
    splits at U+2028, U+0085 and others, which a JSON string may hold unescaped."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [json.loads(line) for line in lines]


def every_column(args):
    """JSON of every column (-o all), unless the caller chose its columns: its
    default is the columns of the text table."""
    return list(args) if "-o" in args else [*args, "-o", "all"]


def run_json(*args, **kw):
    r = run("-b", "--format", "json", *every_column(args), **kw)
    if r.returncode != 0:
        raise AssertionError(f"taskview exited {r.returncode}: {r.stderr}")
    return json_lines(r.stdout)


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def wait_state(pid, state, timeout=60):
    """Waits until /proc/PID/stat shows state (e.g. "Z"): a busy machine can hold an exit back."""
    end = time.monotonic() + timeout
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                now = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            now = None
        if now == state or time.monotonic() > end:
            break
        time.sleep(0.05)
    check(now == state, f"{pid} in state {state} within {timeout} s: {now}")


def children(pid):
    """The children of every thread of pid (a helper may be a thread's child), [] once it is gone."""
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def is_root():
    return os.geteuid() == 0


class Skip(Exception):
    pass


CHANGE_HOST = "TASKVIEW_TEST_CHANGE_HOST"


def changes_host(test):
    """Marks a test that changes the host (it switches kernel.task_delayacct off for a while):
    it runs with TASKVIEW_TEST_CHANGE_HOST=1 beside the file's other tests, or with =only alone,
    the others left out (a runner that runs suites side by side runs these when nothing else
    runs); without the variable it is skipped (tests/README.md)."""
    test.changes_host = True
    return test


def may_change_host(what):
    """Skips the calling test unless the runner consented to what it changes on the host."""
    if os.environ.get(CHANGE_HOST) not in ("1", "only"):
        raise Skip(f"{what}; set {CHANGE_HOST}=1 to allow it")


def select(tests, args):
    """The tests args name (NAME runs only those named; -NAME leaves one out), all without args:
    meson runs a file's slow test as a test of its own, beside the rest."""
    names = {t.__name__ for t in tests}
    unknown = [a for a in args if a.lstrip("-") not in names]
    if unknown:
        raise SystemExit(f"no such test: {', '.join(unknown)}")
    only = [a for a in args if not a.startswith("-")]
    out = [t for t in tests if t.__name__ in only] if only else list(tests)
    if os.environ.get(CHANGE_HOST) == "only":
        out = [t for t in out if getattr(t, "changes_host", False)]
    return [t for t in out if "-" + t.__name__ not in args]


def main(tests):
    passed = failed = skipped = 0
    for t in select(tests, sys.argv[1:]):
        name = t.__name__
        start = time.monotonic()
        try:
            t()
        except Skip as e:
            skipped += 1
            print(f"SKIP {name}: {e}")
            continue
        except Exception:  # noqa: BLE001 - report every failure and go on
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc(file=sys.stdout)
            continue
        passed += 1
        print(f"ok   {name} ({time.monotonic() - start:.1f}s)")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    if failed:
        return 1
    if passed == 0:
        return 77  # all skipped, or none chosen (CHANGE_HOST=only in a file that changes nothing)
    return 0
