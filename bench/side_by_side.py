#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""taskview next to htop and top on the same workload, in one run.

Starts PROCS processes of THREADS threads (bench/load.c) that sleep for good
("sleepers"), then ones whose threads each wake WAKES times a second
("waking", as server threads on timers and queues do), and on each workload
runs each reader in its own tmux server at 200x50 with a 1 s refresh (--delay) and
measures the CPU time (user + system, its helper processes included) it spends
per refresh, and its resident size. The figure is CPU time per second of the
run times the interval: a reader whose scan takes longer than the interval
refreshes less often than asked and looks cheaper than it is, so at large
thread counts give an interval longer than the slowest scan (--delay 3 at
50,000 threads here). Readers alternate, ROUNDS times, so a change
of the machine's load hits them all alike; the ratios come from the same run.

    sudo python3 bench/side_by_side.py build/src/taskview [--procs 100 --threads 100]

Run as root on an otherwise idle machine; htop (Debian: htop) and top (procps)
are used when installed. taskview -H and htop also run as the user nobody
(no taskstats for taskview then; --root-only leaves that out). --latency
measures, for taskview -H, the time to the first screen and how long a key
waits for an answer while refreshes are being sampled.
"""
import argparse
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time

HZ = os.sysconf("SC_CLK_TCK")
HERE = os.path.dirname(os.path.abspath(__file__))


def tree_cpu_ticks(pid):
    """utime + stime of pid and of every process below it."""
    kids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                s = f.read().decode("utf-8", "replace")  # names may be any bytes
        except OSError:
            continue
        fields = s[s.rfind(")") + 2:].split()
        kids.setdefault(int(fields[1]), []).append((int(d), int(fields[11]) + int(fields[12])))
    total, todo = 0, [pid]
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            s = f.read().decode("utf-8", "replace")
        fields = s[s.rfind(")") + 2:].split()
        total += int(fields[11]) + int(fields[12])
    except OSError:
        return None
    while todo:
        for kid, ticks in kids.get(todo.pop(), []):
            total += ticks
            todo.append(kid)
    return total


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class Tmux:
    def __init__(self, home):
        self.sock = f"tvbench-{os.getpid()}"
        self.home = home

    def cmd(self, *args, check=True):
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True, text=True, check=check)

    def start(self, argv, user=None):
        if user:
            pw = pwd.getpwnam(user)  # nobody's group is nogroup on Debian
            argv = ["setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}", "--clear-groups", *argv]
        env = f"env TERM=xterm-256color HOME={self.home} XDG_CONFIG_HOME={self.home}/.config"
        # a server just told to stop may still hold the socket: wait for it to go
        for _ in range(50):
            r = self.cmd("new-session", "-d", "-s", "b", "-x", "200", "-y", "50", f"exec {env} " + " ".join(argv),
                         check=False)
            if r.returncode == 0:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"tmux new-session: {r.stderr.strip()}")
        return int(self.cmd("list-panes", "-t", "b", "-F", "#{pane_pid}").stdout.split()[0])

    def text(self):
        return self.cmd("capture-pane", "-p", "-t", "b", check=False).stdout

    def stop(self):
        self.cmd("kill-server", check=False)


def measure(tm, argv, user, warmup, seconds):
    """ms of CPU per 1 s refresh and RSS (KiB) of one reader."""
    pid = tm.start(argv, user)
    try:
        time.sleep(warmup)
        c0, t0 = tree_cpu_ticks(pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = tree_cpu_ticks(pid), time.monotonic()
        rss = rss_kib(pid)
        if c0 is None or c1 is None:
            return None, None
        return (c1 - c0) * 1000.0 / HZ / (t1 - t0), rss
    finally:
        tm.stop()
        time.sleep(0.5)


def latency(tm, tv, warmup):
    """Seconds to taskview -H's first table; delays of keys sent while it samples."""
    t0 = time.monotonic()
    tm.start([tv, "-d", "1", "-H", "--no-plugins"])
    first = None
    while time.monotonic() - t0 < 30:
        if "PID" in tm.text() and "F10" in tm.text():
            first = time.monotonic() - t0
            break
        time.sleep(0.01)
    time.sleep(warmup)
    waits = []
    for i in range(20):
        # F1 opens the help screen, Escape closes it: two answered keys
        before = tm.text()
        t = time.monotonic()
        tm.cmd("send-keys", "-t", "b", "F1")
        while time.monotonic() - t < 5 and tm.text() == before:
            time.sleep(0.002)
        waits.append(time.monotonic() - t)
        tm.cmd("send-keys", "-t", "b", "Escape")
        time.sleep(0.137 * (i % 7 + 1))  # land at different phases of the refresh
    tm.stop()
    return first, waits


def start_load(load, procs, threads, wakes):
    """The workload, once every thread runs; None when it did not start."""
    # at nice 0 whatever the harness runs at (nice -n -10 on a busy machine
    # lets the readers be scheduled; the workload stays an ordinary one)
    lp = subprocess.Popen([load, str(procs), str(threads), f"{wakes:g}"], stdout=subprocess.PIPE, text=True,
                          preexec_fn=lambda: os.nice(-os.nice(0)))
    if lp.stdout.readline().strip() != "ready":
        stop_load(lp)
        return None
    return lp


