#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What the three shipped plugins (io, oom, fds) cost per refresh, and what running them in a
helper process adds.

Starts P workload processes of T threads each (a fixed set of tasks), then runs taskview in
batch mode on them (-p) with the plugins loaded, once with no plugin column shown (the helper is
not asked) and once with all six shown; with -H too, so that every thread is a row. For each
case it reports per refresh, start-up excluded ((x(N) - x(1)) / (N - 1)):

- CPU time (user + system) of taskview and its helper, best of --repeat runs (measure.py);
- with --callgrind: instructions executed in user space, counted by valgrind's callgrind
  (other load on the machine does not change them; the kernel's share, the system calls, is
  not in them): by taskview and the helper in all, and the part spent on plugins: taskview's
  plugin host functions (inclusive: in a build without the helper that includes the plugins'
  own code) plus the whole helper. The total also holds taskview's scan of every process on
  the machine, which changes with what else runs; the plugin part does not. Keep the task
  count small: under valgrind a plugin runs many times slower and may go over its budget,
  which the script reports as an error.

Give a second build with --compare (one without the helper, say) to see the difference.

usage: bench_plugins.py TASKVIEW PLUGINDIR WORKLOAD [--compare TASKVIEW PLUGINDIR]
                        [--procs 50] [--threads 10] [--iterations 21] [--callgrind]
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

PLUGIN_COLS = "io.read_rate,io.write_rate,io.cancelled,oom.score,oom.adj,fds.count"


# Where plugin work is done in taskview's own process: the batch call (with the helper), or
# the calls of a build that ran plugins in its own process.
HOST_FUNCTIONS = re.compile(r"^(plugin_host_collect_all|plugin_host_begin|plugin_host_collect|plugin_host_end)$")


def callgrind_counts(cmd):
    """Instructions (Ir) executed: in all (taskview and every process it started), in the plugin
    helper, and inside taskview's plugin host functions (inclusive)."""
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes", "--log-file=/dev/null",
                            f"--callgrind-out-file={d}/cg.%p", *cmd],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
        if "disabled" in r.stderr:
            raise RuntimeError(f"a plugin was disabled under valgrind; use fewer tasks: {r.stderr}")
        total = helper = host = 0
        for f in glob.glob(os.path.join(d, "cg.*")):
            with open(f) as fh:
                head = fh.read(4096)
            ir = int(re.search(r"^summary: (\d+)", open(f).read(), re.M).group(1))
            total += ir
            if "--plugin-helper" in re.search(r"^cmd: (.*)$", head, re.M).group(1):
                helper += ir
                continue
            out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", f],
                                 capture_output=True, text=True, check=True).stdout
            for m in re.finditer(r"^\s*([\d,]+) +\([^)]*\) +\S+:(\w+) \[", out, re.M):
                if HOST_FUNCTIONS.match(m.group(2)):
                    host += int(m.group(1).replace(",", ""))
        return (total, helper, host)


def per_refresh(measure, cmd, n):
    many, one = measure(cmd + ["-n", str(n)]), measure(cmd + ["-n", "1"])
    return tuple((x - y) / (n - 1) for x, y in zip(many, one))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("taskview")
    ap.add_argument("plugindir")
    ap.add_argument("workload")
    ap.add_argument("--compare", nargs=2, metavar=("TASKVIEW", "PLUGINDIR"))
    ap.add_argument("--procs", type=int, default=50)
    ap.add_argument("--threads", type=int, default=10)
    ap.add_argument("--iterations", type=int, default=21)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--callgrind", action="store_true")
    a = ap.parse_args()
    if a.callgrind and not shutil.which("valgrind"):
        sys.exit("--callgrind needs valgrind")

    builds = [("this build", a.taskview, a.plugindir)]
    if a.compare:
        builds.append(("compared build", a.compare[0], a.compare[1]))
    procs = []
    try:
        for _ in range(a.procs):
            p = subprocess.Popen([a.workload, "--sleepers", str(a.threads - 1), "--seconds", "900"],
                                 stdout=subprocess.PIPE, text=True)
            json.loads(p.stdout.readline())
            procs.append(p)
        pids = ",".join(str(p.pid) for p in procs)
        print(f"{a.procs} processes of {a.threads} threads; {a.iterations - 1} refreshes per measurement")
        for label, tv, plugindir in builds:
            plugins = ["--no-plugins"]
            for name in ("io", "oom", "fds"):
                plugins += ["--plugin", os.path.join(plugindir, name + ".so")]
            base = [tv, "-b", "--format", "json", "-d", "0.1", "-p", pids, *plugins]
            cases = [
                ("processes, no plugin column", base + ["-o", "pid,cpu,comm"]),
                ("processes, the 6 plugin columns", base + ["-o", "pid,cpu,comm," + PLUGIN_COLS]),
                ("-H, no plugin column", base + ["-H", "-o", "pid,cpu,comm"]),
                ("-H, the 6 plugin columns", base + ["-H", "-o", "pid,cpu,comm," + PLUGIN_COLS]),
            ]
            print(f"\n{label}: {tv}")
            print(f"{'case':36} {'ms CPU':>8}" +
                  (f" {'Ir in all':>12} {'in plugins':>11} {'of which':>9}" if a.callgrind else ""))
            for name, cmd in cases:
                row = f"{name:36} {per_refresh_ms(cmd, a.iterations, a.repeat):8.2f}"
                if a.callgrind:
                    total, helper, host = per_refresh(callgrind_counts, cmd, a.iterations)
                    row += f" {total:12,.0f} {helper + host:11,.0f} {helper:9,.0f}"
                print(row, flush=True)
        if a.callgrind:
            print("\nIr: instructions per refresh (user space); in plugins: in taskview's plugin host functions"
                  "\n(inclusive) plus the helper; of which: in the helper")
    finally:
        for p in procs:
            p.kill()
            p.wait()


if __name__ == "__main__":
    main()
