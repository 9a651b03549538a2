#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A TID used again is a new task, never the old one's counters.

In a PID namespace of the test's own whose pid_max is 400 (the kernel keeps
it per namespace), a process starts a thread every millisecond, each living
two: its threads take TIDs that earlier ones had, several times a second.
taskview runs in that namespace (-H, the process and every thread), with
the /proc reader and with the BPF reader where it runs, and:
  - no thread row shows more CPU time or CPU wait than one CPU gives, nor
    more CPU time than its whole process used by its own count (getrusage);
  - the process's voluntary switch rate is at most what its own getrusage
    counts over the same window (it may be a marked lower bound: threads
    that lived between two samples are not seen without exit records);
  - its CPU % is what its own getrusage counts, within 20 %.
Root only (a PID namespace, its pid_max); skipped otherwise.
"""
import json
import os
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import TASKVIEW, WORKLOAD, Skip, check, is_root, json_lines, main  # noqa: E402

PID_MAX = 400  # the least the kernel takes: 301


class Namespaced:
    """tv-workload as the first process of a PID namespace with a small pid_max."""

    def __init__(self, *args):
        script = (f"echo {PID_MAX} > /proc/sys/kernel/pid_max || exit 3; "
                  f"exec {WORKLOAD} --seconds 120 " + " ".join(args))
        self.p = subprocess.Popen(["unshare", "-fp", "--mount-proc", "sh", "-c", script],
                                  stdout=subprocess.PIPE, text=True)
        line = self.p.stdout.readline()
        if not line:
            self.p.wait()
            raise Skip(f"no PID namespace with its own pid_max here (exit {self.p.returncode})")
        self.first = json.loads(line)
        self.reports = []
        threading.Thread(target=self._read, daemon=True).start()
        # unshare's child: the namespace's first process, as the host sees it
        with open(f"/proc/{self.p.pid}/task/{self.p.pid}/children") as f:
            self.host_pid = int(f.read().split()[0])

    def _read(self):
        for line in self.p.stdout:
            try:
                self.reports.append(json.loads(line))
            except ValueError:
                pass

    def run(self, *args, env=None):
        """taskview in the namespace (its PIDs, its /proc)."""
        return subprocess.run(["nsenter", "-t", str(self.host_pid), "-p", "-m", TASKVIEW, *args],
                              capture_output=True, text=True, env=env, timeout=120)

    def between(self, t0, t1, key):
        """The process's own count's growth per second over [t0, t1] (unix time), from reports around it."""
        before = [r for r in self.reports if r["real"] <= t0]
        after = [r for r in self.reports if r["real"] >= t1]
        if not before or not after:
            return None
        a, b = before[-1], after[0]
        return (b[key] - a[key]) / (b["real"] - a["real"]), b["real"] - a["real"]

    def stop(self):
        # the namespace's first process: with it, the kernel ends every other one in there
        try:
            os.kill(self.host_pid, 9)
        except OSError:
            pass
        self.p.kill()
        self.p.wait()


def test_reused_tids_are_new_threads():
    if not is_root() or not shutil.which("unshare") or not shutil.which("nsenter"):
        raise Skip("needs root, unshare and nsenter")
    w = Namespaced("--churn", "1:2:2", "--sleepers", "2", "--report-ms", "50", "--name", "tv-reuse")
    try:
        pid = w.first["pid"]
        time.sleep(1.0)
        checked = 0
        for reader in ("proc", "bpf"):
            env = dict(os.environ, TASKVIEW_READER=reader)
            r = w.run("-b", "--format", "json", "-H", "-p", str(pid), "-d", "0.5", "-n", "10",
                      "-o", "pid,tgid,cpu,cpu_delay,ctxt_vol_rate,comm", env=env)
            check(r.returncode == 0, f"{reader}: taskview exited {r.returncode}: {r.stderr}")
            docs = json_lines(r.stdout)
            used = {d["self"]["reader"] for d in docs}
            if reader == "bpf" and used != {"bpf"}:
                print(f"  bpf: not used here ({used}): {docs[-1]['self']['reader_why']}")
                continue
            time.sleep(0.2)  # the workload's report after the last sample
            worst = 0.0  # the highest CPU % of a thread
            for d in docs:
                rows = [t for t in d["tasks"] if t["tgid"] == pid]
                proc = [t for t in rows if t["kind"] == "process"]
                check(len(proc) == 1, f"{reader}: the process in every sample: {d['tasks']}")
                proc = proc[0]
                threads = [t for t in rows if t["kind"] == "thread"]
                for t in threads:
                    for col in ("cpu", "cpu_delay"):
                        v = t.get(col)
                        check(v is None or v <= 105, f"{reader}: thread {t['pid']} ({t['comm']}) {col} {v} %: "
                              "more than a CPU gives")
                    worst = max(worst, t["cpu"] or 0)
                end, start = d["timestamp"], d["timestamp"] - d["interval"]
                truth = w.between(start, end, "nvcsw")
                if truth is None or truth[1] > d["interval"] + 0.3:
                    continue  # the workload's reports were held back: no reading of this window
                checked += 1
                rate = proc["ctxt_vol_rate"]
                check(rate is None or rate <= 1.2 * truth[0] + 100,
                      f"{reader}: process switches {rate}/s against {truth[0]:.0f}/s of its own count "
                      f"({'marked as a lower bound' if 'ctxt_vol_rate' in proc['partial'] else 'unmarked'})")
                cpu_truth = w.between(start, end, "cpu_s")[0] * 100
                check(proc["cpu"] is not None and abs(proc["cpu"] - cpu_truth) <= 0.2 * cpu_truth + 2,
                      f"{reader}: process CPU {proc['cpu']} % against {cpu_truth:.1f} % of its own count")
                # no thread ran more than its whole process did (a TID's new thread with the old
                # one's counters read as tens of % in a process using a few)
                for t in threads:
                    check(t["cpu"] is None or t["cpu"] <= 1.2 * cpu_truth + 3,
                          f"{reader}: thread {t['pid']} ({t['comm']}) at {t['cpu']} % in a process at "
                          f"{cpu_truth:.1f} % by its own count")
            print(f"  {reader}: {len(docs)} samples, a thread at {worst:.1f} % of a CPU at most")
        check(checked >= 5, f"windows the workload's own reports bracket: {checked}")
    finally:
        w.stop()


if __name__ == "__main__":
    sys.exit(main([test_reused_tids_are_new_threads]))
