# SPDX-License-Identifier: GPL-2.0-or-later
"""What a refresh reads, counted: a regression guard that does not depend on time.

Each JSON sample says how many /proc files taskview opened and read and how
many taskstats queries it sent in that refresh ("self"). On sleeping
workloads these counts are exact, so the budgets below are equalities or
tight bounds: a change that reads a file twice, reopens what it keeps, or
reads every thread where a process sum would do, fails here.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import Skip, Workload, check, is_root, main, run  # noqa: E402

NOBODY = "65534"
PROCS = 4
SLEEPERS = 20  # threads besides the main one
# every refresh: /proc/loadavg, /proc/pressure/{cpu,io,memory} and taskview's own statm, kept open
SYSTEM = 5


def selves(pids, *args, user=None, n=4, env=None):
    r = run("-b", "--format", "json", "--no-plugins", "-p", ",".join(str(p) for p in pids), "-d", "0.2",
            "-n", str(n), *args, user=user, env=env)
    check(r.returncode == 0, r.stderr)
    docs = [json.loads(line) for line in r.stdout.split("\n") if line]
    # the first printed sample may still read what the priming one started (command lines)
    return docs, [d["self"] for d in docs[1:]]


def workloads():
    return [Workload("--sleepers", str(SLEEPERS), "--name", "tv-cost") for _ in range(PROCS)]


def test_folded_reads_two_files_per_process():
    ws = workloads()
    try:
        pids = [w.pid for w in ws]
        for user in (None, NOBODY):
            # no switch or delay columns: stat and status of each process, and loadavg
            docs, ss = selves(pids, "-o", "pid,cpu,vm_rss,comm", user=user)
            for s in ss:
                check(s["proc_reads"] == 2 * PROCS + SYSTEM, f"reads: {s}")
                check(s["proc_opens"] == 0, f"kept files are not opened again: {s}")
                check(s["taskstats_queries"] == 0, f"queries: {s}")
                check(s["kept_fds"] >= 2 * PROCS, f"kept: {s}")
    finally:
        for w in ws:
            w.stop()


def test_folded_switch_sums():
    ws = workloads()
    try:
        pids = [w.pid for w in ws]
        cols = "pid,cpu,ctxt_vol_rate,cpu_delay,comm"
        docs, ss = selves(pids, "-o", cols)
        state = docs[0]["delayacct"]["state"]
        if is_root() and state in ("on", "off"):
            # one group query per process, no thread file
            for s in ss:
                check(s["proc_reads"] == 2 * PROCS + SYSTEM, f"root reads: {s}")
                check(s["taskstats_queries"] == PROCS, f"root queries: {s}")
        # without taskstats: every thread's schedstat (kept open), and no status
        # of a thread that did not run (its switch counts cannot have changed)
        docs, ss = selves(pids, "-o", cols, user=NOBODY)
        threads = PROCS * (SLEEPERS + 1)
        for s in ss:
            check(s["taskstats_queries"] == 0, f"nobody queries: {s}")
            check(s["proc_opens"] <= 2, f"nobody opens (a sleeper may wake): {s}")
            check(threads + 2 * PROCS + SYSTEM <= s["proc_reads"] <= threads + 2 * PROCS + SYSTEM + 4,
                  f"nobody reads {s['proc_reads']}, expected about {threads + 2 * PROCS + SYSTEM}")
    finally:
        for w in ws:
            w.stop()


def test_threads_shown():
    ws = workloads()
    try:
        pids = [w.pid for w in ws]
        threads = PROCS * (SLEEPERS + 1)
        # columns that need no per-thread file: with taskstats, one query per thread row
        cols = "pid,cpu,ctxt_vol_rate,cpu_delay,comm"
        no_bpf = dict(os.environ, TASKVIEW_READER="proc")
        docs, ss = selves(pids, "-H", "-o", cols, env=no_bpf)
        if is_root() and docs[0]["delayacct"]["state"] in ("on", "off"):
            for s in ss:
                check(s["reader"] == "proc", f"TASKVIEW_READER=proc: {s}")
                check(s["proc_reads"] == 2 * PROCS + SYSTEM, f"root -H reads: {s}")
                check(s["proc_opens"] == 0, f"root -H opens: {s}")
                check(s["taskstats_queries"] == PROCS + threads, f"root -H queries: {s}")
        # the BPF reader, where it runs: every thread in its one pass, no file or query per thread
        docs, ss = selves(pids, "-H", "-o", cols, env=dict(os.environ, TASKVIEW_READER="bpf"))
        for s in ss:
            if s["reader"] != "bpf":
                continue
            check(s["proc_reads"] == 2 * PROCS + SYSTEM, f"BPF -H reads: {s}")
            check(s["proc_opens"] == 0, f"BPF -H opens: {s}")
            ts = docs[0]["delayacct"]["state"] in ("on", "off")
            check(s["taskstats_queries"] == (PROCS if ts else 0), f"BPF -H queries: {s}")
        docs, ss = selves(pids, "-H", "-o", cols, user=NOBODY)
        for s in ss:
            check(threads + 2 * PROCS + SYSTEM <= s["proc_reads"] <= threads + 2 * PROCS + SYSTEM + 4,
                  f"nobody -H reads {s['proc_reads']}")
            check(s["proc_opens"] <= 4, f"nobody -H opens: {s}")
        # the state column: one stat per thread row printed, nothing more
        docs, ss = selves(pids, "-H", "-o", "pid,state,cpu,comm")
        # without taskstats (no privilege, or a build without it) each thread's CPU is its schedstat
        ts = is_root() and docs[0]["delayacct"]["state"] in ("on", "off")
        for s in ss:
            check(s["proc_reads"] <= 2 * PROCS + SYSTEM + threads + (0 if ts else threads + 4),
                  f"-H with states: {s}")
    finally:
        for w in ws:
            w.stop()


def cgroup2_mount():
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, right = line.split(" - ", 1)
            if right.split(" ", 1)[0] == "cgroup2":
                return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), left.split(" ")[4])
    return None


def expected_group_reads(mount, doc):
    """What a refresh reads of the groups of a sample: cgroup.procs of each
    group with a process of its own, then each group's cpu.stat (its CPU),
    memory and pressure files that exist (swap only with memory). The hierarchy's
    cgroup.controllers, which says why a group has no memory, is read at the
    start and then every 30 refreshes only."""
    groups = [t for t in doc["tasks"] if t["kind"] == "group"]
    procs = [t for t in doc["tasks"] if t["kind"] == "process"]
    n = sum(1 for g in groups if any(p["cgroup"] == g["cgroup"] for p in procs))
    for g in groups:
        d = os.path.join(mount, g["cgroup"].lstrip("/"))
        mem = os.path.exists(os.path.join(d, "memory.current"))
        n += mem + (mem and os.path.exists(os.path.join(d, "memory.swap.current")))
        n += sum(os.path.exists(os.path.join(d, f"{r}.pressure")) for r in ("cpu", "io", "memory"))
        n += os.path.exists(os.path.join(d, "cpu.stat"))
    return n


def test_group_view_reads():
    """The group view reads no per-process file more than the list does (a
    process's group comes from its group's cgroup.procs), and each group's
    files once, however many processes it holds."""
    ws = workloads()
    try:
        pids = [w.pid for w in ws]
        cols = ("-o", "pid,cpu,vm_rss,cgroup,comm")
        _, folded = selves(pids, *cols)
        docs, grouped = selves(pids, *cols, "--group", "cgroup")
        _, one = selves(pids[:1], *cols, "--group", "cgroup")
        for f, g in zip(folded, grouped):
            check(g["proc_reads"] == f["proc_reads"] == 2 * PROCS + SYSTEM, f"proc reads: list {f}, groups {g}")
            check(g["proc_opens"] == 0, f"nothing opened again: {g}")
        # the cgroup column alone: the workloads' group lists them, nothing else is read of it
        _, column = selves(pids, "-o", "pid,cpu,cgroup,comm")
        for c in column:
            check(c["proc_reads"] == 2 * PROCS + SYSTEM and c["cgroup_reads"] == 1, f"cgroup column: {c}")
        mount = cgroup2_mount()
        for doc, g, o in zip(docs[1:], grouped, one):
            check(any(t["kind"] == "group" for t in doc["tasks"]) or doc["cgroups"]["reason"],
                  "groups, or why there are none")
            # the workloads are in the test's own group: one process or four, the same reads
            check(g["cgroup_reads"] == o["cgroup_reads"], f"{PROCS} processes {g}, one {o}")
            if mount and not doc["cgroups"]["reason"]:
                want = expected_group_reads(mount, doc)
                check(g["cgroup_reads"] == want, f"group files read {g['cgroup_reads']}, expected {want}")
    finally:
        for w in ws:
            w.stop()


def test_json_self_cost():
    docs, ss = selves([1], "-o", "pid")
    for s in ss:
        check(s["cpu_ms"] is not None and 0 <= s["cpu_ms"] < 1000, f"cpu_ms: {s}")
        check(s["rss_kib"] and s["rss_kib"] > 0, f"rss_kib: {s}")


if __name__ == "__main__":
    sys.exit(main([
        test_folded_reads_two_files_per_process,
        test_folded_switch_sums,
        test_threads_shown,
        test_group_view_reads,
        test_json_self_cost,
    ]))
