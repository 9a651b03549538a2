# SPDX-License-Identifier: GPL-2.0-or-later
"""Control groups on real cgroups with real workloads (as root).

The test makes its own groups below the cgroup2 mount (found in mountinfo):
taskview-test-PID with a "hog" group (a CPU burner and a ping-pong) and an
"io" group (an fdatasync loop), and where the hierarchy's root delegates
the memory controller, a "mem" group with a low memory.high. It checks the
group view against the members and the groups' own files, that a process
that moves is found in its new group, and that a host without a cgroup2
mount or without PSI (faked in a private mount namespace) shows groups and
pressure as unknown, with the reason, never as 0.

Creating a group below the mount changes nothing for any other process:
the groups hold the test's own workloads only, no controller is enabled in
a group the test did not create, and they are removed also when a check
fails; what a killed run leaves behind is removed by the next run (see
tests/README.md). Skips (77) unless root, with a cgroup2 mount.
"""
import errno
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import TASKVIEW, WORKLOAD, Skip, check, is_root, json_lines, main, reachable, run  # noqa: E402

PREFIX = "taskview-test-"
NOBODY = "65534"
RESOURCES = ("cpu", "io", "memory")
SUMMED = ("cpu", "ctxt_vol_rate", "ctxt_invol_rate", "cpu_delay", "io_delay")
COLUMNS = "pid,cpu,ctxt_vol_rate,ctxt_invol_rate,cpu_delay,io_delay,vm_rss,vm_swap,cpu_pressure,io_pressure," \
          "memory_pressure,cpu_pressure_full,io_pressure_full,memory_pressure_full,cgroup,comm"


def unescape(field):
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mounts():
    """(mount point, fstype, super options) of every mount, from mountinfo."""
    out = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, right = line.rstrip("\n").split(" - ", 1)
            fields = left.split(" ")
            fstype, _source, opts = right.split(" ", 2)
            out.append((unescape(fields[4]), fstype, opts))
    return out


def cgroup2_mount():
    for point, fstype, _ in mounts():
        if fstype == "cgroup2":
            return point
    return None


def read(path):
    with open(path) as f:
        return f.read()


def cpu_usage(group_dir):
    """The group's own cpu.stat usage_usec, or None."""
    try:
        for line in read(os.path.join(group_dir, "cpu.stat")).splitlines():
            k, v = line.split()
            if k == "usage_usec":
                return int(v)
    except OSError:
        pass
    return None


def check_group_cpu(g, k, docs, rel, lo, hi):
    """A group's CPU is its own cpu.stat: the usage it reports was read during
    the run, and its cpu column is that usage's growth over the interval."""
    grp = group_rows(docs[k])[rel]
    got = grp["cpu_stat"]["usage_usec"]
    check(got is not None and lo <= got <= hi, f"{rel} cpu.stat usage_usec {got} outside [{lo}, {hi}]")
    check("cpu" not in grp["partial"], f"{rel}: the group's own count is exact: {grp}")
    check(grp["time"] is None or abs(grp["time"] - got / 1e6) < 0.01, f"{rel}: time {grp['time']}, usage {got}")
    if k == 0:
        return
    prev = group_rows(docs[k - 1])[rel]["cpu_stat"]
    took = grp["cpu_stat"]["read_at"] - prev["read_at"]
    share = (got - prev["usage_usec"]) / (took * 1e6) * 100
    # between the group's own reads, which a busy machine may put far from the samples' starts
    check(grp["cpu"] is not None and abs(grp["cpu"] - share) <= 0.001 * share + 0.01,
          f"{rel}: cpu {grp['cpu']}, cpu.stat grew {share:.3f} % of the {took:.6f} s between its reads")


def pressure_totals(group_dir):
    """{resource: {"some": total_us, "full": total_us}} from the group's files; missing: {}."""
    out = {}
    for r in RESOURCES:
        try:
            text = read(os.path.join(group_dir, f"{r}.pressure"))
        except OSError:
            continue
        out[r] = {m.group(1): int(m.group(2)) for m in re.finditer(r"(some|full) .*total=(\d+)", text)}
    return out


