# SPDX-License-Identifier: GPL-2.0-or-later
"""Record and replay against real workloads: the recorder prints the live JSON
of the very samples it records, and the replay of the file must give the same
values; damage (a cut end, flipped bytes, garbage) is skipped with a warning
and the rest shown; -H recordings replayed folded and unfolded; ended tasks
marked, with -b or without; time ranges and longer intervals; hostile files
(FIFOs too) never crash or hang."""
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import Skip, Workload, check, every_column, is_root, main, run  # noqa: E402

SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(SOURCE_DIR, "tests", "data")


def lines(out):
    return [json.loads(line) for line in out.splitlines()]


def record(path, *args, timeout=180):
    """Records with -b --format json: returns the live samples printed."""
    r = run("-w", path, "-b", "--format", "json", *every_column(args), timeout=timeout)
    check(r.returncode == 0, f"recording failed ({r.returncode}): {r.stderr}")
    return lines(r.stdout)


def replay(path, *args, ok=True, fmt="json"):
    r = run("-r", path, "-b", "--format", fmt, *(every_column(args) if fmt == "json" else args))
    if ok:
        check(r.returncode == 0, f"replay failed ({r.returncode}): {r.stderr}")
    return r


def live_part(doc):
    """The replayed sample without what only a replay shows: ended tasks, and
    the row of a leader listed only beside its ended threads (live, the one
    thread left is its leader, and that row would repeat its process's)."""
    d = dict(doc)
    live = [t for t in doc["tasks"] if not t.get("exited")]
    rows = {}
    for t in live:
        if t["kind"] == "thread":
            rows.setdefault(t["tgid"], []).append(t["pid"])
    lone = {tgid for tgid, pids in rows.items() if pids == [tgid]}
    d["tasks"] = [t for t in live if not (t["kind"] == "thread" and t["tgid"] in lone)]
    return d


def same_samples(live, replayed, where):
    check(len(live) == len(replayed), f"{where}: {len(live)} live samples, {len(replayed)} replayed")
    for i, (a, b) in enumerate(zip(live, replayed)):
        b = live_part(b)
        ended = {t["pid"] for t in replayed[i]["tasks"] if t.get("exited")}
        shown = {t["pid"] for t in a["tasks"]}
        # a step rejected in an ended task's interval is listed too
        extra = [x for x in b["rejected"] if x not in a["rejected"]]
        check(all(x["pid"] in ended or x["pid"] not in shown for x in extra),
              f"{where}: sample {i}: rejected steps of live tasks differ: {extra}")
        b["rejected"] = [x for x in b["rejected"] if x not in extra]
        if a == b:
            continue
        for k in a:
            if a[k] != b.get(k) and k != "tasks":
                raise AssertionError(f"{where}: sample {i}: {k}: live {a[k]!r}, replayed {b.get(k)!r}")
        check(len(a["tasks"]) == len(b["tasks"]),
              f"{where}: sample {i}: {len(a['tasks'])} live rows, {len(b['tasks'])} replayed")
        for x, y in zip(a["tasks"], b["tasks"]):
            diff = {k: (x[k], y.get(k)) for k in x if x[k] != y.get(k)}
            check(not diff, f"{where}: sample {i}, {x['kind']} {x['pid']}: live vs replayed {diff}")
        raise AssertionError(f"{where}: sample {i} differs")


def test_replay_gives_the_live_values():
    """Every process and thread of the machine, with a pipe ping-pong that
    switches thousands of times a second and threads that come and go."""
    with tempfile.TemporaryDirectory() as d, \
            Workload("--ping", "--sleepers", "3", "--churn", "20:5", "--name", "tv-rec") as w:
        path = os.path.join(d, "r.tvr")
        live = record(path, "-H", "-d", "0.5", "-n", "6")
        check(len(live) == 6, f"6 live samples, got {len(live)}")
        replayed = lines(replay(path, "-H").stdout)
        same_samples(live, replayed, "-H")
        # the workload as a user sees it, from the file alone
        last = replayed[-1]
        proc = [t for t in last["tasks"] if t["pid"] == w.pid and t["kind"] == "process"]
        check(len(proc) == 1, f"the workload {w.pid} replayed: {proc}")
        pings = [t for t in last["tasks"] if t["tgid"] == w.pid and t["comm"] in ("pingA", "pingB")]
        check(len(pings) == 2 and all(t["ctxt_vol_rate"] > 500 for t in pings),
              f"the ping threads switch hundreds of times a second: {pings}")
        # folded: the same processes, the same values, no thread rows
        folded = lines(replay(path).stdout)
        for i, (a, b) in enumerate(zip(live, folded)):
            check(all(t["kind"] == "process" for t in b["tasks"]), f"sample {i}: thread rows while folded")
            procs = [t for t in a["tasks"] if t["kind"] == "process"]
            check(live_part(b)["tasks"] == procs, f"sample {i}: folded process rows differ from the live ones")


