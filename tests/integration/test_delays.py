# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-task delays against a real workload: CPU and block I/O delays, process
sums, and what taskview says when it cannot measure them (no permission,
switch off, built without taskstats).

The measuring tests need root and kernel.task_delayacct=1 (CI sets both) and
skip otherwise. The switch-off tests set the sysctl to 0 and restore it: a
change to the whole host (a task started meanwhile never gets delay accounting,
a killed run leaves it off, and no namespace confines it), so they run only
when the runner opts in with TASKVIEW_TEST_CHANGE_HOST=1 (or =only: those alone),
and skip otherwise; a package build does not opt in, and .ci/run runs them with =only
when nothing else runs. meson runs this file alone (is_parallel false) so no other
test of its run sees the change.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import Skip, Workload, changes_host, check, disk_dir, is_root, main, may_change_host, run, run_json  # noqa: E402

SYSCTL = "/proc/sys/kernel/task_delayacct"
NOBODY = 65534
DELAY_COLUMNS = [f"{c}_delay{s}" for c in ("cpu", "io", "swapin", "reclaim", "thrashing", "compact",
                                            "wpcopy", "irq") for s in ("", "_avg")]
COLUMNS = "pid,tgid,state,cpu,ctxt_vol_rate,ctxt_invol_rate," + ",".join(DELAY_COLUMNS) + ",comm"


def sysctl_value():
    try:
        with open(SYSCTL) as f:
            return f.read().strip()
    except OSError:
        return None


def set_sysctl(value):
    with open(SYSCTL, "w") as f:
        f.write(value)


def delay_state(user=None):
    doc = run_json("-p", "1", "-d", "0.1", "-o", "pid,cpu_delay", user=user)[0]
    return doc["delayacct"]


def need_measuring():
    """Root, the switch on, and a binary that can query: else skip."""
    if not is_root():
        raise Skip("needs root (CAP_NET_ADMIN) for taskstats")
    if sysctl_value() != "1":
        raise Skip("needs kernel.task_delayacct=1 (the CI script sets it)")
    st = delay_state()
    if st["state"] != "on":
        raise Skip(f"delay accounting state is {st['state']}: {st['message']}")


def need_taskstats():
    st = delay_state()
    if st["state"] == "unsupported":
        raise Skip(f"no taskstats here: {st['message']}")


def sample(pid, *extra, user=None, delay="1", env=None):
    docs = run_json("-H", "-p", str(pid), "-d", delay, "-o", COLUMNS, *extra, user=user, env=env)
    check(len(docs) == 1, f"one sample expected, got {len(docs)}")
    doc = docs[0]
    procs = [t for t in doc["tasks"] if t["kind"] == "process"]
    threads = [t for t in doc["tasks"] if t["kind"] == "thread"]
    check(len(procs) == 1 and procs[0]["pid"] == pid, f"one process row for {pid}: {procs}")
    return doc, procs[0], threads


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def schedstat(pid, tid):
    """The thread's run-queue wait so far (ns) and its time slices, from schedstat."""
    with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
        _, wait, slices = (int(x) for x in f.read().split())
    return wait, slices