def remove_tree(path):
    """rmdir a group and its nested groups, deepest first; a group still
    holding a dying process is busy for a moment: tried again for a while."""
    for top, dirs, _ in sorted(os.walk(path), key=lambda w: -w[0].count("/")):
        del dirs[:]
        for _ in range(100):
            try:
                os.rmdir(top)
                break
            except FileNotFoundError:
                break
            except OSError as e:
                if e.errno != errno.EBUSY:
                    raise
                time.sleep(0.05)


class Groups:
    """The test's own groups below the mount, removed with their workloads whatever happens."""

    def __init__(self, mount):
        self.mount = mount
        # at the top of the hierarchy: not below the test's own group, which
        # holds processes and so cannot hold nested groups in cgroup v2
        self.base = os.path.join(mount, f"{PREFIX}{os.getpid()}")
        self.procs = []
        self.sweep_stale()
        os.mkdir(self.base)

    def sweep_stale(self):
        """Groups a killed run left: their test process is gone."""
        for d in glob.glob(os.path.join(os.path.dirname(self.base), PREFIX + "*")):
            pid = d.rsplit("-", 1)[-1]
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                try:
                    remove_tree(d)
                except OSError:
                    pass

    def make(self, name):
        path = os.path.join(self.base, name)
        os.mkdir(path)
        return path

    def rel(self, path):
        """The group's path as taskview shows it (relative to the mount)."""
        return "/" + os.path.relpath(path, self.mount)

    def start(self, group_dir, *args):
        """A workload started inside the group: it moves itself there before exec."""
        procs_file = os.path.join(group_dir, "cgroup.procs")

        def enter():
            with open(procs_file, "w") as f:
                f.write(str(os.getpid()))
        p = subprocess.Popen([WORKLOAD, "--seconds", "120", *args], stdout=subprocess.PIPE, text=True,
                             preexec_fn=enter)
        self.procs.append(p)
        line = p.stdout.readline()
        if not line:
            raise RuntimeError("workload did not start")
        return json.loads(line)["pid"]

    def move(self, pid, group_dir):
        with open(os.path.join(group_dir, "cgroup.procs"), "w") as f:
            f.write(str(pid))

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()
        remove_tree(self.base)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def need_root_mount():
    if not is_root():
        raise Skip("needs root to make control groups")
    mount = cgroup2_mount()
    if not mount:
        raise Skip("no cgroup2 mount")
    return mount


def group_rows(doc):
    return {t["cgroup"]: t for t in doc["tasks"] if t["kind"] == "group"}


def process_rows(doc):
    return {t["pid"]: t for t in doc["tasks"] if t["kind"] == "process"}


def ended_left_out(doc):
    """A process may have ended in the sample's interval unseen, or was seen to
    end in a group not known: it may be missing from any group's sums (one that
    ended in a known group is in that group's sums)."""
    e = doc["exits"]
    return not e["watched"] or e["lost"] > 0 or e["unplaced"] is None or e["unplaced"] > 0


def check_sum(group, members, col, doc):
    """A group's value is its members' sum (no process of the test's groups
    ends); a lower bound when one member's is unknown or a lower bound, or when
    a process that ended in the interval may be left out (each is a rate);
    unknown when none is known."""
    vals = [m[col] for m in members]
    known = [v for v in vals if v is not None]
    if not known:
        check(group[col] is None, f"{col}: no member known, the group says {group[col]}")
        return
    # each member's value is rounded to 2 decimals in JSON, as is the sum
    check(abs(group[col] - sum(known)) <= 0.006 * (len(known) + 1),
          f"{col}: group {group['cgroup']} {group[col]}, members {vals}")
    short = len(known) < len(vals) or any(col in m["partial"] for m in members) \
        or ended_left_out(doc)
    check((col in group["partial"]) == short,
          f"{col}: lower bound {col in group['partial']}, expected {short} (members {vals})")


def run_arrivals(*args, user=None, timeout=180):
    """taskview's JSON Lines with the monotonic time each line arrived, and
    the time it was started: the window each sample's reads fell in."""
    cmd = [TASKVIEW, *args]
    if user:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", reachable(TASKVIEW, user), *args]
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="surrogateescape")
    docs, arrived = [], []
    try:
        for line in p.stdout:
            arrived.append(time.monotonic())
            docs.append(json.loads(line))
        err = p.stderr.read()
        rc = p.wait(timeout=timeout)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    check(rc == 0, err)
    return docs, [start] + arrived