def test_plugin_values_replayed():
    """The shipped plugins' columns are recorded with the samples: their
    counters' rates and their values come back the same, without the plugins."""
    build = os.environ.get("BUILD_DIR", "")
    mods = [os.path.join(build, "plugins", f"{n}.so") for n in ("io", "oom", "fds")]
    if not all(os.path.exists(m) for m in mods):
        raise Skip("the shipped plugins are not built (-Dplugins=false)")
    args = ["--no-plugins"]
    for m in mods:
        args += ["--plugin", m]
    with tempfile.TemporaryDirectory() as d, Workload("--fds", "40", "--name", "tv-plug") as w:
        path = os.path.join(d, "r.tvr")
        live = record(path, *args, "-d", "0.5", "-n", "3")
        replayed = lines(replay(path).stdout)
        same_samples(live, replayed, "plugins")
        mine = [t for t in replayed[-1]["tasks"] if t["pid"] == w.pid]
        check(mine and mine[0]["fds.count"] >= 40, f"the workload's open files: {mine}")
        r = replay(path, "-o", "pid,fds.count,io.read_rate", "-s", "fds.count")
        check(r.returncode == 0 and "fds.count" in r.stdout, "plugin columns selected and sorted in a replay")


def test_replay_of_a_folded_recording():
    """Recorded without -H: replayed with -H there are no threads to show,
    and the process values are the live ones; -o, -s, -R and -p work."""
    with tempfile.TemporaryDirectory() as d, Workload("--ping", "--sleepers", "2") as w:
        path = os.path.join(d, "r.tvr")
        live = record(path, "-d", "0.3", "-n", "3")
        same_samples(live, lines(replay(path, "-H").stdout), "recorded folded, replayed with -H")
        sel = lines(replay(path, "-o", "pid,cpu,ctxt_vol_rate", "-s", "pid", "-R", "-p", str(w.pid)).stdout)
        check(len(sel) == 3, "three samples")
        for doc in sel:
            rows = [t for t in doc["tasks"] if not t.get("exited")]
            check([t["pid"] for t in rows] == [w.pid], f"-p {w.pid} in a replay: {rows}")
            check(set(rows[0]) == {"kind", "pid", "tgid", "cpu", "ctxt_vol_rate", "partial"}, f"-o: {rows[0]}")
            # thousands a second quiet, hundreds beside CI's load (test_batch.py)
            check(rows[0]["ctxt_vol_rate"] > 200, f"ping rate {rows[0]['ctxt_vol_rate']}")
        text = replay(path, "-p", str(w.pid), fmt="text").stdout
        check(text.count("recorded on") == 3, f"text header names the host: {text[:300]}")


