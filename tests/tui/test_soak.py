# SPDX-License-Identifier: GPL-2.0-or-later
"""A random-key soak of the interactive screen on a churning workload.

Five modes in turn, as users run them: the live list folded, with every
thread (-H), the process tree (t), the group view (g), and the replay of a
recording made with -w a moment before. Each gets random keys drawn from
every binding in src/tui/keys/keymap.c (so a new key is soaked without editing
this file), a few keys nothing is bound to, mouse clicks and wheel, and
window sizes from 20x5 to 200x50. Prompts are answered with text, numbers,
times and garbage, then Enter or Esc. A quit (q, F10) restarts the mode.

The test fails when taskview ends with anything but status 0, when a
sanitizer (ASan, UBSan) writes a report, or when it does not quit within a
generous time after Esc and q at the end of a mode (a hang or a spin that
starves the keys). The status is the one the shell wrote to a file of each
start's own, not text read off the screen (where the shell's line can land
on old text); each start has its own standard error too, so a failure shows
that start's messages (strace's output, from s, goes there as well).

Nothing outside the test is touched: taskview and the workloads run in a PID
namespace of their own (unshare), where the only tasks to signal or renice
are the test's. The signal menu is never confirmed either: k and F9 are
always followed by Esc, and so is a click on the key bar (its F9 opens the
menu, and random keys after it could pick a signal, Enter and y). Where no
PID namespace can be made, kill and renice keys are left out.

TASKVIEW_SOAK_SECONDS: the whole run (default 75; tests/README.md has the
long run). TASKVIEW_SOAK_SEED: the random seed (printed, for a rerun).
Exit 77 (skip) without tmux or unshare.
"""
import collections
import glob
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from tmuxlib import TASKVIEW, WORKLOAD, Tmux, mouse  # noqa: E402

SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
TOTAL = float(os.environ.get("TASKVIEW_SOAK_SECONDS", "75"))
SEED = int(os.environ.get("TASKVIEW_SOAK_SEED", str(int(time.time() * 1000) % 1000000)))
SIZES = [(80, 24), (200, 50), (120, 40), (100, 30), (60, 15), (20, 5), (132, 43)]
# under a sanitizer everything is several times slower: the limits are for a stuck screen
QUIT_WAIT = 60.0

CURSES = {
    "KEY_UP": "Up", "KEY_DOWN": "Down", "KEY_LEFT": "Left", "KEY_RIGHT": "Right",
    "KEY_PPAGE": "PPage", "KEY_NPAGE": "NPage", "KEY_HOME": "Home", "KEY_END": "End",
    "KEY_ENTER": "Enter", "KEY_SLEFT": "S-Left", "KEY_SRIGHT": "S-Right", "KEY_DC": "DC",
    "KEY_IC": "IC", "KEY_BACKSPACE": "BSpace", "27": "Escape",
}
NAMED = set(CURSES.values()) | {"Space", "Tab", "Enter", "Escape", "BSpace"}
CHARS = {"\\r": "Enter", "\\n": "C-j", " ": "Space", "\\\\": "\\", "\\'": "'", "\\t": "Tab"}


def keymap_keys():
    """Every key bound in keymap.c, as tmux send-keys names."""
    with open(os.path.join(SOURCE_DIR, "src", "tui", "keys", "keymap.c")) as f:
        src = f.read()
    keys = set()
    for m in re.finditer(r"\{\s*(KEY_F\((\d+)\)|CTRL\('(.)'\)|'((?:\\.|[^'])+)'|(KEY_\w+|\d+))\s*,\s*ACT_", src):
        if m.group(2):
            keys.add(f"F{m.group(2)}")
        elif m.group(3):
            keys.add(f"C-{m.group(3)}")
        elif m.group(4) is not None:
            c = m.group(4)
            keys.add(CHARS.get(c, c))
        elif m.group(5) in CURSES:
            keys.add(CURSES[m.group(5)])
        else:
            raise AssertionError(f"keymap.c binds {m.group(5)}: add its tmux name to CURSES")
    assert len(keys) > 40, f"only {len(keys)} keys found in keymap.c"
    return sorted(keys)


