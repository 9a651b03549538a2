#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""CPU cost of one taskview refresh on a box with many threads.

Starts P workload processes with T threads each (mostly sleeping), then runs
taskview in batch mode with N and 1 iterations for each configuration and
reports (cpu(N) - cpu(1)) / (N - 1): the user+system CPU of one refresh,
start-up excluded.

usage: bench_refresh.py TASKVIEW WORKLOAD [--procs 100] [--threads 100] [--iterations 21]
"""
import argparse
import json
import os
import subprocess
import sys

from measure import per_refresh_ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("taskview")
    ap.add_argument("workload")
    ap.add_argument("--procs", type=int, default=100)
    ap.add_argument("--threads", type=int, default=100)
    ap.add_argument("--iterations", type=int, default=21)
    a = ap.parse_args()

    procs = []
    started = 0  # threads the workloads really run (tv-workload caps them)
    try:
        for _ in range(a.procs):
            p = subprocess.Popen([a.workload, "--sleepers", str(a.threads - 1), "--seconds", "600"],
                                 stdout=subprocess.PIPE, text=True)
            started += 1 + len(json.loads(p.stdout.readline())["threads"])
            procs.append(p)
        pids = ",".join(str(p.pid) for p in procs)
        tv = [a.taskview, "-b", "--format", "json", "-d", "0.1"]
        default_cols = ["-o", "pid,user,state,cpu,threads,vm_size,vm_rss,vm_pte,ctxt_vol_rate,ctxt_invol_rate,"
                        "cpu_delay,io_delay,command"]
        cases = [
            ("all processes, default columns", tv + default_cols),
            ("all processes, no switch/delay columns", tv + ["-o", "pid,user,state,cpu,threads,vm_size,vm_rss,vm_pte,command"]),
            ("all processes, every column", tv + ["-o", "all"]),
            ("the workload processes, threads shown (-H)", tv + default_cols + ["-H", "-p", pids]),
            ("the workload, -H, no delay columns", tv + ["-H", "-p", pids, "-o", "pid,cpu,ctxt_vol_rate,comm"]),
            ("one workload process, -H", tv + default_cols + ["-H", "-p", str(procs[0].pid)]),
        ]
        print(f"{a.procs} processes, {started} workload threads ({a.threads} asked per process); "
              f"{a.iterations - 1} refreshes per measurement, best of 3")
        print(f"{'case':48} {'ms CPU/refresh':>15}")
        for name, cmd in cases:
            print(f"{name:48} {per_refresh_ms(cmd, a.iterations):15.2f}")
        if os.geteuid() == 0:
            nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            print(f"{'as nobody (no taskstats), default columns':48} "
                  f"{per_refresh_ms(nobody + tv + default_cols, a.iterations):15.2f}")
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


if __name__ == "__main__":
    sys.exit(main())
