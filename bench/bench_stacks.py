#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What the stack columns cost: one process of many threads, with and without them.

Starts one tv-workload process with --idle N threads on default stacks (and
a few that touched known depths), then times one refresh (measure.py) of
that process with and without stack_size and stack_rss, folded and with its
threads shown (-H), and prints the ratio. The first refresh finds each
thread's stack mapping; the later ones read only its pages' present bits.
Run as root: the stacks of another user's process need ptrace permission.

With --wake-ms the threads wake that often (every thread runs in each
refresh's interval when it is shorter than the refresh): the stacks are then
read at every refresh, where idle ones are skipped.

usage: bench_stacks.py TASKVIEW WORKLOAD [--threads 1000] [--iterations 21] [--wake-ms MS]
"""
import argparse
import json
import subprocess
import sys

from measure import per_refresh_ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("taskview")
    ap.add_argument("workload")
    ap.add_argument("--threads", type=int, default=1000)
    ap.add_argument("--iterations", type=int, default=21)
    ap.add_argument("--wake-ms", type=int, default=0)
    a = ap.parse_args()
    w = subprocess.Popen([a.workload, "--stacks", "64,1024,4096", "--idle", str(a.threads - 4), "--seconds", "600"]
                         + (["--wake-ms", str(a.wake_ms)] if a.wake_ms else []),
                         stdout=subprocess.PIPE, text=True)
    try:
        pid = str(json.loads(w.stdout.readline())["pid"])
        base = [a.taskview, "-b", "--format", "json", "--no-plugins", "-d", "0.1", "-p", pid]
        without = "pid,vm_size,vm_rss,comm"
        with_ = "pid,vm_size,vm_rss,stack_size,stack_rss,comm"
        r = subprocess.run(base + ["-n", "1", "-o", with_], capture_output=True, text=True, check=True)
        proc = [t for t in json.loads(r.stdout)["tasks"] if t["kind"] == "process"][0]
        print(f"one process of {a.threads} threads: stacks reserve {proc['stack_size']} KiB, "
              f"{proc['stack_rss']} KiB resident")
        for name, extra in (("folded", []), ("threads shown (-H)", ["-H"])):
            off = per_refresh_ms(base + extra + ["-o", without], a.iterations)
            on = per_refresh_ms(base + extra + ["-o", with_], a.iterations)
            print(f"{name:20} without {off:7.2f} ms  with {on:7.2f} ms  ratio {on / off:5.2f}")
    finally:
        w.kill()
        w.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
