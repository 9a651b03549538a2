#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""CPU cost of delay columns in one taskview refresh, on thousands of threads.

Starts P processes of T sleeping threads each (python3 threads: tv-workload
stops at 64), then runs taskview in batch mode with N and with 1 iteration
per case and reports (cpu(N) - cpu(1)) / (N - 1): the user+system CPU of one
refresh, start-up excluded, best of R. taskstats queries are answered inside
taskview's own sendmsg(), so their kernel time is in taskview's system time.

From the differences between cases it derives the cost of reading one
thread's task/TID/stat and of one taskstats query.

usage: bench_delays.py TASKVIEW [--procs 20] [--threads 200] [--iterations 21] [--repeat 3]
Needs root (CAP_NET_ADMIN) for the taskstats cases; the delay switch
(kernel.task_delayacct) does not change the cost of a query.
"""
import argparse
import os
import subprocess
import sys

from measure import per_refresh_ms

HOLDER = ("import sys, threading\n"
          "e = threading.Event()\n"
          "for _ in range(int(sys.argv[1]) - 1):\n"
          "    threading.Thread(target=e.wait, daemon=True).start()\n"
          "print('ready', flush=True)\n"
          "e.wait()\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("taskview")
    ap.add_argument("--procs", type=int, default=20)
    ap.add_argument("--threads", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=21)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()

    procs = []
    try:
        for _ in range(a.procs):
            p = subprocess.Popen([sys.executable, "-c", HOLDER, str(a.threads)], stdout=subprocess.PIPE,
                                 text=True)
            if p.stdout.readline().strip() != "ready":
                raise RuntimeError("thread holder did not start")
            procs.append(p)
        pids = ",".join(str(p.pid) for p in procs)
        tv = [a.taskview, "-b", "--no-plugins", "-d", "0.1", "-p", pids]
        plain = ["-o", "pid,cpu,comm"]
        delays = ["-o", "pid,cpu,cpu_delay,io_delay,comm"]
        cases = [
            ("folded", "processes only, pid,cpu,comm", tv + plain),
            ("folded_delays", "processes only, + cpu_delay,io_delay", tv + delays),
            ("threads", "-H, pid,cpu,comm", tv + plain + ["-H"]),
            ("threads_delays", "-H, + cpu_delay,io_delay", tv + delays + ["-H"]),
        ]
        nthreads = a.procs * a.threads
        print(f"{a.procs} processes x {a.threads} threads = {nthreads} threads; {a.iterations - 1} refreshes "
              f"per measurement, best of {a.repeat}; state of kernel.task_delayacct: "
              f"{open('/proc/sys/kernel/task_delayacct').read().strip()}")
        print(f"{'case':44} {'ms CPU/refresh':>15}")
        ms = {}
        for key, name, cmd in cases:
            ms[key] = per_refresh_ms(cmd, a.iterations, a.repeat)
            print(f"{name:44} {ms[key]:15.2f}")
        stat_us = (ms["threads"] - ms["folded"]) * 1000.0 / nthreads
        queries = nthreads + a.procs
        ts_us = (ms["threads_delays"] - ms["threads"]) * 1000.0 / queries
        print(f"per thread row (task/TID/stat and the row): {stat_us:.1f} us")
        print(f"per taskstats query ({queries} per refresh, pipelined): {ts_us:.1f} us")
        if os.geteuid() != 0:
            print("note: not root, so no taskstats queries were made; the delay cases measure nothing extra")
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


if __name__ == "__main__":
    sys.exit(main())