def check_sample(g, k, docs, dirs, before, after, members_of, arrived=None, cpu_before=None, cpu_after=None):
    """One sample of the group view against the members and the groups' own files.
    arrived: when each line arrived, after the start (run_arrivals)."""
    doc = docs[k]
    groups, procs = group_rows(doc), process_rows(doc)
    check(set(groups) >= set(dirs), f"groups {sorted(groups)}, expected {sorted(dirs)}")
    for rel, pids in members_of.items():
        check(set(groups[rel]["pids"]) == pids, f"{rel} members: {groups[rel]['pids']}, expected {sorted(pids)}")
    controllers = read(os.path.join(g.mount, "cgroup.controllers")).split()
    for rel in dirs:
        grp = groups[rel]
        check(grp["pid"] is None, "a group has no PID")
        members = [procs[p] for p in grp["pids"]]
        for m in members:
            check(m["cpu_pressure"] is None, "pressure is unknown on process rows")
        for col in SUMMED:
            if col == "cpu" and cpu_before and cpu_before.get(rel) is not None:
                check_group_cpu(g, k, docs, rel, cpu_before[rel], cpu_after[rel])
                continue
            check_sum(grp, members, col, doc)
        # the pressure it reports was read from its own files during the run
        for res in RESOURCES:
            for half in ("some", "full"):
                got = grp["pressure"][res][half]
                lo = before[rel].get(res, {}).get(half)
                hi = after[rel].get(res, {}).get(half)
                if lo is None:
                    check(got is None, f"{rel} {res} {half}: no file, yet {got}")
                    continue
                check(got is not None and lo <= got["total_us"] <= hi,
                      f"{rel} {res}.pressure {half}: {got} outside [{lo}, {hi}]")
                # the column is the share of the interval, the same figure
                col = f"{res}_pressure" + ("_full" if half == "full" else "")
                check(grp[col] == got["pct"], f"{col}: {grp[col]} vs {got['pct']}")
                if k == 0:
                    check(got["pct"] is not None, f"{rel} {res} {half}: no share after the priming sample")
                else:
                    prev = group_rows(docs[k - 1])[rel]["pressure"][res][half]
                    grew = got["total_us"] - prev["total_us"]
                    share = grew / (doc["interval"] * 1e6) * 100
                    # a share of wall time; nothing stalled: exactly 0
                    check(0 <= got["pct"] <= 100.5, f"{rel} {res} {half}: {got['pct']}% of the interval")
                    check((grew == 0) <= (got["pct"] == 0), f"{rel} {res} {half}: {got['pct']}%, total unchanged")
                    # measured between the group's own reads, not between the samples'
                    # starts: on a quiet machine roughly the same; a busy one delays
                    # a read within its sample by seconds. The reads of samples k-1
                    # and k happened after the line before k-1 and before line k
                    # arrived: the time the share implies falls in that window.
                    if arrived is None:
                        check(abs(got["pct"] - share) <= 0.5 * share + 2.0,
                              f"{rel} {res} {half}: {got['pct']}% of the interval, the totals say {share:.2f}%")
                    elif got["pct"] >= 1.0:
                        implied = grew / (got["pct"] / 100) / 1e6
                        window = arrived[k + 1] - arrived[k - 1]
                        check(grew / 1e6 <= implied * 1.005 + 0.01 and implied <= window * 1.02 + 0.01,
                              f"{rel} {res} {half}: {got['pct']}% of {grew} us is {implied:.3f} s, yet the "
                              f"reads fell within {window:.3f} s (interval {doc['interval']:.3f} s, "
                              f"the totals over it say {share:.2f}%)")
        # memory: the group's own, or unknown with the reason
        if os.path.exists(os.path.join(dirs[rel], "memory.current")):
            check(grp["memory"]["current"] is not None and grp["vm_rss"] is not None,
                  f"{rel}: memory.current is there, yet {grp['memory']}")
        else:
            check(grp["memory"]["current"] is None and grp["vm_rss"] is None,
                  f"{rel}: no memory.current, yet {grp['memory']} / {grp['vm_rss']}")
            check(grp["memory"]["reason"], f"{rel}: unknown memory without a reason")
            if "memory" not in controllers:
                check("not in the cgroup v2 hierarchy" in grp["memory"]["reason"], grp["memory"]["reason"])