def test_cpu_delay_two_spinners_on_one_cpu():
    """Two threads pinned to one CPU wait for it; the process sums them.

    A spinner is always either running or waiting for the CPU, so its cpu and
    cpu_delay add up to the interval, and it waits at least while its sibling
    runs. How long it waits depends on what else wants that CPU (about half the
    time on an idle machine, more on a busy one): the figure is compared with
    the spinner's own schedstat over the run around taskview's, not with a share
    of the machine the test cannot assume it has.

    A wait is counted when it ends: one that began before the interval adds all
    of itself to it, one still going at its end nothing. How much that moves a
    figure depends on how long waits are, which the test reads too (schedstat
    every 5 ms: the largest growth between two reads is at least the longest
    wait): the relations allow for such a wait at each end.
    """
    need_measuring()
    with Workload("--spin", "2") as w:
        tids = [w.threads[n] for n in ("spin-1", "spin-2")]
        longest = [0, 0]
        done = threading.Event()

        def watch():
            last = [schedstat(w.pid, t)[0] for t in tids]
            while not done.wait(0.005):
                now = [schedstat(w.pid, t)[0] for t in tids]
                for i in range(2):
                    longest[i] = max(longest[i], now[i] - last[i])
                last = now
        t0, before = time.monotonic(), [schedstat(w.pid, t) for t in tids]
        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            doc, proc, threads = sample(w.pid, delay="3")
        finally:
            done.set()
            watcher.join()
        after, t1 = [schedstat(w.pid, t) for t in tids], time.monotonic()
        check(doc["delayacct"]["state"] == "on", f"state {doc['delayacct']}")
        by_tid = {t["pid"]: t for t in threads}
        spinners = [by_tid[tid] for tid in tids]
        # per spinner: its wait over the run in % of it, and the longest wait at each end of taskview's interval
        truths = [(a[0] - b[0]) / 1e9 / (t1 - t0) * 100 for b, a in zip(before, after)]
        edges = [2 * x / 1e9 / doc["interval"] * 100 for x in longest]
        for t, sibling, truth, edge in zip(spinners, reversed(spinners), truths, edges):
            print(f"  {t['comm']}: cpu {t['cpu']} %, cpu_delay {t['cpu_delay']} %; schedstat over the run "
                  f"{truth:.1f} %, the longest wait {edge / 2:.1f} % of the interval")
            check(is_number(t["cpu_delay"]) and abs(t["cpu_delay"] - truth) <= 12 + edge,
                  f"{t['comm']}: cpu_delay {t['cpu_delay']} against {truth:.1f} % from schedstat over the run")
            check(t["cpu_delay"] >= sibling["cpu"] - 10 - edge,
                  f"{t['comm']}: waited {t['cpu_delay']} while its sibling ran {sibling['cpu']}")
            check(abs(t["cpu"] + t["cpu_delay"] - 100) <= 10 + edge,
                  f"{t['comm']}: running {t['cpu']} + waiting {t['cpu_delay']} should fill the interval")
            check(is_number(t["cpu_delay_avg"]) and t["cpu_delay_avg"] > 0,
                  f"{t['comm']}: cpu_delay_avg {t['cpu_delay_avg']}")
        check(abs(spinners[0]["cpu_delay"] - spinners[1]["cpu_delay"]) <= 15 + sum(edges),
              f"the two spinners share the CPU: {spinners[0]['cpu_delay']} vs {spinners[1]['cpu_delay']}")
        total = sum(t["cpu_delay"] for t in threads)
        check(abs(proc["cpu_delay"] - total) <= 0.05 * total + 3,
              f"process cpu_delay {proc['cpu_delay']} != sum of its threads {total}")
        # two threads each running or waiting all the time: about 100 % of each, 200 together
        check(abs(proc["cpu"] + proc["cpu_delay"] - 200) <= 20 + sum(edges),
              f"process cpu {proc['cpu']} + cpu_delay {proc['cpu_delay']} not about 200")
        check(proc["cpu_delay"] >= 50, f"process cpu_delay {proc['cpu_delay']} not about 100")
        # the leader (main thread) sleeps: a process row copying it would read about 0
        leader = by_tid[w.pid]
        check(leader["cpu_delay"] is not None and leader["cpu_delay"] < 5,
              f"leader thread cpu_delay {leader['cpu_delay']}")
        check(proc["cpu_delay"] > leader["cpu_delay"] + 45, "process row is the group's, not the leader's")

        # folded (no thread rows): the process row is still the group sum (over 1 s, a wait at
        # each end weighs three times what it does over 3 s)
        docs = run_json("-p", str(w.pid), "-d", "1", "-o", "pid,cpu,cpu_delay")
        rows = docs[0]["tasks"]
        check(len(rows) == 1 and rows[0]["kind"] == "process", f"only the process row: {rows}")
        r = rows[0]
        check(r["cpu_delay"] >= 50 and abs(r["cpu"] + r["cpu_delay"] - 200) <= 20 + 3 * sum(edges),
              f"folded process cpu {r['cpu']} + cpu_delay {r['cpu_delay']} not about 200")


def test_io_delay_fdatasync_writer():
    """A thread writing and fdatasync-ing a file on a disk waits for block I/O."""
    need_measuring()
    d = disk_dir()
    if not d:
        raise Skip("no writable directory on a disk-backed file system")
    with Workload("--fsync", d) as w:
        doc, proc, threads = sample(w.pid)
        by_tid = {t["pid"]: t for t in threads}
        t = by_tid[w.threads["fsync"]]
        check(is_number(t["io_delay"]) and t["io_delay"] > 0, f"fsync thread io_delay {t['io_delay']} in {d}")
        check(is_number(t["io_delay_avg"]) and t["io_delay_avg"] > 0,
              f"fsync thread io_delay_avg {t['io_delay_avg']}")
        check(is_number(proc["io_delay"]) and proc["io_delay"] > 0, f"process io_delay {proc['io_delay']}")
        total = sum(x["io_delay"] for x in threads)
        check(abs(proc["io_delay"] - total) <= 0.1 * total + 3,
              f"process io_delay {proc['io_delay']} != sum of its threads {total}")
        leader = by_tid[w.pid]
        check(leader["io_delay"] is not None and leader["io_delay"] < 1, f"leader io_delay {leader['io_delay']}")