KEYS = keymap_keys()
# keys nothing may be bound to, and a few that htop binds
UNBOUND = ["x", "y", "o", "r", "v", "X", "@", "#", "~", "C-b", "C-x", "F11", "F12", "BSpace", "Tab",
           "e", "l", "a", "s", "DC", "IC", "é"]
KILL = {"k", "F9"}
RENICE = {"]", "[", "F7", "F8"}
MODE = {"t", "F5", "g", "H", "q", "F10", "z", "Z"}
PROMPT = {"/", "\\", "F4", "G", "p", "d", "J", "u", "F6", "<", ">", ".", ",", "S", "F2", "F9", "F3", "n"}
ANSWERS = ["tvsoak", "churn", "sleeper", "1", "0.3", "0", "-1", "1e9", "99999999999999999999", "abc",
           "00:00", "23:59:59", "2026-01-01 00:00", "12:", "1,2,3", "1,,x", "/", ".*", "[", "é\u00ad\u200b",
           "nobody", "root", "9", "15", "ü" * 40, "x" * 300]


class Soak:
    def __init__(self, t, home, rng, wrap, can_signal):
        self.t, self.home, self.rng, self.wrap, self.can_signal = t, home, rng, wrap, can_signal
        self.sent = collections.deque(maxlen=300)
        self.logdir = os.path.join(home, "sanitizer")
        os.makedirs(self.logdir, exist_ok=True)
        self.keys = [k for k in KEYS if can_signal or k not in KILL | RENICE]
        self.errlog = os.path.join(home, "stderr")
        self.status = os.path.join(home, "status")
        self.screen = ""  # the last screen seen while taskview ran
        self.mode = ""
        self.counts = collections.Counter()

    def env(self, cfg):
        return {"HOME": self.home, "XDG_CONFIG_HOME": cfg, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                "TERM": "tmux-256color",
                "ASAN_OPTIONS": f"log_path={self.logdir}/asan:detect_leaks=1:abort_on_error=0",
                "UBSAN_OPTIONS": f"log_path={self.logdir}/ubsan:halt_on_error=1:print_stacktrace=1",
                "LSAN_OPTIONS": os.environ.get("LSAN_OPTIONS", "")}

    def script(self, args, cfg, seconds, name):
        """The shell line run in the PID namespace: workloads, process churn, then taskview."""
        w = shlex.quote(WORKLOAD)
        s = str(int(seconds) + 120)
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env(cfg).items())
        tv = f"{shlex.quote(TASKVIEW)} {' '.join(shlex.quote(a) for a in args)}"
        return (f"{w} --name {name} --ping --sleepers 12 --sleeper-name tvsoak --churn 40:4:120 "
                f"--seconds {s} >/dev/null & "
                f"{w} --name {name}-lx --leader-exit --sleepers 3 --churn 100:2 --seconds {s} >/dev/null & "
                # short-lived processes, some with children of their own (the tree changes)
                f"(while :; do sleep 0.3 & sh -c 'sleep 0.2 & sleep 0.4; exit 0' & sleep 0.15; done) & "
                f"env {env} {tv} 2>{shlex.quote(self.errlog)}; st=$?; echo $st >{shlex.quote(self.status)}; "
                f"echo; echo EXIT=$st; sleep 3600")

    def start(self, args, cfg, seconds, name, size):
        self.t.n += 1
        sess = f"soak{self.t.n}"
        self.errlog = os.path.join(self.home, f"stderr-{self.t.n}")
        self.status = os.path.join(self.home, f"status-{self.t.n}")
        self.screen = ""
        line = " ".join(shlex.quote(a) for a in self.wrap) + " sh -c " + \
            shlex.quote(self.script(args, cfg, seconds, name)) if self.wrap else self.script(args, cfg, seconds, name)
        self.t.cmd("new-session", "-d", "-s", sess, "-x", str(size[0]), "-y", str(size[1]), "sh", "-c", line)
        # the first screen: a header (live: Tasks, replay: Sample) or the table
        self.t.wait(sess, lambda x: "PID" in x or "Sample:" in x or "Tasks:" in x or os.path.exists(self.status),
                    "the first screen", timeout=60)
        self.check(sess)
        return sess

    def reports(self):
        out = []
        for p in sorted(glob.glob(os.path.join(self.logdir, "*"))):
            with open(p, errors="replace") as f:
                out.append(f"--- {os.path.basename(p)}\n{f.read()}")
        return "\n".join(out)

    def fail(self, sess, why):
        screen = self.t.text(sess) if sess else ""
        keys = " ".join(repr(k) for k in self.sent)
        err = open(self.errlog, errors="replace").read() if os.path.exists(self.errlog) else ""
        # taskview's own lines first: strace's output (s) shares the file and can bury them
        own = "\n".join(line for line in err.splitlines() if line.startswith("taskview"))
        raise AssertionError(f"{why} (mode {self.mode})\nseed {SEED} (TASKVIEW_SOAK_SEED={SEED} to rerun)\n"
                             f"last keys, oldest first: {keys}\nthe last screen while it ran:\n{self.screen}\n"
                             f"screen:\n{screen}\ntaskview's own lines on its standard error:\n{own}\n"
                             f"its standard error, the end:\n{err[-3000:]}\n{self.reports()}")

    def check(self, sess):
        """Whether taskview still runs: False after a quit with status 0; fails on
        any other end or a sanitizer report."""
        if self.reports():
            # the whole report: it is written before the process ends
            end = time.monotonic() + 20
            while sess and time.monotonic() < end and not os.path.exists(self.status):
                time.sleep(0.2)
            self.fail(sess, "a sanitizer reported an error")
        text = self.t.text(sess)
        # the status from the shell's file: the pane's text can hold an old
        # line where the shell's lands, and the keys echoed after the end
        try:
            with open(self.status) as f:
                st = f.read().strip()
        except FileNotFoundError:
            self.screen = text
            return True
        if not st:
            return True  # being written
        if int(st) != 0:
            n = int(st)
            how = f" (killed by {signal.Signals(n - 128).name})" if 128 < n < 160 else ""
            self.fail(sess, f"taskview ended with status {n}{how}")
        return False

    def send(self, sess, key, literal=False):
        self.sent.append(key)
        self.counts[key] += 1
        if literal or not (key in NAMED or re.match(r"^(C-|S-|F\d)", key)):
            self.t.cmd("send-keys", "-t", sess, "-l", "--", key)
        else:
            self.t.cmd("send-keys", "-t", sess, "--", key)

    def escape(self, sess):
        # alone, and longer than the 25 ms escape delay: not the start of a sequence
        time.sleep(0.06)
        self.send(sess, "Escape")
        time.sleep(0.08)

    def answer(self, sess, live):
        """Text typed into whatever prompt may be open, then Enter or Esc."""
        a = self.rng.choice(ANSWERS)
        if self.rng.random() < 0.3:
            a = a[:self.rng.randint(0, len(a))]
        for chunk in re.findall(r".{1,20}", a):
            self.send(sess, chunk, literal=True)
        if self.rng.random() < 0.3:
            self.send(sess, "BSpace")
        if self.rng.random() < 0.6:
            self.send(sess, "Enter")
        else:
            self.escape(sess)

    def one(self, sess, live, size):
        r = self.rng.random()
        if r < 0.03:
            size = self.rng.choice(SIZES)
            self.t.cmd("resize-window", "-t", sess, "-x", str(size[0]), "-y", str(size[1]), check=False)
            self.sent.append(f"<{size[0]}x{size[1]}>")
            return size
        if r < 0.07:
            x, y = self.rng.randrange(size[0]), self.rng.randrange(size[1])
            b = self.rng.choice([0, 0, 2, 64, 65])
            self.sent.append(f"<mouse {b} {x},{y}>")
            mouse(self.t, sess, x, y, b)
            if b == 0 and y == size[1] - 1 and live:
                # the key bar: its F9 opens the signal menu, never to be confirmed
                self.escape(sess)
                self.escape(sess)
            return size
        key = self.rng.choice(UNBOUND) if r < 0.12 else self.rng.choice(self.keys)
        if key in MODE and self.rng.random() < 0.7:
            key = self.rng.choice(self.keys)  # mode keys less often: each mode gets its time
        if key in MODE and key in ("q", "F10") and self.rng.random() < 0.7:
            key = "Down"  # quits less often still: a restart costs seconds
        if key == "Escape":
            self.escape(sess)
            return size
        self.send(sess, key)
        if key in KILL and live:
            # the signal menu: maybe a signal's number typed, never confirmed
            if self.rng.random() < 0.5:
                self.send(sess, self.rng.choice(["9", "15", "1", "2", "19"]))
            self.escape(sess)
            self.escape(sess)
        elif key in PROMPT and self.rng.random() < 0.7:
            self.answer(sess, live)
        return size

    def quit(self, sess):
        """Esc and q until it ends; a screen that does not quit in time hangs."""
        end = time.monotonic() + QUIT_WAIT
        while time.monotonic() < end:
            if not self.check(sess):
                self.t.cmd("kill-session", "-t", sess, check=False)
                return
            self.escape(sess)
            self.escape(sess)
            self.send(sess, "q")
            t0 = time.monotonic()
            while time.monotonic() - t0 < 3 and self.check(sess):
                time.sleep(0.1)
        self.fail(sess, f"taskview did not quit within {QUIT_WAIT:.0f} s of Esc and q\n{self.stuck(sess)}")

    def stuck(self, sess):
        """What a taskview that does not answer is doing: its threads' states and
        kernel wait channels, and their stacks where gdb is installed."""
        pid = None
        todo = [int(self.t.cmd("display", "-p", "-t", sess, "#{pane_pid}").strip())]
        exe = os.path.realpath(TASKVIEW)
        while todo and not pid:
            p = todo.pop()
            try:
                if os.path.realpath(f"/proc/{p}/exe") == exe:
                    pid = p
                todo += [int(k) for k in open(f"/proc/{p}/task/{p}/children").read().split()]
            except OSError:
                pass
        if not pid:
            return "taskview's process not found"
        out = [f"taskview {pid}:"]
        for tid in sorted(os.listdir(f"/proc/{pid}/task"), key=int):
            try:
                stat = open(f"/proc/{pid}/task/{tid}/stat").read()
                wchan = open(f"/proc/{pid}/task/{tid}/wchan").read()
                out.append(f"  {tid} {stat[stat.rindex(')') + 2:].split()[0]} {wchan} "
                           f"utime+stime {sum(int(x) for x in stat[stat.rindex(')') + 2:].split()[11:13])}")
            except OSError:
                pass
        if shutil.which("gdb"):
            r = subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt 20"],
                               capture_output=True, text=True, timeout=120)
            out.append("\n".join(l for l in r.stdout.splitlines() if l.startswith(("#", "Thread"))))
        return "\n".join(out)

    def phase(self, name, args, first_keys, seconds, live):
        self.mode = name
        cfg = tempfile.mkdtemp(prefix=f"cfg-{name}-", dir=self.home)
        end = time.monotonic() + seconds
        starts = 0
        sess = None
        while time.monotonic() < end:
            size = self.rng.choice(SIZES[:4])
            sess = self.start(args, cfg, seconds, f"tvsoak{name[:3]}", size)
            starts += 1
            for k in first_keys:
                self.send(sess, k)
            n = 0
            while time.monotonic() < end:
                size = self.one(sess, live, size)
                n += 1
                time.sleep(self.rng.choice([0, 0.01, 0.03, 0.1, 0.3]))
                if n % 10 == 0 and not self.check(sess):
                    break  # quit by a key: start again
            else:
                self.quit(sess)
                sess = None
                break
            self.t.cmd("kill-session", "-t", sess, check=False)
            sess = None
        print(f"{name}: {seconds:.0f} s, {starts} start(s)", flush=True)


