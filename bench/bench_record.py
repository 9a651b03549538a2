# SPDX-License-Identifier: GPL-2.0-or-later
"""What recording costs next to batch JSON sampling of the same tasks, and
how large a recording grows.

Runs, at the same time (so both see the same tasks and the same load),
  taskview -b --format json -o all -d D -n N [ARGS]   (every column, as a recording reads; output not kept)
  taskview -w FILE -d D -n N [ARGS]              (recording only)
and compares the CPU time each spent per sample: the `self.cpu_ms` taskview
reports for every sample (getrusage between two refreshes: the sampling, and
the output or the recording of the sample before), from the JSON output and
from the replay of the recording. Start-up is left out. Then the size: bytes
per process and sample, and MB per day at that interval.

With --procs P it first starts idle processes (sleep) until the machine has P.

Usage: bench_record.py TASKVIEW [--delay D] [--samples N] [--repeat R] [--procs P] [TASKVIEW ARGS...]
(e.g. -H: threads too)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def proc_count():
    return sum(1 for p in os.listdir("/proc") if p.isdigit())


def per_sample(lines):
    """self.cpu_ms of every sample that has it, and the processes of each."""
    cpu, procs = [], []
    for line in lines:
        d = json.loads(line)
        if d["self"]["cpu_ms"] is not None:
            cpu.append(d["self"]["cpu_ms"])
        procs.append(sum(1 for t in d["tasks"] if t["kind"] == "process" and not t.get("exited")))
    return cpu, procs


def one_round(tv, delay, samples, args, tmp):
    rec = os.path.join(tmp, "bench.tvr")
    if os.path.exists(rec):
        os.unlink(rec)
    common = ["-d", str(delay), "-n", str(samples), *args]
    # every column, as a recording reads
    j = subprocess.Popen([tv, "-b", "--format", "json", "-o", "all", *common], stdout=subprocess.PIPE, text=True)
    w = subprocess.Popen([tv, "-w", rec, *common])
    out, _ = j.communicate()
    w.wait()
    if j.returncode or w.returncode:
        sys.exit(f"taskview failed: json {j.returncode}, record {w.returncode}")
    jcpu, _ = per_sample(out.splitlines())
    r = subprocess.run([tv, "-r", rec, "-b", "--format", "json", *args], capture_output=True, text=True, check=True)
    wcpu, procs = per_sample(r.stdout.splitlines())
    return jcpu, wcpu, procs, os.path.getsize(rec), samples + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("taskview")
    ap.add_argument("--delay", type=float, default=1.0)
    ap.add_argument("--samples", type=int, default=120)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--procs", type=int, default=0)
    a, a.args = ap.parse_known_args()
    sleepers = []
    try:
        while a.procs and proc_count() < a.procs:
            sleepers.append(subprocess.Popen(["sleep", "100000"]))
        with tempfile.TemporaryDirectory() as tmp:
            for k in range(a.repeat):
                jcpu, wcpu, procs, size, n = one_round(a.taskview, a.delay, a.samples, a.args, tmp)
                jm, wm = statistics.median(jcpu), statistics.median(wcpu)
                ps = statistics.mean(procs)
                per = size / (n * ps)
                day = size / (n * a.delay) * 86400 / 1e6
                print(f"round {k + 1}: {ps:.0f} processes; CPU ms per sample, median (mean): "
                      f"json {jm:.2f} ({statistics.mean(jcpu):.2f}), record {wm:.2f} ({statistics.mean(wcpu):.2f}), "
                      f"record/json {wm / jm:.2f} ({statistics.mean(wcpu) / statistics.mean(jcpu):.2f}); "
                      f"{size} bytes for {n} samples: {per:.1f} bytes per process-sample, "
                      f"{day:.1f} MB per day at -d {a.delay:g}", flush=True)
    finally:
        for s in sleepers:
            s.kill()
            s.wait()


if __name__ == "__main__":
    main()
