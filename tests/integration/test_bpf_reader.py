# SPDX-License-Identifier: GPL-2.0-or-later
"""The BPF task-iterator reader against /proc and taskstats: the same figures.

A workload whose threads ran, slept, were preempted and had their nice
changed is stopped with SIGSTOP, so its counters hold still. taskview reads
it once with the BPF reader and once with the reader turned off
(TASKVIEW_READER=proc: the thread files and, as root, taskstats); every thread
row must be the same, counters included, and the BPF rows must also match
the thread's own schedstat and status read at that moment. Without the
privilege the reader needs, taskview falls back to /proc without a word.
"""
import os
import shutil
import signal
import tempfile
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import Skip, Workload, check, is_root, json_lines, main, run  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tui"))
import tmuxlib  # noqa: E402

NOBODY = "65534"


def bpf_expected():
    """Whether the reader must run here: built in, root, a kernel with BTF, the initial PID namespace."""
    with open(os.path.join(os.environ["BUILD_DIR"], "config.h")) as f:
        built = "#define TV_HAVE_BPF 1" in f.read()
    with open("/proc/self/status") as f:
        nspid = [line.split()[1:] for line in f if line.startswith("NSpid:")]
    initial = not nspid or len(nspid[0]) == 1
    return built and is_root() and os.path.exists("/sys/kernel/btf/vmlinux") and initial


def stopped(w):
    """Stops the workload and waits until every thread is stopped (T)."""
    os.kill(w.pid, signal.SIGSTOP)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        states = []
        for tid in os.listdir(f"/proc/{w.pid}/task"):
            with open(f"/proc/{w.pid}/task/{tid}/stat") as f:
                states.append(f.read().rsplit(")", 1)[1].split()[0])
        if states and all(s == "T" for s in states):
            return
        time.sleep(0.05)
    raise AssertionError(f"workload {w.pid} did not stop: {states}")


def sample(pid, env=None, user=None):
    r = run("-b", "--format", "json", "--no-plugins", "-H", "-n", "1", "-p", str(pid), "-o", "all", env=env, user=user)
    check(r.returncode == 0 and r.stderr == "", f"taskview failed: {r.stderr}")
    doc = json_lines(r.stdout)[0]
    return doc, {t["pid"]: t for t in doc["tasks"] if t["kind"] == "thread"}