def test_group_sums_and_pressure():
    mount = need_root_mount()
    with Groups(mount) as g:
        hog, io = g.make("hog"), g.make("io")
        pids_hog = {g.start(hog, "--burn", "1", "--name", "tv-hog"), g.start(hog, "--ping", "--name", "tv-ping")}
        # threads that come and go: without taskstats (as nobody) their last
        # switches are missing, and the sums are lower bounds
        pids_io = {g.start(io, "--fsync", tempfile.gettempdir(), "--churn", "100:3000", "--name", "tv-fsync")}
        dirs = {g.rel(d): d for d in (g.base, hog, io)}
        members_of = {g.rel(hog): pids_hog, g.rel(io): pids_io, g.rel(g.base): pids_hog | pids_io}
        partial_seen = False
        for user in (None, NOBODY):
            before = {rel: pressure_totals(d) for rel, d in dirs.items()}
            cpu_before = {rel: cpu_usage(d) for rel, d in dirs.items()}
            docs, arrived = run_arrivals("-b", "--format", "json", "--no-plugins", "--group", "cgroup", "-c",
                                         os.path.basename(g.base), "-d", "1", "-n", "3", "-o", COLUMNS + ",time",
                                         timeout=180, user=user)
            after = {rel: pressure_totals(d) for rel, d in dirs.items()}
            cpu_after = {rel: cpu_usage(d) for rel, d in dirs.items()}
            for k in range(len(docs)):
                check_sample(g, k, docs, dirs, before, after, members_of, arrived, cpu_before, cpu_after)
            partial_seen |= any("ctxt_vol_rate" in group_rows(d)[g.rel(io)]["partial"] for d in docs)
            # the CPU burner shows in its group's sum
            hog_cpu = [group_rows(d)[g.rel(hog)]["cpu"] for d in docs]
            check(max(c or 0 for c in hog_cpu) > 20, f"hog group CPU {hog_cpu}")
        check(partial_seen, "as nobody, exiting threads make the io group's switch rate a lower bound")