def check_no_permission(doc, proc, threads, w):
    st = doc["delayacct"]
    check(st["state"] == "no-permission", f"state {st}")
    check(st["message"] and "CAP_NET_ADMIN" in st["message"], f"message names the capability: {st['message']}")
    for t in [proc, *threads]:
        # the CPU wait comes from schedstat, which needs no privilege; an
        # average needs a time slice in the interval
        check(is_number(t["cpu_delay"]), f"{t['kind']} {t['pid']}: cpu_delay {t['cpu_delay']} from schedstat")
        check(t["cpu_delay_avg"] is None or is_number(t["cpu_delay_avg"]), f"cpu_delay_avg: {t}")
        for c in DELAY_COLUMNS:
            if not c.startswith("cpu_"):
                check(t[c] is None, f"{t['kind']} {t['pid']}: {c} {t[c]} must be null without permission")
        for c in ("cpu", "ctxt_vol_rate", "ctxt_invol_rate"):
            check(is_number(t[c]), f"{t['kind']} {t['pid']}: {c} {t[c]} must still be measured")
    ping = {t["comm"]: t for t in threads}
    # thousands a second on a quiet machine; a busy one (CI's load, the sanitizers) holds them back
    check(ping["pingA"]["ctxt_vol_rate"] > 200, f"switch rates from /proc: {ping['pingA']['ctxt_vol_rate']}")
    check(proc["ctxt_vol_rate"] > 400, f"process switch rate summed over threads: {proc['ctxt_vol_rate']}")


def test_unprivileged_user():
    """Without CAP_NET_ADMIN: exit 0, state no-permission, null delays but the CPU wait, the rest measured."""
    need_taskstats()
    if is_root():
        with Workload("--ping", "--spin", "1", user=NOBODY) as w:
            r = run("-b", "--format", "json", "-H", "-p", str(w.pid), "-d", "1", "-o", COLUMNS, user=NOBODY)
            check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
            doc = json.loads(r.stdout)
            rows = doc["tasks"]
            procs = [t for t in rows if t["kind"] == "process"]
            check(len(procs) == 1, f"one process row: {rows}")
            check_no_permission(doc, procs[0], [t for t in rows if t["kind"] == "thread"], w)
    else:
        with Workload("--ping", "--spin", "1") as w:
            doc, proc, threads = sample(w.pid)
            check_no_permission(doc, proc, threads, w)


def switch_off_then(fn):
    """Runs fn with kernel.task_delayacct=0 and restores the old value."""
    may_change_host("switches kernel.task_delayacct off for the whole host")
    if not is_root():
        raise Skip("needs root to change kernel.task_delayacct")
    old = sysctl_value()
    if old is None:
        raise Skip("the kernel has no delay accounting switch")
    need_taskstats()
    try:
        set_sysctl("0")
        fn()
    finally:
        set_sysctl(old)


@changes_host
def test_switch_off():
    """Switch off: state off with a how-to, CPU delay still measured, the other classes null,
    whichever reader reads the threads (the BPF pass reads the kernel's counters directly)."""
    def one_reader(w, reader):
        tids = [w.threads["spin-1"], w.threads["spin-2"]]
        before = [schedstat(w.pid, t)[0] for t in tids]
        doc, proc, threads = sample(w.pid, env=dict(os.environ, TASKVIEW_READER=reader))
        after = [schedstat(w.pid, t)[0] for t in tids]
        if reader == "bpf" and doc["self"].get("reader") != "bpf":
            return  # no BPF pass here (test_bpf_reader says why)
        st = doc["delayacct"]
        check(st["state"] == "off", f"state {st}")
        check(st["message"] and "task_delayacct=1" in st["message"], f"message tells how: {st['message']}")
        by_tid = {t["pid"]: t for t in threads}
        # measured: the spinners wait on their shared CPU, how long depends on what else runs
        # there; at most what their schedstat counted over the whole run (the sample's window
        # lies inside it), a tick of slack
        for t, was, now in zip((by_tid[tid] for tid in tids), before, after):
            most = (now - was) / 1e9 / doc["interval"] * 100 + 1
            check(is_number(t["cpu_delay"]) and 0 < t["cpu_delay"] <= most,
                  f"{reader}: thread {t['pid']}: cpu_delay {t['cpu_delay']} is reported with the switch off "
                  f"(schedstat over the run: at most {most:.1f})")
        check(is_number(proc["cpu_delay"]) and proc["cpu_delay"] > 0,
              f"{reader}: process {proc['pid']}: cpu_delay {proc['cpu_delay']} is reported with the switch off")
        for t in [proc, *threads]:
            for c in DELAY_COLUMNS:
                if not c.startswith("cpu_"):
                    check(t[c] is None, f"{reader}: {t['kind']} {t['pid']}: {c} {t[c]} must be null when off")

    # started before the switch goes off, as the services on a host are, and after
    with Workload("--spin", "2") as before:
        def body():
            with Workload("--spin", "2") as after:
                for w in (before, after):
                    for reader in ("proc", "bpf"):
                        one_reader(w, reader)
        switch_off_then(body)