def stop_load(lp):
    lp.terminate()
    lp.wait()


def run_workload(a, tm, readers, label):
    """Each reader, round by round, alternating; prints the table with the ratios of this run."""
    cpu = {r[0]: [] for r in readers}
    rss = {}
    for _ in range(a.rounds):
        for name, argv, user in readers:
            ms, kib = measure(tm, argv, user, a.warmup, a.seconds)
            cpu[name].append(ms * a.delay if ms is not None else None)
            rss[name] = kib
    best = {k: min(v) for k, v in cpu.items() if v and None not in v}
    print(f"\n{label}")
    print(f"{'reader':24} {'ms CPU per refresh':>28} {'RSS KiB':>8} {'x top':>6} {'x htop':>7} {'RSS x htop':>10}")
    for name, _, user in readers:
        vals = " ".join(f"{v:.1f}" if v is not None else "-" for v in cpu[name])
        ref_top = best.get("top")
        ref_htop = best.get("htop (nobody)" if user else "htop")
        rss_htop = rss.get("htop (nobody)" if user else "htop")
        xt = f"{best[name] / ref_top:.2f}" if ref_top and name in best else "-"
        xh = f"{best[name] / ref_htop:.2f}" if ref_htop and name in best else "-"
        xr = f"{rss[name] / rss_htop:.2f}" if rss_htop and rss.get(name) else "-"
        print(f"{name:24} {vals:>28} {rss[name] or 0:>8} {xt:>6} {xh:>7} {xr:>10}")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("taskview")
    ap.add_argument("--procs", type=int, default=100)
    ap.add_argument("--threads", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--delay", type=float, default=1.0,
                    help="refresh interval of every reader (s); longer than the slowest reader's scan")
    ap.add_argument("--warmup", type=float, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--wakes", type=float, default=5, help="wake-ups per second of each thread of the waking workload")
    ap.add_argument("--workloads", default="sleepers,waking", help="comma-separated: sleepers, waking")
    ap.add_argument("--root-only", action="store_true", help="leave out the runs as the user nobody")
    ap.add_argument("--latency", action="store_true", help="first screen and key latency of taskview -H")
    ap.add_argument("--only", help="comma-separated reader names")
    a = ap.parse_args()
    tv = os.path.abspath(a.taskview)
    tmp = tempfile.mkdtemp(prefix="tvbench-")
    os.chmod(tmp, 0o755)
    load = os.path.join(tmp, "load")
    subprocess.run(["cc", "-O2", "-pthread", "-o", load, os.path.join(HERE, "load.c")], check=True)
    pid_max = None
    need = a.procs * a.threads + 5000
    with open("/proc/sys/kernel/pid_max") as f:
        cur = int(f.read())
    if need > cur:
        pid_max = cur
        with open("/proc/sys/kernel/pid_max", "w") as f:
            f.write(str(max(need * 2, 4194304)))
    tm = Tmux(tmp)
    lp = None
    try:
        readers = []
        d = f"{a.delay:g}"
        htop_d = str(round(a.delay * 10))  # tenths of a second
        if shutil.which("top"):
            readers.append(("top", ["top", "-d", d], None))
        if shutil.which("htop"):
            readers.append(("htop", ["htop", "-d", htop_d], None))
        readers += [("taskview", [tv, "-d", d, "--no-plugins"], None),
                    ("taskview -H", [tv, "-d", d, "-H", "--no-plugins"], None)]
        if not a.root_only:
            if shutil.which("htop"):
                readers.append(("htop (nobody)", ["htop", "-d", htop_d], "nobody"))
            readers.append(("taskview -H (nobody)", [tv, "-d", d, "-H", "--no-plugins"], "nobody"))
        if a.only:
            keep = set(a.only.split(","))
            readers = [r for r in readers if r[0] in keep]
        for w in a.workloads.split(","):
            wakes = a.wakes if w == "waking" else 0
            lp = start_load(load, a.procs, a.threads, wakes)
            if not lp:
                sys.exit("the workload did not start")
            nthreads = sum(len(os.listdir(f"/proc/{d}/task")) for d in os.listdir("/proc") if d.isdigit()
                           and os.path.isdir(f"/proc/{d}/task"))
            how = f"each waking {wakes:g} times a second" if wakes else "sleeping"
            run_workload(a, tm, readers, f"{w}: {a.procs} processes x {a.threads} threads, {how}; "
                         f"{nthreads} threads on the machine")
            if a.latency:
                first, waits = latency(tm, tv, a.warmup)
                waits.sort()
                print(f"taskview -H: first screen after {first:.2f} s; keys answered in "
                      f"{waits[0] * 1000:.0f}..{waits[-1] * 1000:.0f} ms (median {waits[len(waits) // 2] * 1000:.0f})")
            stop_load(lp)
            lp = None
    finally:
        tm.stop()
        if lp:
            stop_load(lp)
        if pid_max:
            with open("/proc/sys/kernel/pid_max", "w") as f:
                f.write(str(pid_max))
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
