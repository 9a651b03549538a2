#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What the group view costs against the list (the folded view).

Starts --procs tv-workload processes of --threads threads; as root with a
cgroup2 mount and --groups N, spreads them over N control groups of its own
(removed afterwards), as a service manager would. Then measures, for the
whole system and for the workloads alone (-p):

  list          the default columns of a 120-column screen
  groups        --group cgroup with the same columns
  groups+psi    --group cgroup with the groups' pressure columns added

the CPU time of one refresh (measure.py: (cpu(N) - cpu(1)) / (N - 1), best
of --repeat, the cases taking turns), the files a refresh reads (the JSON "self" counts), and with
--callgrind the user-space instructions of one refresh (callgrind, exact
and repeatable, but blind to the kernel's side of each read).

usage: bench_groups.py TASKVIEW WORKLOAD [--procs 100] [--threads 10] [--groups 10]
                       [--iterations 21] [--repeat 5] [--callgrind]
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from measure import per_refresh_ms

COLS = "pid,user,state,cpu,threads,vm_rss,vm_pte,ctxt_vol_rate,ctxt_invol_rate,cpu_delay,io_delay,command"
PSI = "pid,user,state,cpu,threads,vm_rss,vm_pte,ctxt_vol_rate,ctxt_invol_rate,cpu_delay,io_delay," \
      "cpu_pressure,io_pressure,memory_pressure,command"


def cgroup2_mount():
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, right = line.split(" - ", 1)
            if right.split(" ", 1)[0] == "cgroup2":
                return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), left.split(" ")[4])
    return None


def self_counts(cmd):
    """The median refresh's JSON self counts."""
    out = subprocess.run(cmd + ["--format", "json", "-n", "5"], capture_output=True, text=True, check=True).stdout
    selves = [json.loads(line)["self"] for line in out.split("\n") if line][1:]
    return selves[len(selves) // 2]


def callgrind_per_refresh(cmd, n):
    """User-space instructions of one refresh: callgrind totals of N and 1 iterations."""
    def total(k):
        d = tempfile.mkdtemp()
        try:
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/cg.out", *cmd, "-n", str(k)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            with open(f"{d}/cg.out") as f:
                m = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
            return int(m.group(1))
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return (total(n) - total(1)) / (n - 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("taskview")
    ap.add_argument("workload")
    ap.add_argument("--procs", type=int, default=100)
    ap.add_argument("--threads", type=int, default=10)
    ap.add_argument("--groups", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=21)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--callgrind", action="store_true")
    a = ap.parse_args()

    mount = cgroup2_mount()
    base = None
    dirs = []
    if os.geteuid() == 0 and mount and a.groups > 0:
        base = os.path.join(mount, f"taskview-bench-{os.getpid()}")
        os.mkdir(base)
        for i in range(a.groups):
            dirs.append(os.path.join(base, f"svc{i}.service"))
            os.mkdir(dirs[-1])
    procs = []
    try:
        for i in range(a.procs):
            enter = None
            if dirs:
                target = os.path.join(dirs[i % len(dirs)], "cgroup.procs")

                def enter(target=target):
                    with open(target, "w") as f:
                        f.write(str(os.getpid()))
            p = subprocess.Popen([a.workload, "--sleepers", str(a.threads - 1), "--seconds", "900"],
                                 stdout=subprocess.PIPE, text=True, preexec_fn=enter)
            p.stdout.readline()
            procs.append(p)
        pids = ",".join(str(p.pid) for p in procs)
        tv = [a.taskview, "-b", "--no-plugins", "-d", "0.2"]
        scopes = [("the whole system", []), ("the workload processes", ["-p", pids])]
        cases = [("list", ["-o", COLS]), ("groups", ["-o", COLS, "--group", "cgroup"]),
                 ("groups+psi", ["-o", PSI, "--group", "cgroup"])]
        where = f"{len(dirs)} groups of its own" if dirs else "the bench's own group"
        print(f"{a.procs} processes of {a.threads} threads in {where}; "
              f"{a.iterations - 1} refreshes per measurement, best of {a.repeat}")
        for scope, extra in scopes:
            print(f"\n{scope}")
            print(f"  {'case':<12} {'ms CPU':>8} {'x list':>7} {'/proc reads':>12} {'cgroup reads':>13}"
                  + (f" {'instructions':>14}" if a.callgrind else ""))
            # the cases take turns, so that load that comes and goes on a shared
            # machine touches them alike; the best of each is kept
            best = {}
            for _ in range(a.repeat):
                for name, args in cases:
                    ms = per_refresh_ms(tv + extra + args, a.iterations, 1)
                    best[name] = min(best.get(name, ms), ms)
            base_ms = best["list"]
            for name, args in cases:
                cmd = tv + extra + args
                ms = best[name]
                sc = self_counts(cmd)
                line = f"  {name:<12} {ms:8.2f} {ms / base_ms:7.2f} {sc['proc_reads']:12d} {sc['cgroup_reads']:13d}"
                if a.callgrind:
                    line += f" {callgrind_per_refresh(cmd, 6):14.0f}"
                print(line, flush=True)
    finally:
        for p in procs:
            p.kill()
            p.wait()
        if base:
            for d in dirs:
                os.rmdir(d)
            os.rmdir(base)
        for d in glob.glob(os.path.join(mount or "/nonexistent", "taskview-bench-*")):
            pid = d.rsplit("-", 1)[-1]
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                for sub in glob.glob(os.path.join(d, "*.service")):
                    os.rmdir(sub)
                os.rmdir(d)


if __name__ == "__main__":
    sys.exit(main())