@changes_host
def test_switch_off_ended_processes():
    """Switch off: a process that started and ended between two samples, recorded
    with its final counters, has every class but CPU null too, in the replay."""
    def body():
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "off.tvr")
            churn = subprocess.Popen(["sh", "-c", "while :; do /bin/true; done"])
            try:
                r = run("-w", path, "-d", "0.5", "-n", "3")
            finally:
                churn.kill()
                churn.wait()
            check(r.returncode == 0, f"recording failed ({r.returncode}): {r.stderr}")
            docs = [json.loads(line) for line in run("-r", path, "-b", "--format", "json", "-o", "all").stdout.splitlines()]
            ended = [t for doc in docs for t in doc["tasks"] if t["kind"] == "process" and t.get("exited")]
            check(ended, "ended processes recorded (as root, from their exit records)")
            for t in ended:
                for c in DELAY_COLUMNS:
                    if not c.startswith("cpu_"):
                        check(t.get(c) is None, f"ended {t['pid']} ({t['comm']}): {c} {t.get(c)} must be null when off")
    switch_off_then(body)


def text_run(*args, user=None):
    # no plugins: their discovery notes (e.g. an unreadable $HOME as nobody) are not the subject
    r = run("-b", "--no-plugins", "-p", "1", "-d", "0.1", *args, user=user)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    return r.stderr


def test_text_hint_when_on():
    """Nothing on stderr when delays are measured."""
    need_measuring()
    err = text_run("-o", "pid,cpu_delay,io_delay,comm")
    check(err == "", f"no hint when on: {err!r}")


@changes_host
def test_text_hint_when_off():
    """One line on stderr with a delay column shown and the switch off; none without a delay column."""
    def body():
        err = text_run("-o", "pid,cpu_delay,io_delay,comm")
        lines = err.splitlines()
        check(len(lines) == 1, f"one hint line: {err!r}")
        check(lines[0].startswith("taskview: ") and "task_delayacct=1" in lines[0], f"hint: {lines[0]!r}")
        err = text_run("-o", "pid,cpu,comm")
        check(err == "", f"no hint without a delay column: {err!r}")
        r = run("-b", "--no-plugins", "--format", "json", "-p", "1", "-d", "0.1", "-o", "pid,cpu_delay")
        check(r.returncode == 0 and r.stderr == "", f"JSON carries the state, not a hint: {r.stderr!r}")
    switch_off_then(body)


def test_text_hint_without_permission():
    need_taskstats()
    user = NOBODY if is_root() else None
    err = text_run("-o", "pid,cpu_delay,comm", user=user)
    lines = err.splitlines()
    check(len(lines) == 1 and "CAP_NET_ADMIN" in lines[0], f"one hint line naming the capability: {err!r}")


def test_unsupported_build():
    """A build without taskstats (or a kernel without the family): state unsupported, delays null
    but the CPU wait, which every task's schedstat has."""
    st = delay_state()
    if st["state"] != "unsupported":
        raise Skip(f"taskstats is available (state {st['state']})")
    check(st["message"], "unsupported comes with a message")
    with Workload("--spin", "1") as w:
        doc, proc, threads = sample(w.pid, delay="0.5")
        for t in [proc, *threads]:
            # as without permission: an average needs a time slice in the interval
            check(is_number(t["cpu_delay"]), f"{t['kind']} {t['pid']}: the CPU wait from schedstat: {t}")
            check(t["cpu_delay_avg"] is None or is_number(t["cpu_delay_avg"]), f"cpu_delay_avg: {t}")
            for c in DELAY_COLUMNS:
                if not c.startswith("cpu_"):
                    check(t[c] is None, f"{t['kind']} {t['pid']}: {c} must be null")
            check(is_number(t["cpu"]) and is_number(t["ctxt_vol_rate"]), f"other columns measured: {t}")
    err = text_run("-o", "pid,cpu_delay,comm")
    check(len(err.splitlines()) == 1, f"one hint line: {err!r}")


if __name__ == "__main__":
    sys.exit(main([
        test_cpu_delay_two_spinners_on_one_cpu,
        test_io_delay_fdatasync_writer,
        test_unprivileged_user,
        test_switch_off,
        test_switch_off_ended_processes,
        test_text_hint_when_on,
        test_text_hint_when_off,
        test_text_hint_without_permission,
        test_unsupported_build,
    ]))