def namespace_wrap():
    """unshare for a PID namespace of the test's own, or None."""
    if not shutil.which("unshare"):
        return None
    # --kill-child: the namespace ends with unshare (tmux's hang-up ends that); its first
    # process would ignore the hang-up and keep the workloads running
    for wrap in (["unshare", "--pid", "--kill-child", "--mount-proc"],
                 ["unshare", "--user", "--map-root-user", "--pid", "--kill-child", "--mount-proc"]):
        if os.geteuid() != 0 and "--user" not in wrap:
            continue
        r = subprocess.run(wrap + ["sh", "-c", "test $$ = 1 && ls /proc/1 >/dev/null"],
                           capture_output=True)
        if r.returncode == 0:
            return wrap
    return None


def record(home, wrap):
    """A short recording of the churning workloads, with -H (threads), in the namespace."""
    path = os.path.join(home, "soak.tvr")
    w = shlex.quote(WORKLOAD)
    line = (f"{w} --name tvsoakrec --ping --sleepers 6 --churn 60:3:150 --seconds 60 >/dev/null & "
            f"{w} --name tvsoakrec-lx --leader-exit --churn 100:2 --seconds 60 >/dev/null & "
            f"(while :; do sleep 0.2 & sleep 0.1; done) & "
            f"{shlex.quote(TASKVIEW)} -w {shlex.quote(path)} -d 0.5 -n 16 -H")
    cmd = (wrap or []) + ["sh", "-c", line]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240,
                       start_new_session=True)
    assert r.returncode == 0 and os.path.exists(path), f"recording failed ({r.returncode}): {r.stderr}"
    return path


