# SPDX-License-Identifier: GPL-2.0-or-later
"""Every mode as users run it, as root and as a user (runuser -u nobody).

Live screen folded, with -H, as a tree (t) and as groups (g); batch text,
JSON and OpenMetrics; recording with and without -b; replay on the screen
and in batch. Each is checked for what it claims: threads (named, with their
state), exited tasks (a replay lists them, as root), K, sort, filter, search
and the detail panel. The tasks looked at are the test's own: a shell with a
tv-workload under it (named threads, threads that come and go), run as the
same user as taskview.

Every case runs, also after one failed; the report lists each. Exit 77
(skip) without tmux for nothing: the batch cases run anyway, the screen
cases then report themselves skipped.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tui"))
import tmuxlib  # noqa: E402
from tvtest import TASKVIEW, WORKLOAD, Skip, check, is_root, json_lines, reachable  # noqa: E402

NOBODY = 65534
STATES = set("RSDTtZXIWPK")
THREADS = ("tvmxs-1", "tvmxs-2", "tvmxs-3", "pingA", "pingB")


class Ctx:
    """One user's workload, binary and recordings."""

    def __init__(self, user):
        self.user = user
        self.name = "root" if user is None else "nobody"
        self.tmp = tempfile.mkdtemp(prefix=f"tv-matrix-{self.name}-")
        os.chmod(self.tmp, 0o755)
        if user is not None:
            os.chown(self.tmp, user, user)
        self.tv = reachable(TASKVIEW, user) if user is not None else TASKVIEW
        wl = reachable(WORKLOAD, user) if user is not None else WORKLOAD
        # a shell with the workload under it: the tree has a parent to show
        self.parent = subprocess.Popen(
            self.as_user(["sh", "-c", f"{wl} --name tvmx --ping --sleepers 3 --sleeper-name tvmxs "
                                      f"--churn 150:2:100 --seconds 600 & wait"]),
            stdout=subprocess.PIPE, text=True)
        info = json.loads(self.parent.stdout.readline())
        self.pid, self.threads = info["pid"], info["threads"]
        self.recs = {}

    def as_user(self, cmd):
        if self.user is None:
            return cmd
        return ["runuser", "-u", "nobody", "--", *cmd]

    def run(self, *args, timeout=180):
        r = subprocess.run(self.as_user([self.tv, *args]), capture_output=True, text=True, timeout=timeout,
                           errors="surrogateescape", cwd=self.tmp)
        check(r.returncode == 0, f"taskview {' '.join(args)}: exit {r.returncode}: {r.stderr}")
        return r.stdout

    def stop(self):
        subprocess.run(["pkill", "-KILL", "-P", str(self.parent.pid)], check=False)
        self.parent.kill()
        self.parent.wait()
        # the next user's cases start once this workload's threads are gone (a
        # zombie nobody reaps may stay: it has no threads to show)
        for _ in range(600):
            try:
                with open(f"/proc/{self.pid}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] in "ZX":
                        break
            except OSError:
                break
            time.sleep(0.1)
        shutil.rmtree(self.tmp, ignore_errors=True)


def threads_of(docs, pid):
    return [t for d in docs for t in d["tasks"] if t["kind"] == "thread" and t["tgid"] == pid]


# ------------------------------------------------------------------ batch


def batch_text(c):
    out = c.run("-b", "-H", "-n", "1", "-d", "0.5", "-p", str(c.pid))
    for n in THREADS:
        check(n in out, f"thread {n} not in the text:\n{out}")


def batch_json(c):
    docs = json_lines(c.run("-b", "--format", "json", "-H", "-n", "2", "-d", "0.5", "-p", str(c.pid), "-o", "all"))
    thr = threads_of(docs, c.pid)
    names = {t["comm"] for t in thr}
    check(set(THREADS) <= names, f"threads {sorted(names)}")
    # the default columns include switches: each thread still has its state
    bad = [(t["pid"], t["comm"], t["state"]) for t in thr if t["state"] not in STATES]
    check(not bad, f"threads without a state: {bad[:5]}")


def batch_openmetrics(c):
    out = c.run("-b", "--format", "openmetrics", "-n", "1", "-d", "0.5", "-p", str(c.pid), "--top", "1")
    check(out.endswith("# EOF\n"), f"no # EOF: {out[-200:]!r}")
    # -p selects the workload alone: its command's series counts its threads
    m = re.search(r'^taskview_command_threads\{[^}]*comm="tvmx"[^}]*\} (\d+)', out, re.M)
    check(m and int(m.group(1)) >= len(THREADS) + 1, f"the workload's thread count: {m and m.group(0)}")


def batch_filter_sort(c):
    docs = json_lines(c.run("-b", "--format", "json", "-n", "1", "-d", "0.5", "-F", "tvmx", "-s", "pid", "-o", "all"))
    procs = [t for t in docs[0]["tasks"] if t["kind"] == "process"]
    check(any(p["pid"] == c.pid for p in procs), f"the workload is not in -F tvmx: {[p['pid'] for p in procs]}")
    for p in procs:
        text = f"{p['comm']} {p.get('command') or ''}"
        check("tvmx" in text.lower(), f"-F tvmx shows {p['pid']} {text!r}")
    pids = [p["pid"] for p in procs]
    check(pids in (sorted(pids), sorted(pids, reverse=True)), f"-s pid: {pids}")


# ------------------------------------------------------------------ record and replay


def record(c, key, *args):
    path = os.path.join(c.tmp, f"{key}.tvr")
    c.run("-w", path, *args)
    c.recs[key] = path
    return path


def check_replay_threads(c, path, what):
    docs = json_lines(c.run("-r", path, "-b", "--format", "json", "-H", "-o", "all"))
    check(len(docs) >= 3, f"{what}: {len(docs)} samples")
    thr = threads_of(docs, c.pid)
    names = {t["comm"] for t in thr}
    check(set(THREADS) <= names, f"{what}: replayed threads {sorted(names, key=str)}")
    if c.user is None:
        # as root the recorder keeps the tasks that ended between samples: the churn's threads
        ended = [t for t in thr if t.get("exited")]
        check(ended, f"{what}: no exited thread of the workload replayed (it starts one every 150 ms)")
        # a thread's final name comes with its exit record; without them (built without
        # taskstats) it is the last one read, which for a thread that ended before it named
        # itself is the one it was born with, its creator's
        watched = all(d["exits"]["watched"] for d in docs)
        names = {"churn-child"} if watched else {"churn-child", "churn"}
        check(all(t["comm"] in names for t in ended),
              f"{what}: exited threads {sorted({t['comm'] for t in ended})}")


def record_without_b(c):
    path = record(c, "plain", "-H", "-d", "0.5", "-n", "6", "-p", str(c.pid))
    check_replay_threads(c, path, "-w -H")


def record_with_b(c):
    path = os.path.join(c.tmp, "batch.tvr")
    out = c.run("-w", path, "-b", "-H", "-d", "0.5", "-n", "6", "-p", str(c.pid))
    check("tvmxs-1" in out, "-w -b prints the samples too")
    c.recs["batch"] = path
    check_replay_threads(c, path, "-w -b -H")


def replay_batch_text(c):
    path = c.recs.get("batch") or record(c, "batch2", "-b", "-H", "-d", "0.5", "-n", "4", "-p", str(c.pid))
    out = c.run("-r", path, "-b", "-H", "-s", "pid")
    for n in THREADS:
        check(n in out, f"replayed text without {n}")


# ------------------------------------------------------------------ the screen


class Screen:
    n = 0

    def __init__(self, c):
        if not shutil.which("tmux"):
            raise Skip("tmux is not installed")
        self.c = c
        self.t = tmuxlib.Tmux(c.tmp)
        Screen.n += 1
        self.t.sock = f"tvmatrix-{os.getpid()}-{Screen.n}"
        self.s = None

    def start(self, *args):
        tmuxlib.TASKVIEW = self.c.tv
        wrap = () if self.c.user is None else ("runuser", "-u", "nobody", "--")
        # settings of its own, as a first start; monochrome: the selection is reverse video
        cfg = tempfile.mkdtemp(dir=self.c.tmp)
        if self.c.user is not None:
            os.chown(cfg, self.c.user, self.c.user)
        self.s = self.t.start(list(args), wrap=wrap, env={"XDG_CONFIG_HOME": cfg, "NO_COLOR": "1"})
        self.t.wait(self.s, lambda x: re.search(r"\bPID\b", x) or "EXIT=" in x, "the table", timeout=60)
        return self

    def keys(self, *k):
        self.t.keys(self.s, *k)

    def type(self, text):
        self.t.keys(self.s, "-l", text)

    def wait(self, pred, what, timeout=30):
        return self.t.wait(self.s, pred, what, timeout)

    def panel_until(self, head, needle, what):
        """A detail panel whose title holds head, paged down (PgDn) until needle shows:
        a panel taller than the screen scrolls."""
        self.wait(lambda x: head in x, what)
        for _ in range(8):
            text = self.t.text(self.s)
            if needle in text:
                return text
            self.keys("NPage")
            time.sleep(0.2)
        return self.wait(lambda x: needle in x, f"{what}: {needle!r} on one of its pages")

    def select(self, pid):
        """Selects the row of pid: its digits typed (the PID jump)."""
        self.type(str(pid))
        self.wait(lambda x: re.match(r"\s*%d\s" % pid, tmuxlib.selected_row(self.t, self.s) or ""),
                  f"{pid} selected by typing it")

    def filter(self, text):
        self.keys("\\")
        time.sleep(0.2)
        self.type(text)
        self.keys("Enter")

    def close(self):
        try:
            if self.s and self.t.alive(self.s):
                self.keys("Escape")
                time.sleep(0.2)
                self.t.quit(self.s)
        finally:
            self.t.kill_server()


def screen_case(fn):
    def run(c):
        sc = Screen(c)
        try:
            fn(c, sc)
        finally:
            sc.close()
    run.__name__ = fn.__name__
    return run


def state_column(text):
    """Where the state column (S) is in the header, or None."""
    head = tmuxlib.header_line(text)
    m = re.search(r"\sS\s", head)
    return m.start() + 1 if m else None


def rows_named(text, name):
    return [r for r in tmuxlib.table_rows(text) if re.search(r"\b" + re.escape(name) + r"\b", r)]


def rows_of(text, pid):
    """The rows of a process by its PID (the COMMAND column shows its command line, not its name)."""
    return [r for r in tmuxlib.table_rows(text) if re.match(r"\s*%d\s" % pid, r)]


def own_rows(c, text, name):
    """The rows named name of c's user: a workload of the other user, still
    being torn down, may carry the same names."""
    return [r for r in rows_named(text, name) if (re.match(r"\s*\d+\s+(\S+)", r) or [None, None])[1] == c.name]


def check_thread_states(c, text, names=THREADS):
    col = state_column(text)
    check(col is not None, f"no S column:\n{text}")
    for n in names:
        rows = own_rows(c, text, n)
        check(rows, f"no row of thread {n} of user {c.name}:\n{text}")
        for r in rows:
            check(len(r) > col and r[col] in STATES, f"thread {n}: state {r[col:col + 1]!r} in {r!r}")


@screen_case
def live_folded(c, sc):
    sc.start("-d", "0.5")
    sc.filter("tvmx")
    text = sc.wait(lambda x: rows_of(x, c.pid), "the workload's row")
    check(not rows_named(text, "tvmxs-1"), "threads shown folded")
    sc.select(c.pid)
    sc.keys("Enter")
    text = sc.wait(lambda x: all(own_rows(c, x, n) for n in THREADS), "the threads unfolded")
    check_thread_states(c, text)


@screen_case
def live_threads(c, sc):
    sc.start("-H", "-d", "0.5")
    sc.filter("tvmx")
    text = sc.wait(lambda x: all(own_rows(c, x, n) for n in THREADS), "every thread with -H")
    check_thread_states(c, text)
    # search: a thread by its name
    sc.keys("Escape")
    time.sleep(0.2)
    sc.keys("/")
    time.sleep(0.2)
    sc.type("tvmxs-3")
    sc.keys("Enter")
    sc.wait(lambda x: "tvmxs-3" in (tmuxlib.selected_row(sc.t, sc.s) or ""), "the search to select tvmxs-3")


@screen_case
def live_tree(c, sc):
    sc.start("-d", "0.5")
    sc.keys("t")
    sc.filter("tvmx")
    # the workload under its shell: a tree glyph before its name
    sc.wait(lambda x: any(re.search(r"[\u251c\u2514]\u2500", r) for r in rows_of(x, c.pid)),
            "the workload as a child in the tree")


@screen_case
def live_groups(c, sc):
    with open(f"/proc/{c.pid}/cgroup") as f:
        group = f.read().strip().rsplit("/", 1)[-1] or "/"
    sc.start("-d", "0.5")
    sc.keys("g")
    sc.filter("tvmx")
    def under_group(x):
        rows = tmuxlib.table_rows(x)
        i = next((i for i, r in enumerate(rows) if re.match(r"\s*%d\s" % c.pid, r)), None)
        return i is not None and any(re.search(r"(^|\s|-)" + re.escape(group) + r"(\s|$)", r) for r in rows[:i])
    sc.wait(under_group, f"the workload under its group {group!r} in the group view")


@screen_case
def live_kernel_threads(c, sc):
    sc.start("-d", "0.5")
    sc.filter("kthreadd")
    time.sleep(1.5)
    check(not rows_named(sc.t.text(sc.s), "kthreadd"), "kernel threads are hidden at start")
    sc.keys("K")
    sc.wait(lambda x: rows_named(x, "kthreadd"), "K to show kthreadd")
    sc.keys("K")
    sc.wait(lambda x: not rows_named(x, "kthreadd"), "K again to hide it")


def pids_on_screen(text):
    return [int(m.group(1)) for r in tmuxlib.table_rows(text) if (m := re.match(r"\s*(\d+)\s", r))]


@screen_case
def live_sort(c, sc):
    sc.start("-d", "0.5")
    sc.keys("N")
    text = sc.wait(lambda x: len(pids_on_screen(x)) > 5 and pids_on_screen(x) == sorted(pids_on_screen(x)),
                   "N: rows by PID")
    first = pids_on_screen(text)
    sc.keys("N")
    sc.wait(lambda x: len(pids_on_screen(x)) > 5 and pids_on_screen(x) == sorted(pids_on_screen(x), reverse=True)
            and pids_on_screen(x) != first, "N again: the order inverted")


@screen_case
def live_detail(c, sc):
    sc.start("-d", "0.5", "-p", str(c.pid))
    sc.wait(lambda x: rows_of(x, c.pid), "the workload")
    sc.select(c.pid)
    sc.keys("i")
    sc.panel_until(f"Process {c.pid}: tvmx", "Voluntary", "the detail panel")


@screen_case
def replay_screen(c, sc):
    path = c.recs.get("batch") or record(c, "batch3", "-b", "-H", "-d", "0.5", "-n", "4", "-p", str(c.pid))
    sc.start("-r", path)
    sc.wait(lambda x: "Sample:" in x and rows_of(x, c.pid), "the replay's first sample")
    sc.keys("H")
    sc.wait(lambda x: any(rows_named(x, n) for n in THREADS), "H: thread rows")
    # each recorded thread found by a search: beside load the churn's threads, which
    # end late when starved, can fill the screen above them (tvmxs-2 last: its panel next)
    for n in ("tvmxs-1", "tvmxs-3", "pingA", "pingB", "tvmxs-2"):
        sc.keys("/")
        time.sleep(0.2)
        sc.type(n)
        sc.keys("Enter")
        text = sc.wait(lambda x: re.search(r"\b" + re.escape(n) + r"\b", tmuxlib.selected_row(sc.t, sc.s) or ""),
                       f"H: the search to select the recorded thread {n}")
        check_thread_states(c, text, (n,))
    sc.keys("i")
    sc.panel_until(f"of process {c.pid}: tvmxs-2", "Voluntary", "the detail panel of the thread")
    sc.keys("Escape")
    text = sc.wait(lambda x: "Voluntary" not in x and "Sample:" in x, "the panel closed")
    # a task that ended is listed, marked (as root: the recorder keeps them)
    if c.user is None:
        # step through the samples until one lists a thread that ended in its interval (which
        # ones do depends on when the churn's threads came and went against the samples)
        for _ in range(12):
            m = re.search(r"Sample: (\d+) of (\d+)", text)
            if "(exited)" in text or not m or m.group(1) == m.group(2):
                break
            sc.keys("f")
            text = sc.wait(lambda x, at=m.group(0): at not in x, "the next sample")
        check("(exited)" in text, f"an exited thread marked in a sample of the replay:\n{text}")


@screen_case
def replay_kernel_threads(c, sc):
    path = c.recs.get("all") or record(c, "all", "-b", "-d", "0.5", "-n", "3")
    sc.start("-r", path)
    sc.wait(lambda x: "Sample:" in x, "the replay")
    sc.filter("kthreadd")
    time.sleep(1.0)
    check(not rows_named(sc.t.text(sc.s), "kthreadd"), "kernel threads are hidden at start")
    sc.keys("K")
    sc.wait(lambda x: rows_named(x, "kthreadd"), "K to show the recorded kthreadd")


CASES = [batch_text, batch_json, batch_openmetrics, batch_filter_sort, record_without_b, record_with_b,
         replay_batch_text, live_folded, live_threads, live_tree, live_groups, live_kernel_threads, live_sort,
         live_detail, replay_screen, replay_kernel_threads]


def main():
    users = [None, NOBODY] if is_root() else [None]
    passed, failed, skipped = [], [], []
    for user in users:
        c = Ctx(user)
        try:
            for case in CASES:
                name = f"{c.name}/{case.__name__}"
                start = time.monotonic()
                try:
                    case(c)
                except Skip as e:
                    skipped.append(name)
                    print(f"SKIP {name}: {e}", flush=True)
                    continue
                except Exception:  # noqa: BLE001 - every case runs and is reported
                    failed.append(name)
                    print(f"FAIL {name}", flush=True)
                    traceback.print_exc(file=sys.stdout)
                    continue
                passed.append(name)
                print(f"ok   {name} ({time.monotonic() - start:.1f}s)", flush=True)
        finally:
            c.stop()
    print(f"{len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped")
    for f in failed:
        print(f"failed: {f}")
    return 1 if failed else 0 if passed else 77


if __name__ == "__main__":
    sys.exit(main())