def test_group_view_replayed():
    """Recorded with --group cgroup: the replay with --group cgroup gives the
    live group rows (their members, sums, the group's own memory and
    pressure) and the system's pressure; the cgroup and unit columns of the
    processes come back without the group view too."""
    with tempfile.TemporaryDirectory() as d, Workload("--ping", "--sleepers", "2", "--name", "tv-grp") as w:
        path = os.path.join(d, "r.tvr")
        live = record(path, "--group", "cgroup", "-d", "0.5", "-n", "3")
        groups = [t for doc in live for t in doc["tasks"] if t["kind"] == "group"]
        if not groups:
            raise Skip(f"no control groups here: {live[0].get('cgroups')}")
        replayed = lines(replay(path, "--group", "cgroup").stdout)
        same_samples(live, replayed, "--group cgroup")
        last = replayed[-1]
        check(last["pressure"]["reason"] is not None or last["pressure"]["cpu"]["some"] is not None,
              f"the system's pressure replayed: {last['pressure']}")
        mine = [t for t in last["tasks"] if t.get("pid") == w.pid]
        check(len(mine) == 1 and mine[0]["cgroup"] is not None, f"the workload's group: {mine}")
        holder = [t for t in last["tasks"] if t["kind"] == "group" and w.pid in t["pids"]]
        check(len(holder) >= 1 and holder[-1]["cgroup"] == mine[0]["cgroup"],
              f"the workload under its group row: {[t['cgroup'] for t in holder]}")
        flat = lines(replay(path, "-o", "pid,cgroup,unit", "-p", str(w.pid)).stdout)
        rows = [t for t in flat[-1]["tasks"] if not t.get("exited")]
        check([(t["cgroup"], t["unit"]) for t in rows] == [(mine[0]["cgroup"], mine[0]["unit"])],
              f"the cgroup and unit columns without the group view: {rows}")
        text = replay(path, "--group", "cgroup", fmt="text").stdout
        check(text.count("recorded on") == 3 and mine[0]["unit"] in text, "the group view in text")
        # -c selects by the recorded group, as it does live
        none = lines(replay(path, "-c", "tv-no-such-group").stdout)
        check(all(not doc["tasks"] for doc in none), f"-c with no matching group: {none[-1]['tasks'][:3]}")
        same = lines(replay(path, "-o", "pid,cgroup", "-c", mine[0]["cgroup"]).stdout)
        kept = [t for t in same[-1]["tasks"] if not t.get("exited")]
        check(any(t["pid"] == w.pid for t in kept) and all(t["cgroup"] for t in kept),
              f"-c {mine[0]['cgroup']}: {kept[:5]}")


def test_exited_tasks_are_marked():
    """Processes that lived and died between two samples, and threads that
    did, appear in the replay, marked, with their final counters."""
    if not is_root():
        raise Skip("exit records need CAP_NET_ADMIN (run as root)")
    with tempfile.TemporaryDirectory() as d, Workload("--churn", "30:5", "--name", "tv-churn") as w:
        path = os.path.join(d, "r.tvr")
        script = "for i in $(seq 40); do sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; exit 3'; sleep 0.03; done"
        spawner = subprocess.Popen(["sh", "-c", script])
        try:
            record(path, "-H", "-d", "0.5", "-n", "5")
        finally:
            spawner.wait(timeout=60)
        docs = lines(replay(path, "-H").stdout)
        if not docs[-1]["exits"]["watched"]:
            raise Skip(f"exit records not watched: {docs[-1]['exits']['reason']}")
        ended = [t for doc in docs for t in doc["tasks"] if t.get("exited")]
        procs = [t for t in ended if t["kind"] == "process" and t["comm"] == "sh"]
        threads = [t for t in ended if t["kind"] == "thread" and t["tgid"] == w.pid and t["comm"] == "churn-child"]
        check(len(procs) >= 5, f"short-lived sh processes replayed as ended: {len(procs)}")
        check(all(t["state"] == "X" and t["time"] is not None for t in procs), f"ended, with CPU time: {procs[:3]}")
        # (their CPU share; the time column is rounded to 10 ms, about what one loop takes)
        check(any(t["cpu"] is not None and t["cpu"] > 0 for t in procs), f"the busy loops used CPU time: {procs[:3]}")
        check(len(threads) >= 5, f"churn threads replayed as ended under their process: {len(threads)}")
        # final counters from the exit records: each made five short sleeps, a voluntary
        # switch each, unless its microsecond passed before the thread slept (preempted
        # on a busy CPU, as CI's hogs make it: a run saw 0 of 5 for one thread of 78)
        counts = [t["ctxt_vol"] for t in threads]
        check(all(c is not None and c >= 0 for c in counts) and counts.count(5) > len(counts) / 2,
              f"final switch counts: {counts}")
        text = replay(path, "-H", "-o", "pid,state,cpu,comm", fmt="text").stdout
        check("(exited) sh" in text, "text marks ended processes")
        check("(exited) churn-child" in text, "text marks ended threads")