def main():
    if not shutil.which("tmux"):
        print("SKIP: tmux is not installed")
        return 77
    if not (WORKLOAD and os.access(WORKLOAD, os.X_OK)):
        print("SKIP: tv-workload is not built")
        return 77
    wrap = namespace_wrap()
    print(f"seed {SEED}, {TOTAL:.0f} s, {len(KEYS)} bound keys, "
          f"{'a PID namespace' if wrap else 'no PID namespace: kill and renice keys left out'}", flush=True)
    rng = random.Random(SEED)
    home = tempfile.mkdtemp(prefix="tv-soak-")
    t = Tmux(home)
    soak = Soak(t, home, rng, wrap, can_signal=wrap is not None)
    try:
        # a session that stays: the server does not exit (and race the next start) when a mode's ends
        t.cmd("new-session", "-d", "-s", "keep", "sleep", "100000")
        t0 = time.monotonic()
        rec = record(home, wrap)
        modes = [("folded", [], [], True), ("threads", ["-H"], [], True), ("tree", [], ["t"], True),
                 ("groups", [], ["g"], True), ("replay", ["-r", rec], [], False)]
        left = max(TOTAL - (time.monotonic() - t0), 25.0)
        # a long run goes round the modes several times, at most 2 minutes each
        rounds = max(1, int(left // (len(modes) * 120)) + (1 if left % (len(modes) * 120) else 0))
        each = left / (rounds * len(modes))
        for _ in range(rounds):
            for name, args, first, live in modes:
                soak.phase(name, args, first, each, live)
        print(f"{sum(soak.counts.values())} keys in {time.monotonic() - t0:.0f} s; "
              f"none of {len(KEYS)} bound keys left out: {sorted(set(soak.keys) - set(soak.counts))}")
        if soak.reports():
            soak.fail(None, "a sanitizer reported an error")
        return 0
    except AssertionError as e:
        print(f"FAIL: {e}")
        return 1
    finally:
        t.kill_server()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