def test_memory_pressure_child():
    mount = need_root_mount()
    # the memory controller is enabled only in a group of the test's own: it
    # must be delegated to the level the test's groups are made at already
    with Groups(mount) as g:
        if "memory" not in read(os.path.join(g.base, "cgroup.controllers")).split():
            raise Skip("the memory controller is not available to the test's group (here: "
                       + (read(os.path.join(mount, "cgroup.controllers")).strip() or "no controller") + ")")
        with open(os.path.join(g.base, "cgroup.subtree_control"), "w") as f:
            f.write("+memory")
        mem = g.make("mem")
        with open(os.path.join(mem, "memory.high"), "w") as f:
            f.write(str(4 << 20))
        # synced writes through a page cache held to 4 MiB: reclaim, memory pressure
        g.start(mem, "--fsync", tempfile.gettempdir(), "--name", "tv-memhigh")
        before = pressure_totals(mem)
        low = int(read(os.path.join(mem, "memory.current")))
        r = run("-b", "--format", "json", "--no-plugins", "--group", "cgroup", "-c", os.path.basename(g.base),
                "-d", "1", "-n", "3", "-o", COLUMNS, timeout=180)
        after = pressure_totals(mem)
        check(r.returncode == 0, r.stderr)
        for doc in json_lines(r.stdout):
            grp = group_rows(doc)[g.rel(mem)]
            cur = grp["memory"]["current"]
            check(cur is not None and grp["memory"]["reason"] is None, f"memory of the group: {grp['memory']}")
            check(grp["vm_rss"] == cur // 1024, f"RES of the group is memory.current: {grp['vm_rss']} vs {cur}")
            check(0 < min(cur, low) and cur < 64 << 20, f"memory.current {cur} (at start {low})")
            got = grp["pressure"]["memory"]["some"]
            check(before["memory"]["some"] <= got["total_us"] <= after["memory"]["some"],
                  f"memory.pressure some {got} outside the file's readings")


def test_membership_follows_moves():
    mount = need_root_mount()
    with Groups(mount) as g:
        a, b = g.make("a"), g.make("b")
        pid = g.start(a, "--sleepers", "2", "--name", "tv-mover")
        g.start(b, "--name", "tv-stay")
        # until a sample read after the last move (100 samples at most, a guard)
        p = subprocess.Popen([TASKVIEW, "-b", "--format", "json", "--no-plugins", "--group", "cgroup", "-c",
                              os.path.basename(g.base), "-d", "0.5", "-n", "100", "-o", "pid,cgroup,comm"],
                             stdout=subprocess.PIPE, text=True)
        try:
            docs, moves = [], []  # (samples read before it, time before it, time after it, group)
            for line in p.stdout:
                docs.append(json.loads(line))
                if len(docs) == 2:
                    t0 = time.time()
                    g.move(pid, b)          # into a group known from the last refresh
                    moves.append((len(docs), t0, time.time(), g.rel(b)))
                elif len(docs) == 4:
                    c = g.make("c")         # into a group no process was in
                    t0 = time.time()
                    g.move(pid, c)
                    moves.append((len(docs), t0, time.time(), g.rel(c)))
                elif len(moves) == 2 and docs[-1]["timestamp"] > moves[-1][2]:
                    break
        finally:
            p.terminate()
            p.wait(timeout=180)
        check(len(moves) == 2 and docs[-1]["timestamp"] > moves[-1][2], f"a sample after the moves: {len(docs)}")
        for i, doc in enumerate(docs):
            # a sample whose reads began before a move and that was not yet read by the test may
            # show either group: the move can fall between the refresh's start and its reads
            want = {g.rel(a)}
            for read, before, after, where in moves:
                if doc["timestamp"] > after:
                    want = {where}
                elif i >= read:
                    want = want | {where}
            procs = process_rows(doc)
            got = procs.get(pid, {}).get("cgroup")
            check(got in want, f"sample at {doc['timestamp']:.2f}: {pid} in {got}, expected {want} (moves {moves})")
            check(pid in group_rows(doc)[got]["pids"], f"{got} does not list {pid}")


def test_ended_processes_in_their_group():
    """A group whose processes live a few milliseconds each: its switch rates
    count them, from their exit records, as the kernel credits them to their
    parent at reap (getrusage RUSAGE_CHILDREN, the independent reading, with
    the /proc/PID/status of the children not reaped yet). An ended process
    whose group is not known leaves every group a lower bound."""
    mount = need_root_mount()
    with Groups(mount) as g:
        grp = g.make("forks")
        # 200 children a second, each burning 300 us and sleeping 20 times: 4,000
        # voluntary switches a second are theirs, about 250 the parent's
        g.start(grp, "--fork-churn", "200:300:20", "--report-ms", "100", "--name", "tv-forker")
        w = g.procs[-1]
        reports = []
        reader = threading.Thread(target=lambda: reports.extend(json.loads(x) for x in w.stdout), daemon=True)
        reader.start()
        r = run("-b", "--format", "json", "--no-plugins", "--group", "cgroup", "-c", g.rel(grp), "-d", "1",
                "-n", "8", "-o", "pid,ctxt_vol_rate,ctxt_invol_rate", timeout=180)
        check(r.returncode == 0, r.stderr)
        docs = json_lines(r.stdout)
        # a report after the last sample (a busy machine can hold one back for seconds)
        end = time.monotonic() + 60
        while not any(x["real"] > docs[-1]["timestamp"] for x in reports) and time.monotonic() < end:
            time.sleep(0.05)
        check(any(x["real"] > docs[-1]["timestamp"] for x in reports),
              f"a report of the workload after the last sample within 60 s ({len(reports)} reports, "
              f"reader {'alive' if reader.is_alive() else 'ended'})")
        w.kill()
        w.wait()
        reader.join(timeout=10)

        def at(t, key):
            """The reading at wall time t, between the two reports around it."""
            for a, b in zip(reports, reports[1:]):
                if a["real"] <= t <= b["real"]:
                    return a[key] + (t - a["real"]) / (b["real"] - a["real"]) * (b[key] - a[key])
            raise AssertionError(f"no report around {t} ({len(reports)} reports)")

        def total(t, kind):
            # the workload's own, its reaped children's, and those of its children not reaped yet
            # (alive, or ended and not waited for), read together: what the group holds at t
            return at(t, kind) + at(t, "child_" + kind) + at(t, "unreaped_" + kind)

        rows = [group_rows(d)[g.rel(grp)] for d in docs]

        def summed(first, last, col, kind):
            """Samples first..last each cover the interval from the one before: their
            sum is the whole, against the workload's count over the same window."""
            got = sum(rows[i][col] * docs[i]["interval"] for i in range(first, last + 1))
            truth = total(docs[last]["timestamp"], kind) - total(docs[first - 1]["timestamp"], kind)
            return got, truth

        got, truth = summed(2, len(docs) - 1, "ctxt_vol_rate", "nvcsw")
        # never high: a process counted twice would show here
        check(got <= truth * 1.04, f"voluntary switches {got:.0f}, the workload's {truth:.0f}")
        placed = all(d["exits"]["source"] == "bpf" and d["exits"]["lost"] == 0 for d in docs[2:])
        if placed:
            # the exit program names each process's group: low only by the few
            # children a busy machine hides from a refresh (one that vanished
            # between the listing and its read, or started in the tick the refresh
            # began: the marks below), never by their whole (they are 94 % of the
            # switches; 5.4 % short was seen beside CI's load). Without the exit
            # program, records of children never read alive carry no group
            check(got >= truth * 0.85, f"voluntary switches {got:.0f}, the workload's {truth:.0f}")
        # exact where taskview says it is: every record placed, and the row not
        # marked as a lower bound, over the longest run of such intervals (a child
        # alive at a run's ends is counted by its read here, and by the workload's
        # reading of its /proc/PID/status there)
        exact = [placed and "ctxt_vol_rate" not in row["partial"] for row in rows]
        runs = [(a, b) for a in range(2, len(docs)) for b in range(a, len(docs)) if all(exact[a:b + 1])]
        a, b = max(runs, key=lambda r: r[1] - r[0], default=(0, -1))
        if b - a >= 2:
            got, truth = summed(a, b, "ctxt_vol_rate", "nvcsw")
            print(f"     voluntary switches over samples {a}..{b}: {got:.0f}, the workload's {truth:.0f}")
            check(abs(got - truth) <= 0.04 * truth,
                  f"voluntary switches {got:.0f}, the workload's {truth:.0f}, samples {a}..{b}")
            # a child preempted after its exit record (tearing its memory down) is credited
            # those switches at reap, not in the record: on a busy machine the group's
            # involuntary switches read low by them, never high
            got, truth = summed(a, b, "ctxt_invol_rate", "nivcsw")
            check(got <= truth * 1.04 + 20, f"involuntary switches {got:.0f}, the workload's {truth:.0f}")
        for row, d in zip(rows[1:], docs[1:]):
            if ended_left_out(d):
                check("ctxt_vol_rate" in row["partial"], f"a process may be left out, unmarked: {d['exits']}")


def test_recording_keeps_the_group_filter():
    """-w PATH -c GROUP records the group's processes and nothing else: no live
    process of another group, and no process that ended (its group went with it,
    so it cannot be told to be the group's), while processes come and go beside."""
    mount = need_root_mount()
    with Groups(mount) as g, tempfile.TemporaryDirectory() as d:
        a = g.make("a")
        pid = g.start(a, "--sleepers", "1", "--name", "tv-recgrp")
        other = g.start(g.make("b"), "--name", "tv-recother")
        # processes that come and go outside the group, through the whole recording
        churn = subprocess.Popen(["sh", "-c", "while :; do /bin/true; done"])
        try:
            path = os.path.join(d, "g.tvr")
            r = run("-w", path, "-c", g.rel(a), "-d", "0.3", "-n", "4")
            check(r.returncode == 0, f"recording failed ({r.returncode}): {r.stderr}")
            docs = json_lines(run("-r", path, "-b", "--format", "json", "-o", "all").stdout)
        finally:
            churn.kill()
            churn.wait()
        live = [{t["pid"] for t in doc["tasks"] if t["kind"] == "process" and not t.get("exited")} for doc in docs]
        ended = [t["comm"] for doc in docs for t in doc["tasks"] if t["kind"] == "process" and t.get("exited")]
        check(len(docs) == 4 and all(p == {pid} for p in live), f"only {pid} of the group recorded, not {other}: {live}")
        check(not ended, f"ended processes of unknown groups recorded: {ended[:10]}")


def test_long_paths():
    """Groups nested deeper than a path of 4 KiB: the kernel cuts such a path in
    /proc/PID/cgroup (at 4095 bytes), and the cut path names no group. A process
    there has an unknown group, and no group is made up from the cut path; a
    process in a group with a long path that fits is shown in it."""
    mount = need_root_mount()
    with Groups(mount) as g:
        base_fd = os.open(g.base, os.O_RDONLY | os.O_DIRECTORY)
        # too deep to name in one path: made, entered and removed through descriptors
        names = [f"d{i:02d}" + "x" * 240 for i in range(20)]
        fds, procs = [], []
        try:
            cur = base_fd
            for n in names:
                os.mkdir(n, dir_fd=cur)
                cur = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=cur)
                fds.append(cur)
            paths = [g.rel(g.base) + "/" + "/".join(names[:i + 1]) for i in range(len(names))]
            mid = max(i for i, p in enumerate(paths) if len(p) < 4000)
            check(len(paths[-1]) > 4600, f"the deepest path is only {len(paths[-1])} bytes")

            def start_in(k, name):
                procs_fd = os.open("cgroup.procs", os.O_WRONLY, dir_fd=fds[k])
                try:
                    p = subprocess.Popen([WORKLOAD, "--seconds", "120", "--name", name], stdout=subprocess.PIPE,
                                         text=True, pass_fds=(procs_fd,),
                                         preexec_fn=lambda: os.write(procs_fd, str(os.getpid()).encode()))
                finally:
                    os.close(procs_fd)
                procs.append(p)
                return json.loads(p.stdout.readline())["pid"]

            deep, fits = start_in(len(names) - 1, "tv-deep"), start_in(mid, "tv-fits")
            with open(f"/proc/{deep}/cgroup") as f:
                cut = [line[3:].rstrip("\n") for line in f if line.startswith("0::")][0]
            check(len(cut) == 4095 and paths[-1].startswith(cut), f"the kernel gave {len(cut)} bytes of the path")
            r = run("-b", "--format", "json", "--no-plugins", "--group", "cgroup", "-n", "2", "-d", "0.3",
                    "-p", f"{deep},{fits}", "-o", "pid,cgroup,comm")
            check(r.returncode == 0, f"taskview failed: {r.stderr}")
            for doc in json_lines(r.stdout):
                rows = process_rows(doc)
                check(rows[deep]["cgroup"] is None, f"the deep process is in {str(rows[deep]['cgroup'])[-40:]!r} "
                      f"({len(rows[deep]['cgroup'] or '')} bytes), want unknown")
                check(rows[fits]["cgroup"] == paths[mid], f"the process in a long path that fits: "
                      f"{str(rows[fits]['cgroup'])[-40:]!r}, want ...{paths[mid][-40:]!r}")
                # every group shown is real: the fitting one and its ancestors
                real = {"/"} | {p for p in paths[:mid + 1]} | {g.rel(g.base)}
                made_up = [k for k in group_rows(doc) if k not in real]
                check(not made_up, f"groups that do not exist: {[k[-40:] for k in made_up]}")
        finally:
            for p in procs:
                p.kill()
                p.wait()
            for i in range(len(fds) - 1, -1, -1):
                for _ in range(100):
                    try:
                        os.rmdir(names[i], dir_fd=fds[i - 1] if i else base_fd)
                        break
                    except OSError as e:
                        if e.errno != errno.EBUSY:
                            raise
                        time.sleep(0.05)
                os.close(fds[i])
            os.close(base_fd)


