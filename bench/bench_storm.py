#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""taskview beside an exit storm, with htop and top on the same storm, in one run.

The storm is tv-workload --storm: threads that start and join empty threads,
and a process that forks empty children, as fast as the machine lets them (or
--rate starts a second): tasks that end at once, by the ten thousand a second,
as on a build server or a CI runner. Its rate is read from /proc/stat
("processes") over each run.

For each reader (BPF and /proc, TASKVIEW_READER) and mode, for --seconds at
-d 1 (a 1 s refresh):
  json    batch JSON of every column: the intervals and own CPU its samples give
  screen  the -H screen in tmux at 200x50: a refresh is a change of the header's
          "Own cost" or "Tasks" line (polled every 50 ms), own CPU from the
          process's CPU time
  record  the recorder (-w FILE -H): intervals from the recording's samples
and its resident memory every second (first, largest, last), then how long it
takes to end: q (screen), SIGTERM (json, record), and SIGHUP from a terminal that
goes away (the screen again, its tmux server killed). htop (-d 10) and top (-d 1)
run for as long under the same storm: their CPU per refresh and resident memory.

    sudo python3 bench/bench_storm.py build/src/taskview build/tests/tv-workload

Run as root on an otherwise idle machine: htop and top are used when installed.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from side_by_side import HZ, Tmux, rss_kib, tree_cpu_ticks  # noqa: E402


def starts():
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("processes "):
                return int(line.split()[1])
    return 0


class Storm:
    def __init__(self, workload, threads, rate):
        arg = f"{threads}:{rate}" if rate else str(threads)
        self.p = subprocess.Popen([workload, "--storm", arg, "--seconds", "36000", "--name", "tv-storm"],
                                  stdout=subprocess.PIPE, text=True)
        self.p.stdout.readline()  # ready

    def stop(self):
        self.p.terminate()
        self.p.wait()


def watch(pid, seconds, poll=None):
    """Resident KiB once a second for seconds (first, max, last); poll() every 50 ms in between."""
    rss = []
    end = time.monotonic() + seconds
    next_rss = time.monotonic()
    while time.monotonic() < end:
        if time.monotonic() >= next_rss:
            k = rss_kib(pid)
            if k:
                rss.append(k)
            next_rss += 1.0
        if poll:
            poll()
        time.sleep(0.05)
    return rss


def gone_after(pid, how, timeout=120):
    """Seconds until pid is gone after how() is done."""
    t0 = time.monotonic()
    how()
    while time.monotonic() - t0 < timeout:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
        except OSError:
            break
        time.sleep(0.005)
    return time.monotonic() - t0


def run_json(tv, env, seconds):
    # batch prints one sample unless -n says more: more than the run can take
    argv = [tv, "-b", "--format", "json", "-o", "all", "-d", "1", "-n", str(int(seconds) * 10)]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    docs = []
    import threading

    def read():
        for line in p.stdout:
            docs.append(json.loads(line))
    r = threading.Thread(target=read, daemon=True)
    r.start()
    rss = watch(p.pid, seconds)
    quit_s = gone_after(p.pid, lambda: p.send_signal(signal.SIGTERM))
    p.wait()
    r.join(5)
    iv = [d["interval"] for d in docs]
    cpu = [d["self"]["cpu_ms"] for d in docs if d["self"]["cpu_ms"] is not None]
    lost = sum(d["exits"]["lost"] for d in docs)
    recs = sum(d["exits"]["records"] for d in docs)
    return iv, cpu, rss, {"SIGTERM": quit_s}, f"{recs} records, {lost} lost"


def run_screen(tv, env, seconds, tmp):
    tm = Tmux(tmp)
    e = " ".join(f"{k}={v}" for k, v in env.items() if k == "TASKVIEW_READER")
    pid = tm.start(([f"env {e}"] if e else []) + [tv, "-d", "1", "-H", "--no-plugins"])
    changes = []
    last = [None]

    def poll():
        # a refresh changes the sample's lines: its own cost and the task counts
        # (one of them alone can read the same twice, and a refresh looked missed)
        lines = [ln for ln in tm.text().splitlines() if "Own cost:" in ln or ln.startswith("Tasks:")]
        key = "\n".join(lines) if len(lines) == 2 else None
        if key and key != last[0]:
            changes.append(time.monotonic())
            last[0] = key
    time.sleep(3)
    c0, t0 = tree_cpu_ticks(pid), time.monotonic()
    rss = watch(pid, seconds, poll)
    c1, t1 = tree_cpu_ticks(pid), time.monotonic()
    stale = "Stale:" in tm.text()
    quit_q = gone_after(pid, lambda: tm.cmd("send-keys", "-t", "b", "q"))
    tm.stop()
    # a terminal that goes away: SIGHUP
    pid = tm.start(([f"env {e}"] if e else []) + [tv, "-d", "1", "-H", "--no-plugins"])
    time.sleep(5)
    quit_hup = gone_after(pid, tm.stop)
    iv = [b - a for a, b in zip(changes, changes[1:])]
    refreshes = max(len(changes) - 1, 1)
    cpu = [(c1 - c0) * 1000.0 / HZ / refreshes] if c0 is not None and c1 is not None else []
    return iv, cpu, rss, {"q": quit_q, "SIGHUP": quit_hup}, "stale shown at the end" if stale else ""