def pids_given(stop, out):
    """The PIDs the kernel gave out since the start, with the realtime, every
    20 ms (ns_last_pid, counted across a wrap of pid_max)."""
    with open("/proc/sys/kernel/pid_max") as f:
        pid_max = int(f.read())

    def last():
        with open("/proc/sys/kernel/ns_last_pid") as f:
            return int(f.read())
    was, total = last(), 0
    while True:
        now = last()
        total += (now - was) % pid_max
        was = now
        out.append((time.time(), total))
        if stop.is_set():
            return
        time.sleep(0.02)


def given_between(given, a, b):
    """At most how many PIDs were given out between realtimes a and b."""
    before = [n for t, n in given if t <= a]
    after = [n for t, n in given if t >= b]
    return (after[0] if after else given[-1][1]) - (before[-1] if before else 0)


def test_exited_threads_named_once():
    """A thread that ends between its listing and its query in the same
    refresh is recorded as ended once, with its name: it was reported a
    second time in the next sample, with an empty name (matrix, record_with_b,
    as root). A thread a millisecond makes that race common at -d 0.1."""
    if not is_root():
        raise Skip("exit records need CAP_NET_ADMIN (run as root)")
    with tempfile.TemporaryDirectory() as d, Workload("--churn", "1:0", "--name", "tv-once") as w:
        path = os.path.join(d, "r.tvr")
        given, stop = [], threading.Event()
        counter = threading.Thread(target=pids_given, args=(stop, given))
        counter.start()
        try:
            record(path, "-H", "-d", "0.1", "-n", "40", "-p", str(w.pid))
        finally:
            stop.set()
            counter.join()
        docs = lines(replay(path, "-H").stdout)
        if not docs[-1]["exits"]["watched"]:
            raise Skip(f"exit records not watched: {docs[-1]['exits']['reason']}")
        ended = {}
        for i, doc in enumerate(docs):
            for t in doc["tasks"]:
                if t["kind"] == "thread" and t["tgid"] == w.pid and t.get("exited"):
                    ended.setdefault(t["pid"], []).append((i, t["comm"]))
        check(len(ended) >= 100, f"ended churn threads replayed: {len(ended)}")
        unnamed = {tid: v for tid, v in ended.items() if any(not name for _, name in v)}
        check(not unnamed, f"ended threads without a name (sample, name): {list(unnamed.items())[:5]}")
        # Twice in a row is one thread reported twice, where the PIDs cannot have wrapped
        # over the two intervals (other tests' thread storms beside this one take the
        # 32,768 of a small machine in seconds): fewer than half of pid_max given out
        # over them, and half a second either side for the recorder's reads
        with open("/proc/sys/kernel/pid_max") as f:
            pid_max = int(f.read())
        short = {i for i in range(2, len(docs))
                 if given_between(given, docs[i - 2]["timestamp"] - 0.5, docs[i]["timestamp"] + 0.5) < pid_max // 2}
        check(len(short) >= 5, f"pairs of samples over which the PIDs cannot have wrapped: {len(short)} of "
                               f"{len(docs) - 2}")
        twice = {tid: v for tid, v in ended.items()
                 if any(b[0] - a[0] == 1 and b[0] in short for a, b in zip(v, v[1:]))}
        check(not twice, f"threads ended in two samples in a row: {list(twice.items())[:5]}")


def test_recorder_without_b_records_threads():
    """-w PATH -H records the threads and the ended threads whether or not
    -b prints the samples too (as the README runs it: without -b)."""
    with tempfile.TemporaryDirectory() as d, \
            Workload("--sleepers", "3", "--sleeper-name", "tv-recthr", "--churn", "30:5") as w:
        for how, args in (("without -b", []), ("with -b", ["-b", "--format", "json"])):
            path = os.path.join(d, f"r{len(args)}.tvr")
            r = run("-w", path, "-H", "-d", "0.5", "-n", "4", *args, timeout=180)
            check(r.returncode == 0, f"{how}: recording failed ({r.returncode}): {r.stderr}")
            docs = lines(replay(path, "-H").stdout)
            rows = [t for doc in docs for t in doc["tasks"] if t["kind"] == "thread" and t["tgid"] == w.pid]
            names = {t["comm"] for t in rows if not t.get("exited")}
            check({"tv-recthr-1", "tv-recthr-2", "tv-recthr-3"} <= names,
                  f"{how}: the workload's threads replayed: {sorted(names)}")
            text = replay(path, "-H", fmt="text").stdout
            check(", 0 threads;" not in text, f"{how}: the replay shows threads: {text.splitlines()[0]}")
            if is_root() and docs[-1]["exits"]["watched"]:
                ended = [t for t in rows if t.get("exited") and t["comm"] == "churn-child"]
                check(len(ended) >= 3, f"{how}: ended churn threads replayed: {len(ended)}")


def test_recording_keeps_the_text_filter():
    """-w PATH -F PATTERN records the processes the pattern names (by name,
    command line or a thread's name) and no others, with -b or without, as
    taskview(1) says of -w; a replay without -F shows that selection."""
    # names of this run's own: another build's suite may run this test beside it
    sel, fb = f"tvsel{os.getpid()}", f"tvrfb{os.getpid()}"
    with tempfile.TemporaryDirectory() as d, \
            Workload("--sleepers", "2", "--sleeper-name", sel, "--name", "tv-recf-a") as a, \
            Workload("--sleepers", "1", "--name", fb) as b:
        for pattern, want in ((fb, {b.pid}), (sel, {a.pid})):
            for how, args in (("without -b", []), ("with -b", ["-b", "--format", "json"])):
                path = os.path.join(d, f"f{len(args)}-{pattern}.tvr")
                r = run("-w", path, "-F", pattern, "-d", "0.3", "-n", "3", *args)
                check(r.returncode == 0, f"-F {pattern} {how}: recording failed ({r.returncode}): {r.stderr}")
                docs = lines(replay(path).stdout)
                live = [{t["pid"] for t in doc["tasks"] if t["kind"] == "process" and not t.get("exited")}
                        for doc in docs]
                check(len(docs) == 3 and all(p == want for p in live),
                      f"-F {pattern} {how}: only {want} recorded, replayed {live}")


def frames_of(path):
    """(offset, type, flags, header length, payload length) of each frame, as docs/recording.md lays them out."""
    with open(path, "rb") as f:
        data = f.read()
    out, off = [], 0
    while off + 36 <= len(data) and data[off:off + 4] == b"\x89TVR":
        hlen = int.from_bytes(data[off + 6:off + 8], "little")
        plen = int.from_bytes(data[off + 8:off + 12], "little")
        out.append((off, data[off + 4], data[off + 5], hlen, plen))
        off += hlen + plen
    return out


def test_damage_is_skipped_and_reported():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.tvr")
        # the test's own process only: small samples, three blocks of them
        record(path, "-d", "0.1", "-n", "150", "-p", str(os.getpid()))
        whole = lines(replay(path).stdout)
        check(len(whole) == 150, f"150 samples, got {len(whole)}")
        size = os.path.getsize(path)
        frames = frames_of(path)
        # flipped bytes in a sample of the middle block (of three: 60 samples
        # a block): a warning that says what was lost; the blocks before and
        # after shown
        starts = [i for i, fr in enumerate(frames) if fr[1] == 2 and fr[2] & 1]
        check(len(starts) >= 3, f"three blocks: {starts}")
        victim = frames[(starts[1] + starts[2]) // 2]
        at = victim[0] + victim[3]  # its payload
        bad = os.path.join(d, "flipped.tvr")
        shutil.copy(path, bad)
        with open(bad, "r+b") as f:
            f.seek(at)
            chunk = bytearray(f.read(min(16, victim[4])))
            f.seek(at)
            f.write(bytes(b ^ 0xA5 for b in chunk))
        r = replay(bad)
        got = lines(r.stdout)
        check("lost" in r.stderr, f"a warning says what was lost: {r.stderr!r}")
        check(0 < len(got) < 150, f"some samples shown, some lost: {len(got)}")
        times = {doc["timestamp"] for doc in got}
        check(whole[-1]["timestamp"] in times, "the samples after the damage are shown")
        check(whole[0]["timestamp"] in times, "the samples before the damage are shown")
        for doc in got:
            same = [w for w in whole if w["timestamp"] == doc["timestamp"]]
            check(same and same[0]["tasks"] == doc["tasks"], "a sample shown is the undamaged one")
        # the end cut in the middle of a frame: one sample lost, said so
        cut = os.path.join(d, "cut.tvr")
        shutil.copy(path, cut)
        os.truncate(cut, size - 20)
        r = replay(cut)
        check("cut short" in r.stderr, f"a warning for the cut end: {r.stderr!r}")
        check(len(lines(r.stdout)) == 149, "all but the cut sample shown")
        # garbage between two halves
        mixed = os.path.join(d, "mixed.tvr")
        with open(path, "rb") as f:
            data = f.read()
        with open(mixed, "wb") as f:
            f.write(data[: size // 3] + os.urandom(5000) + data[size // 3:])
        r = replay(mixed)
        check("damaged bytes" in r.stderr, f"garbage reported: {r.stderr!r}")
        check(len(lines(r.stdout)) >= 80, "the samples around the garbage are shown")


def test_ranges_and_longer_intervals():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.tvr")
        live = record(path, "-d", "0.2", "-n", "20", "-u", "0")
        t = [doc["timestamp"] for doc in live]
        got = lines(replay(path, "--begin", f"@{t[4] - 0.05:.3f}", "--end", f"@{t[14] + 0.05:.3f}").stdout)
        check([doc["timestamp"] for doc in got] == t[4:15], "--begin and --end select the samples between")
        two = lines(replay(path, "-d", "0.4").stdout)
        check(len(two) == 10, f"-d 0.4 over 0.2 s samples: every second one, got {len(two)}")
        # each spans two recorded intervals, as long as those were (a busy machine stretches them);
        # the first reaches back to the recording's first sample, which the live run did not print
        span = {b: b - a for a, b in zip(t, t[2:])}
        later = [doc for doc in two if doc["timestamp"] in span]
        check(len(later) >= len(two) - 1 and
              all(abs(doc["interval"] - span[doc["timestamp"]]) < 0.005 for doc in later),
              f"intervals of two recorded ones: {[(doc['timestamp'], doc['interval']) for doc in two]}, "
              f"spans {span}")
        check([doc["timestamp"] for doc in two] == t[1::2], "ending at every second sample")
        # a rate over two intervals is the mean of the two
        for k, doc in enumerate(two):
            a, b = live[2 * k], live[2 * k + 1]
            for task in doc["tasks"]:
                x = [y for y in a["tasks"] if y["pid"] == task["pid"]]
                z = [y for y in b["tasks"] if y["pid"] == task["pid"]]
                if not x or not z or task["time"] is None or x[0]["time"] is None:
                    continue
                # TIME is cumulative: the same as at the sample it ends at
                check(task["time"] == z[0]["time"], f"time of {task['pid']}")
        r = replay(path, "-d", "0.3", ok=False)
        check(r.returncode == 2 and "multiple" in r.stderr, f"-d 0.3 refused: {r.returncode} {r.stderr!r}")
        r = replay(path, "--begin", "@1", "--end", "@2", ok=False)
        check(r.returncode == 1 and "range" in r.stderr, f"an empty range: {r.returncode} {r.stderr!r}")
        out = replay(path, "-n", "3").stdout
        check(len(lines(out)) == 3, "-n limits the samples printed")


def test_daily_directory():
    with tempfile.TemporaryDirectory() as d:
        old = os.path.join(d, "taskview-2001-01-01.tvr")
        open(old, "w").close()
        live = record(d, "--keep", "1", "-d", "0.2", "-n", "2", "-u", "0")
        files = sorted(os.listdir(d))
        check(len(files) == 1 and files[0].startswith("taskview-") and files[0].endswith(".tvr"),
              f"today's file only: {files}")
        check(oct(os.stat(os.path.join(d, files[0])).st_mode & 0o777) == "0o640", "not readable by others")
        same_samples(live, lines(replay(d).stdout), "a directory")
        # a second recorder on the same file is refused while the first writes
        first = subprocess.Popen([os.environ.get("TASKVIEW", "taskview"), "-w", d, "-d", "0.2", "-u", "0"])
        try:
            # once the first holds its lock (/proc/locks: its pid and the file's inode)
            ino = f":{os.stat(os.path.join(d, files[0])).st_ino} "
            end = time.monotonic() + 120
            while time.monotonic() < end and first.poll() is None:
                with open("/proc/locks") as f:
                    if any(f" {first.pid} " in ln and ino in ln for ln in f):
                        break
                time.sleep(0.05)
            r = run("-w", os.path.join(d, files[0]), "-n", "1", "-d", "0.2")
            check(r.returncode == 1 and "another taskview" in r.stderr, f"refused: {r.returncode} {r.stderr!r}")
        finally:
            first.terminate()
            first.wait()
        # a FIFO of today's name: refused at once by the recorder and the reader (open() waited for a peer)
        fifos = tempfile.mkdtemp(dir=d)
        fifo = os.path.join(fifos, time.strftime("taskview-%Y-%m-%d.tvr"))
        os.mkfifo(fifo)
        for args in (("-w", fifos, "-n", "1", "-d", "0.2"), ("-r", fifos, "-b"), ("-r", fifo, "-b")):
            r = run(*args)
            if args[0] == "-w" and not os.path.basename(fifo) == time.strftime("taskview-%Y-%m-%d.tvr"):
                continue  # midnight came between: the recorder wrote the next day's file
            check(r.returncode == 1 and "not a regular file" in r.stderr, f"{args}: {r.returncode} {r.stderr!r}")
        r = run("-w", "/dev/full", "-n", "1")
        check(r.returncode == 1 and "/dev/full" in r.stderr, f"not a file: {r.returncode} {r.stderr!r}")
        r = run("-w", os.path.join(d, "f.tvr"), "--keep", "3", "-n", "1")
        check(r.returncode == 1 and "directory" in r.stderr, f"--keep with a file: {r.stderr!r}")
        # a directory for daily files that is missing is made, closed to others like its files
        new = os.path.join(d, "new")
        r = run("-w", new, "--keep", "3", "-n", "1")
        check(r.returncode == 0 and os.path.isdir(new), f"--keep made no directory: {r.stderr!r}")
        check(stat.S_IMODE(os.stat(new).st_mode) == 0o750, f"mode {oct(os.stat(new).st_mode)}")
        check(any(n.startswith("taskview-") and n.endswith(".tvr") for n in os.listdir(new)), os.listdir(new))
        r = run("-w", os.path.join(d, "none", "new"), "--keep", "3", "-n", "1")
        check(r.returncode == 1 and "cannot make the directory" in r.stderr, f"no parent: {r.stderr!r}")


def test_hostile_files_never_crash():
    """Garbage, empty files, zeros, and recordings with random damage: a
    message or the samples left, never a crash or a hang."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.tvr")
        record(path, "-H", "-d", "0.1", "-n", "70", "-u", "0")
        with open(path, "rb") as f:
            data = f.read()
        rng = random.Random(1234)
        cases = [b"", b"\0" * 10000, os.urandom(100000), data[:40], data[:len(data) // 2] * 3]
        for _ in range(40):
            b = bytearray(data)
            for _ in range(rng.randint(1, 30)):
                i = rng.randrange(len(b))
                b[i] = rng.randrange(256)
            if rng.random() < 0.3:
                i = rng.randrange(len(b))
                del b[i:i + rng.randint(1, 400)]
            cases.append(bytes(b))
        for k, c in enumerate(cases):
            p = os.path.join(d, f"h{k}.tvr")
            with open(p, "wb") as f:
                f.write(c)
            for fmt in ("json", "text"):
                r = run("-r", p, "-b", "--format", fmt, "-H")
                check(r.returncode in (0, 1), f"case {k} ({fmt}): exit {r.returncode}: {r.stderr[-500:]}")
                check("AddressSanitizer" not in r.stderr and "runtime error" not in r.stderr,
                      f"case {k}: {r.stderr[-2000:]}")
                if fmt == "json":
                    lines(r.stdout)  # what is printed is still JSON
        r = run("-r", d + "/nothing-here", "-b")
        check(r.returncode == 1, "a missing file")
        empty = os.path.join(d, "empty-dir")
        os.mkdir(empty)
        r = run("-r", empty, "-b")
        check(r.returncode == 1 and "no recordings" in r.stderr, f"a directory without recordings: {r.stderr!r}")


KEPT_COLUMNS = ("pid,tgid,user,state,cpu,time,threads,vm_rss,vm_pte,ctxt_vol,ctxt_vol_rate,cpu_delay,"
                "io_delay,io.read_rate,oom.score,fds.count,command")
KEPT_RUNS = (("json", "json", ["-H", "-o", "all"]), ("json", "d2.json", ["-d", "2", "-o", "all"]),
             ("text", "txt", ["-H", "-o", KEPT_COLUMNS]))


def kept_output(fmt, args):
    env = dict(os.environ, TZ="UTC", LC_ALL="C")
    return run("-r", os.path.join(DATA, "recording-v1.tvr"), "-b", "--format", fmt, *args, env=env)


def subset(want, got, where):
    """Everything in want is in got with the same value (a later version may add keys)."""
    if isinstance(want, dict):
        check(isinstance(got, dict), f"{where}: not an object")
        for k, v in want.items():
            check(k in got, f"{where}: {k} is gone")
            subset(v, got[k], f"{where}.{k}")
    elif isinstance(want, list):
        check(isinstance(got, list) and len(got) == len(want), f"{where}: {len(want)} items expected")
        for i, (a, b) in enumerate(zip(want, got)):
            subset(a, b, f"{where}[{i}]")
    else:
        check(want == got, f"{where}: {want!r} expected, got {got!r}")


def test_committed_recording_replays_forever():
    """A recording made by taskview 0.1.0 (format 1; a workload with ping-pong
    threads, threads and processes that came and went, three plugins), kept in
    tests/data: every later version must replay it to the same values. The
    expected outputs were made from it by this version (tests/data/README)."""
    for fmt, ext, args in KEPT_RUNS:
        r = kept_output(fmt, args)
        check(r.returncode == 0 and not r.stderr, f"replay of the kept recording: {r.returncode} {r.stderr}")
        with open(os.path.join(DATA, f"recording-v1.{ext}"), encoding="utf-8", errors="surrogateescape") as f:
            want = f.read()
        if fmt == "json":
            w, g = lines(want), lines(r.stdout)
            check(len(w) == len(g), f"{len(w)} samples expected, got {len(g)}")
            for i, (a, b) in enumerate(zip(w, g)):
                subset(a, b, f"{ext} sample {i}")
            continue
        # text: the first line names this version; the rest is the recording's
        got_l, want_l = r.stdout.splitlines(), want.splitlines()
        check(len(got_l) == len(want_l), "the same number of lines")
        for a, b in zip(got_l, want_l):
            if a.startswith("taskview "):
                a, b = a.split(" - ", 1)[1], b.split(" - ", 1)[1]
            check(a == b, f"text differs:\n  got  {a}\n  want {b}")
    # what it holds, as a user would check
    docs = lines(kept_output("json", ["-H", "-o", "all"]).stdout)
    check(len(docs) == 6, "six samples")
    ended = [t for d in docs for t in d["tasks"] if t.get("exited")]
    check(any(t["kind"] == "process" for t in ended) and any(t["kind"] == "thread" for t in ended),
          "ended processes and threads")
    pings = [t for t in docs[0]["tasks"] if t.get("comm") in ("pingA", "pingB")]
    check(len(pings) == 2 and all(t["ctxt_vol_rate"] > 100 for t in pings), "the ping-pong threads")
    check(all("fds.count" in t for t in docs[0]["tasks"]), "plugin columns")


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--write-kept-expectations":
        # after a deliberate change of output (tests/data/README): rewrites the expected files
        for fmt, ext, args in KEPT_RUNS:
            out = kept_output(fmt, args)
            check(out.returncode == 0, out.stderr)
            with open(os.path.join(DATA, f"recording-v1.{ext}"), "w", encoding="utf-8",
                      errors="surrogateescape") as f:
                f.write(out.stdout)
        sys.exit(0)
    sys.exit(main([
        test_replay_gives_the_live_values,
        test_plugin_values_replayed,
        test_replay_of_a_folded_recording,
        test_group_view_replayed,
        test_exited_tasks_are_marked,
        test_exited_threads_named_once,
        test_recorder_without_b_records_threads,
        test_recording_keeps_the_text_filter,
        test_damage_is_skipped_and_reported,
        test_ranges_and_longer_intervals,
        test_daily_directory,
        test_hostile_files_never_crash,
        test_committed_recording_replays_forever,
    ]))