def in_namespace(script, *tv_args):
    """taskview run by a shell in a private mount namespace after script
    (mounts there are seen by nothing else)."""
    cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c",
           script + ' && exec "$0" "$@"', TASKVIEW, *tv_args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if r.returncode != 0 and "unshare" in r.stderr:
        raise Skip(f"no private mount namespace: {r.stderr.strip()}")
    return r


JSON_ARGS = ("-b", "--format", "json", "--no-plugins", "--group", "cgroup", "-n", "2", "-d", "0.3", "-o", "all")


def test_no_cgroup_hierarchy():
    if not is_root() or not shutil.which("unshare"):
        raise Skip("needs root and unshare")
    # every cgroup mount unmounted in the namespace, deepest first
    points = sorted({p for p, fstype, _ in mounts() if fstype in ("cgroup", "cgroup2")}, key=len, reverse=True)
    if not points:
        raise Skip("no cgroup mount to hide")
    script = " && ".join(f"umount -l '{p}'" for p in points)
    r = in_namespace(script, *JSON_ARGS, "-p", "1")
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    for doc in json_lines(r.stdout):
        check(doc["cgroups"]["reason"] == "no control group hierarchy is mounted", f"reason: {doc['cgroups']}")
        kinds = [t["kind"] for t in doc["tasks"]]
        check(kinds == ["process"], f"no groups, the process listed: {kinds}")
        check(doc["tasks"][0]["pid"] == 1, "process 1 shown")