def run_record(tv, env, seconds, tmp):
    path = os.path.join(tmp, "storm.tvr")
    p = subprocess.Popen([tv, "-w", path, "-d", "1", "-H"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env=env)
    c0 = tree_cpu_ticks(p.pid)
    rss = watch(p.pid, seconds)
    c1 = tree_cpu_ticks(p.pid)
    quit_s = gone_after(p.pid, lambda: p.send_signal(signal.SIGTERM))
    p.wait()
    r = subprocess.run([tv, "-r", path, "-b", "--format", "json", "-o", "pid"], capture_output=True, text=True,
                       env=env)
    docs = [json.loads(x) for x in r.stdout.splitlines() if x]
    iv = [d["interval"] for d in docs]
    cpu = [(c1 - c0) * 1000.0 / HZ / max(len(docs), 1)] if c0 is not None and c1 is not None else []
    size = os.path.getsize(path) if os.path.exists(path) else 0
    os.unlink(path) if os.path.exists(path) else None
    return iv, cpu, rss, {"SIGTERM": quit_s}, f"{len(docs) + 1} samples, {size // 1024} KiB"


def other(name, argv, seconds, tmp):
    tm = Tmux(tmp)
    pid = tm.start(argv)
    time.sleep(3)
    c0, t0 = tree_cpu_ticks(pid), time.monotonic()
    rss = watch(pid, seconds)
    c1, t1 = tree_cpu_ticks(pid), time.monotonic()
    tm.stop()
    return (c1 - c0) * 1000.0 / HZ / (t1 - t0), rss


def fmt(v, d=0):
    return "-" if v is None else f"{v:.{d}f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("taskview")
    ap.add_argument("workload", help="tv-workload (the build's tests/tv-workload)")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--threads", type=int, default=2, help="storm threads besides the forking process")
    ap.add_argument("--rate", type=int, default=0, help="starts a second in all (0: as many as can be)")
    ap.add_argument("--readers", default="bpf,proc")
    ap.add_argument("--modes", default="json,screen,record")
    a = ap.parse_args()
    tv = os.path.abspath(a.taskview)
    tmp = tempfile.mkdtemp(prefix="tvstorm-")
    os.chmod(tmp, 0o755)
    storm = Storm(os.path.abspath(a.workload), a.threads, a.rate)
    print(f"{'run':22} {'starts/s':>9} {'intervals s (max, median)':>26} {'own CPU ms (median)':>20} "
          f"{'RSS KiB first..max..last':>26} {'quit s':>18}  notes")
    try:
        for reader in a.readers.split(","):
            env = dict(os.environ, TASKVIEW_READER=reader)
            for mode in a.modes.split(","):
                s0, t0 = starts(), time.monotonic()
                if mode == "json":
                    iv, cpu, rss, quit, note = run_json(tv, env, a.seconds)
                elif mode == "screen":
                    iv, cpu, rss, quit, note = run_screen(tv, env, a.seconds, tmp)
                else:
                    iv, cpu, rss, quit, note = run_record(tv, env, a.seconds, tmp)
                rate = (starts() - s0) / (time.monotonic() - t0)
                ivs = f"{fmt(max(iv) if iv else None, 2)}, {fmt(statistics.median(iv) if iv else None, 2)}"
                rs = f"{rss[0]}..{max(rss)}..{rss[-1]}" if rss else "-"
                qs = " ".join(f"{k} {v:.2f}" for k, v in quit.items())
                print(f"{reader + ' ' + mode:22} {rate:>9.0f} {ivs:>26} "
                      f"{fmt(statistics.median(cpu) if cpu else None, 1):>20} {rs:>26} {qs:>18}  {note}")
                sys.stdout.flush()
        for name, argv in (("htop", ["htop", "-d", "10"]), ("top", ["top", "-d", "1"])):
            if not subprocess.run(["sh", "-c", f"command -v {argv[0]}"], capture_output=True).returncode == 0:
                continue
            s0, t0 = starts(), time.monotonic()
            ms, rss = other(name, argv, a.seconds, tmp)
            rate = (starts() - s0) / (time.monotonic() - t0)
            rs = f"{rss[0]}..{max(rss)}..{rss[-1]}" if rss else "-"
            print(f"{name:22} {rate:>9.0f} {'-':>26} {ms:>20.1f} {rs:>26}")
    finally:
        storm.stop()
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