def thread_files(pid, tid):
    with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
        runtime, run_delay, pcount = (int(x) for x in f.read().split())
    status = {}
    with open(f"/proc/{pid}/task/{tid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            status[k] = v.strip()
    return runtime, run_delay, pcount, status


def workload():
    w = Workload("--sleepers", "2", "--spin", "1", "--ticker", "200", "--name", "tv-bpf")
    # a niced thread: the priority and nice columns must follow
    os.setpriority(os.PRIO_PROCESS, w.threads["sleeper-2"], 7)
    # until the spinner was preempted and the ticker slept and woke a few times (beside load
    # that takes longer than the 50 ms it takes alone)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ticker = switches(w.pid, w.threads["ticker"])
        spinner = switches(w.pid, w.threads["spin-1"])
        if ticker[0] > 20 and spinner[1] > 0:
            break
        time.sleep(0.05)
    return w


def switches(pid, tid):
    """A thread's voluntary and involuntary switches, from its status."""
    with open(f"/proc/{pid}/task/{tid}/status") as f:
        st = dict(line.split(":", 1) for line in f if ":" in line)
    return int(st["voluntary_ctxt_switches"]), int(st["nonvoluntary_ctxt_switches"])


def test_same_figures_both_readers():
    if not is_root():
        raise Skip("the BPF reader needs CAP_BPF and CAP_PERFMON")
    w = workload()
    try:
        stopped(w)
        doc_bpf, bpf = sample(w.pid, env=dict(os.environ, TASKVIEW_READER="bpf"))
        if not bpf_expected():
            check(doc_bpf["self"]["reader"] == "proc", f"reader {doc_bpf['self']['reader']}")
            raise Skip("no BPF reader here (build, kernel BTF or PID namespace)")
        check(doc_bpf["self"]["reader"] == "bpf", f"the BPF reader did not run: {doc_bpf['self']}")
        doc_proc, proc = sample(w.pid, env=dict(os.environ, TASKVIEW_READER="proc"))
        check(doc_proc["self"]["reader"] == "proc", f"TASKVIEW_READER=proc: {doc_proc['self']}")
        check(sorted(bpf) == sorted(proc) == sorted([w.pid] + list(w.threads.values())),
              f"thread rows: bpf {sorted(bpf)}, proc {sorted(proc)}, workload {w.threads}")
        # every figure, counters and their averages alike; the stopped workload holds them still
        for tid, b in bpf.items():
            p = proc[tid]
            diff = {k: (b[k], p.get(k)) for k in b if b[k] != p.get(k)}
            check(not diff, f"thread {tid} ({b['comm']}): bpf vs proc {diff}")
        check(bpf[w.threads["sleeper-2"]]["nice"] == 7, f"niced thread: {bpf[w.threads['sleeper-2']]}")
        check(bpf[w.threads["spin-1"]]["ctxt_invol"] > 0, f"spinner: {bpf[w.threads['spin-1']]}")
        check(bpf[w.threads["ticker"]]["ctxt_vol"] > 10, f"ticker: {bpf[w.threads['ticker']]}")
        # and the thread's own files, read now
        for tid, b in bpf.items():
            runtime, _, _, st = thread_files(w.pid, tid)
            check(b["state"] == "T" and st["State"].startswith("T"), f"{tid}: {b['state']} {st['State']}")
            check(b["ctxt_vol"] == int(st["voluntary_ctxt_switches"]), f"{tid}: {b} {st}")
            check(b["ctxt_invol"] == int(st["nonvoluntary_ctxt_switches"]), f"{tid}: {b} {st}")
            check(b["comm"] == st["Name"], f"{tid}: {b['comm']} {st['Name']}")
            check(abs(b["time"] - runtime / 1e9) < 0.006, f"{tid}: time {b['time']} schedstat {runtime}")
    finally:
        os.kill(w.pid, signal.SIGCONT)
        w.stop()


def test_process_switches_are_its_threads_sum():
    """With the BPF pass reading the threads, a process's switch totals are the sum of its
    thread rows, read at the same pass (a group query's, a moment apart, differed by up to 72),
    while its threads switch thousands of times a second."""
    if not bpf_expected():
        raise Skip("the BPF reader does not run here")
    # -F: every process is read, by the pass (-p reads a few threads from /proc)
    name = f"tvsum{os.getpid()}"
    with Workload("--ping", "--sleepers", "2", "--name", name):
        r = run("-b", "--format", "json", "--no-plugins", "-H", "-d", "0.2", "-n", "10", "-F", name,
                "-o", "pid,ctxt_vol,ctxt_invol", env=dict(os.environ, TASKVIEW_READER="bpf"))
        check(r.returncode == 0, r.stderr)
        for doc in json_lines(r.stdout):
            check(doc["self"]["reader"] == "bpf", f"the reader: {doc['self']}")
            proc = [t for t in doc["tasks"] if t["kind"] == "process"]
            threads = [t for t in doc["tasks"] if t["kind"] == "thread"]
            check(len(proc) == 1 and len(threads) == 5, f"the process and its 5 threads: {doc['tasks']}")
            for k in ("ctxt_vol", "ctxt_invol"):
                check(proc[0][k] == sum(t[k] for t in threads), f"{k}: {proc[0][k]} against {[t[k] for t in threads]}")


def test_pass_only_when_worth_it():
    """A pass reads every task of the machine: for a few threads (-p), /proc reads them after the first refresh."""
    if not bpf_expected():
        raise Skip("no BPF reader here")
    with Workload("--sleepers", "2", "--name", "tv-bpf-few") as w:
        r = run("-b", "--format", "json", "--no-plugins", "-H", "-n", "3", "-d", "0.2", "-p", str(w.pid), "-o", "all")
        check(r.returncode == 0 and r.stderr == "", r.stderr)
        last = json_lines(r.stdout)[-1]["self"]
        check(last["reader"] == "proc" and "too few threads" in (last["reader_why"] or ""), f"few threads: {last}")


def test_falls_back_silently():
    """Without the privilege (an ordinary user), /proc reads the threads, with no message."""
    if not is_root():
        raise Skip("switching to another user needs root")
    w = Workload("--sleepers", "2", "--name", "tv-bpf-user", user=int(NOBODY))
    try:
        doc, rows = sample(w.pid, user=NOBODY)
        check(doc["self"]["reader"] == "proc", f"as nobody: {doc['self']}")
        check(sorted(rows) == sorted([w.pid] + list(w.threads.values())), f"thread rows as nobody: {sorted(rows)}")
        check(all(r["ctxt_vol"] is not None for r in rows.values()), f"switches as nobody: {rows}")
    finally:
        w.stop()


def test_header_names_reader():
    """The header's own-cost line ends with the reader that read the threads."""
    if not shutil.which("tmux"):
        raise Skip("tmux not found")
    if not bpf_expected():
        raise Skip("no BPF reader here")
    home = tempfile.mkdtemp(prefix="tv-bpf-tui-")
    t = tmuxlib.Tmux(home)
    # the server quits with its last session: one kept, so the second start does not race its exit
    t.cmd("new-session", "-d", "-s", "keep", "sleep", "600")
    try:
        # -H on every process: worth the pass by default
        for env, word in (({}, "bpf"), ({"TASKVIEW_READER": "proc"}, "proc")):
            s = t.start(["-H", "--no-plugins", "-d", "0.3"], env=env)
            t.wait(s, lambda text: any("Own cost:" in line and line.rstrip().endswith(", " + word)
                                       for line in text.split("\n")),
                   f"own cost ending with {word}", timeout=60)
            t.quit(s)
    finally:
        t.kill_server()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main([
        test_same_figures_both_readers,
        test_process_switches_are_its_threads_sum,
        test_pass_only_when_worth_it,
        test_falls_back_silently,
        test_header_names_reader,
    ]))