def test_cgroup2_mount_hidden():
    mount = cgroup2_mount()
    if not is_root() or not shutil.which("unshare") or not mount:
        raise Skip("needs root, unshare and a cgroup2 mount")
    empty = tempfile.mkdtemp()
    try:
        # the mount is still listed, its files are gone: groups from
        # /proc/PID/cgroup, with nothing of their own
        r = in_namespace(f"mount --bind '{empty}' '{mount}'", *JSON_ARGS, "-p", "1")
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        for doc in json_lines(r.stdout)[1:]:
            groups = [t for t in doc["tasks"] if t["kind"] == "group"]
            check(groups, "groups from /proc/PID/cgroup")
            for grp in groups:
                check(grp["memory"]["current"] is None and grp["memory"]["reason"], f"memory: {grp['memory']}")
                for res in RESOURCES:
                    check(grp["pressure"][res] == {"some": None, "full": None}, f"{res}: {grp['pressure'][res]}")
                check(grp["pressure"]["reason"], "unknown pressure says why")
                check(grp["cpu_pressure"] is None, "never 0")
            # the system's pressure is still there
            check(doc["pressure"]["cpu"]["some"] is not None, "system pressure read")
    finally:
        os.rmdir(empty)


def test_psi_missing():
    mount = cgroup2_mount()
    if not is_root() or not shutil.which("unshare") or not os.path.isdir("/proc/pressure"):
        raise Skip("needs root, unshare and /proc/pressure")
    empty = tempfile.mkdtemp()
    try:
        script = f"mount --bind '{empty}' /proc/pressure"
        if mount:
            script += f" && mount --bind '{empty}' '{mount}'"
        r = in_namespace(script, *JSON_ARGS, "-p", "1")
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        want = "the kernel has no pressure stall information (CONFIG_PSI)"
        for doc in json_lines(r.stdout):
            for res in RESOURCES:
                check(doc["pressure"][res] == {"some": None, "full": None}, f"system {res}: {doc['pressure'][res]}")
            check(doc["pressure"]["reason"] == want, f"reason: {doc['pressure']['reason']}")
            for grp in (t for t in doc["tasks"] if t["kind"] == "group"):
                check(grp["pressure"]["reason"] == want, f"group reason: {grp['pressure']['reason']}")
                check(grp["cpu_pressure"] is None and grp["io_pressure"] is None, "never 0")
        # text output: dashes
        r = in_namespace(script, "-b", "--no-plugins", "--group", "cgroup", "-p", "1", "-d", "0.3",
                         "-o", "pid,cpu_pressure,io_pressure,memory_pressure,comm")
        check(r.returncode == 0, r.stderr)
        first = [line for line in r.stdout.splitlines()[2:] if line.strip()][0]
        check(first.split()[1:4] == ["-", "-", "-"], f"group row: {first!r}")
    finally:
        os.rmdir(empty)


if __name__ == "__main__":
    if WORKLOAD == "tv-workload" and not shutil.which(WORKLOAD):
        print("SKIP: no workload")
        sys.exit(77)
    sys.exit(main([
        test_group_sums_and_pressure,
        test_memory_pressure_child,
        test_membership_follows_moves,
        test_ended_processes_in_their_group,
        test_recording_keeps_the_group_filter,
        test_long_paths,
        test_no_cgroup_hierarchy,
        test_cgroup2_mount_hidden,
        test_psi_missing,
    ]))
