#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What the viewer of several hosts costs (taskview -b --host ...).

Starts HOSTS sshds on 127.0.0.1, each in PID, UTS and mount namespaces of
its own with PROCS sleeping processes in it (the test's Fleet), then runs
`taskview -b --host ... --format json -d 1 -n N` once and reports, for the
viewer process alone (not its ssh children nor the remote taskviews): its
CPU time over the run as a share of one core, its peak resident memory
(VmHWM), the time to its first and last sample, and the bytes it read.
With --screen S, the screen instead (taskview --host ... -d 1 in tmux): the
time until the header counts every host live and their rows are shown, then
the viewer's CPU over S seconds after that, and its peak resident memory;
before it, the time the same ssh connections take alone to bring the first
bytes of every stream (the screen's first rows then need a second sample).
--stopped K adds K hosts stopped with SIGSTOP, which the screen has too:
what they cost it shows against a run without. With --record S, the
recorder instead (taskview --host ... -d 1 -w FILE, until stopped) for S
seconds: its CPU and peak resident memory, the file's size; then the time
a batch replay of the file takes (-r FILE -b --format json), the time to
open it and print each host's first sample (-n 1; --old BIN times another
build's too), and the time until the screen over it (-r FILE in tmux)
shows its first moment.
As root; needs sshd, ssh and unshare (and tmux for --screen).

    python3 bench/bench_hosts.py build/src/taskview --hosts 32 --procs 300 -n 20
    python3 bench/bench_hosts.py build/src/taskview --hosts 32 --procs 300 --screen 30
    python3 bench/bench_hosts.py build/src/taskview --hosts 32 --procs 300 --record 60
"""
import argparse
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "integration"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "tui"))
os.environ.setdefault("TASKVIEW", "taskview")


def stat_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def status_kib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def io_read(pid):
    with open(f"/proc/{pid}/io") as f:
        for line in f:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("taskview")
    ap.add_argument("--hosts", type=int, default=32)
    ap.add_argument("--procs", type=int, default=300)
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("--screen", type=float, default=0, metavar="S", help="the screen, measured over S seconds")
    ap.add_argument("--stopped", type=int, default=0, metavar="K", help="K more hosts, stopped (with --screen)")
    ap.add_argument("--record", type=float, default=0, metavar="S", help="the recorder, over S seconds")
    ap.add_argument("--old", metavar="TASKVIEW", help="with --record: another build, whose replay is timed too")
    a = ap.parse_args()
    os.environ["TASKVIEW"] = os.path.abspath(a.taskview)
    import test_hosts  # noqa: E402 - the fleet of the tests

    fleet = test_hosts.Fleet()
    names = [f"bench{i}" for i in range(a.hosts)]
    try:
        t0 = time.monotonic()
        for name in names:
            fleet.start(name, before=f"for i in $(seq {a.procs}); do sleep 100000 & done")
        print(f"{a.hosts} hosts of {a.procs} processes up in {time.monotonic() - t0:.1f} s", flush=True)
        if a.record:
            return record(a, fleet, names)
        if a.screen:
            stopped = [f"stopped{i}" for i in range(a.stopped)]
            for name in stopped:
                fleet.start(name)
                os.killpg(fleet.hosts[name][1].pid, signal.SIGSTOP)
            up = connections_up(fleet, names)
            print(f"the {a.hosts} ssh connections alone: every stream's first bytes after {up:.2f} s", flush=True)
            return screen(a, fleet, names, stopped)
        start = time.monotonic()
        p = subprocess.Popen([a.taskview, "-b", "--host", ",".join(names), "--format", "json", "-d", "1",
                              "-n", str(a.n)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=fleet.env())
        first = None
        cpu = hwm = rchar = 0
        lines = 0
        os.set_blocking(p.stdout.fileno(), False)
        while p.poll() is None:
            try:
                # the last readings before it ends (a zombie has no memory figures left)
                cpu, rchar = stat_cpu(p.pid), io_read(p.pid)
                hwm = max(hwm, status_kib(p.pid, "VmHWM"))
            except OSError:
                pass
            chunk = p.stdout.read()
            if chunk:
                lines += chunk.count(b"\n")
                if first is None:
                    first = time.monotonic() - start
            time.sleep(0.05)
        lines += (p.stdout.read() or b"").count(b"\n")
        wall = time.monotonic() - start
        err = p.stderr.read().decode(errors="replace")
        print(f"exit {p.returncode}, {lines} samples printed ({a.hosts} x {a.n} asked){': ' + err if err else ''}")
        print(f"first sample after {first:.2f} s (ssh, the remote's first read and one interval), all after "
              f"{wall:.1f} s")
        print(f"viewer: {cpu:.2f} s CPU over {wall:.1f} s = {100 * cpu / wall:.1f} % of a core; "
              f"peak RSS {hwm / 1024:.1f} MiB; read {rchar / 1e6:.1f} MB from the ssh pipes "
              f"({rchar / max(1, lines) / (a.procs + 3):.0f} bytes per process and sample printed)")
    finally:
        fleet.stop()


def connections_up(fleet, names):
    """Seconds until every host's ssh, started at once with the command the
    viewer runs there, has brought the first bytes of its stream."""
    env = fleet.env()
    start = time.monotonic()
    procs = [subprocess.Popen(env["TASKVIEW_SSH"].split() + ["-o", "BatchMode=yes", "-T", "--", name,
                              f"exec {env['TASKVIEW_REMOTE']} --stream --no-plugins -d 1"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
             for name in names]
    waiting = {p.stdout.fileno(): p for p in procs}
    try:
        while waiting:
            ready, _, _ = select.select(list(waiting), [], [], 60)
            if not ready:
                raise SystemExit(f"no stream from {len(waiting)} hosts in 60 s")
            for fd in ready:
                if not os.read(fd, 65536):
                    raise SystemExit("a stream ended before its first bytes")
                del waiting[fd]
        return time.monotonic() - start
    finally:
        for p in procs:
            p.stdin.close()
            p.kill()
            p.wait()


def timed(cmd):
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, check=True)
    return time.monotonic() - t0


def record(a, fleet, names):
    """The recorder of every host for a.record seconds, then the replays of its file."""
    import tmuxlib  # noqa: E402
    path = os.path.join(fleet.dir, "bench.tvr")
    start = time.monotonic()
    p = subprocess.Popen([a.taskview, "--host", ",".join(names), "-d", "1", "-w", path], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=fleet.env(), stdin=subprocess.DEVNULL)
    # from the first frame of every host on: the connections' start is the screen's figure
    import test_hosts  # noqa: E402
    while True:
        hosts = {fr[4] for fr in test_hosts.frames_of(path, growing=True)} if os.path.exists(path) else set()
        if len(hosts) == len(names) or p.poll() is not None:
            break
        time.sleep(0.2)
    up = time.monotonic() - start
    cpu0, w0, size0 = stat_cpu(p.pid), time.monotonic(), os.path.getsize(path)
    time.sleep(a.record)
    cpu1, w1, size1 = stat_cpu(p.pid), time.monotonic(), os.path.getsize(path)
    hwm = status_kib(p.pid, "VmHWM")
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=60)[1].decode(errors="replace")
    frames = test_hosts.frames_of(path)
    samples = sum(1 for fr in frames if fr[1] == 3) - len(names)  # less each host's description
    print(f"every host's first frame after {up:.2f} s; then the recorder: {cpu1 - cpu0:.2f} s CPU over "
          f"{w1 - w0:.1f} s = {100 * (cpu1 - cpu0) / (w1 - w0):.1f} % of a core; peak RSS {hwm / 1024:.1f} MiB"
          f"{'; said: ' + err.strip() if err.strip() else ''}")
    print(f"file: {os.path.getsize(path) / 1e6:.1f} MB, {len(frames)} frames, {samples} samples; "
          f"{(size1 - size0) / (w1 - w0) / 1e3:.1f} kB a second, "
          f"{(size1 - size0) / (w1 - w0) / len(names) / (a.procs + 3):.1f} bytes per process and second")
    t0 = time.monotonic()
    r = subprocess.run([a.taskview, "-r", path, "-b", "--format", "json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    lines = r.stdout.count(b"\n")
    print(f"batch replay: exit {r.returncode}, {lines} samples in {time.monotonic() - t0:.2f} s"
          f"{'; said: ' + r.stderr.decode(errors='replace').strip() if r.stderr.strip() else ''}")
    # opening the file: the first sample of each host (with --old, another build's the same)
    for exe in [a.taskview] + ([a.old] if a.old else []):
        best = min(timed([exe, "-r", path, "-b", "--format", "json", "-n", "1"]) for _ in range(3))
        print(f"{exe}: the first sample of each host (-n 1): {best:.3f} s, the least of 3 runs")
    home = tempfile.mkdtemp(prefix="tv-bench-home-")
    t = tmuxlib.Tmux(home)
    t0 = time.monotonic()
    s = t.start(["-r", path], width=200, height=50)
    try:
        t.wait(s, lambda x: "Time:" in x and "PID" in x or "EXIT=" in x, "the screen's first moment", timeout=600)
        print(f"screen over the recording: first moment shown after {time.monotonic() - t0:.2f} s")
        t.quit(s)
    finally:
        t.kill_server()


def screen(a, fleet, names, stopped):
    """The screen over the hosts: time to every host live with its rows, then
    CPU over a.screen seconds and the peak resident memory."""
    import tmuxlib  # noqa: E402
    home = tempfile.mkdtemp(prefix="tv-bench-home-")
    t = tmuxlib.Tmux(home)
    env = {k: v for k, v in fleet.env().items() if k.startswith("TASKVIEW_")}
    start = time.monotonic()
    s = t.start(["--host", ",".join(names + stopped), "-d", "1", "-s", "host"], env=env, width=200, height=50)
    try:
        every = re.compile(rf"\b{a.hosts} live\b")
        text = t.wait(s, lambda x: every.search(x) and names[0] in x, "every host live", timeout=600)
        up = time.monotonic() - start
        pid = t.taskview_pid(s)
        cpu0, w0 = stat_cpu(pid), time.monotonic()
        time.sleep(a.screen)
        cpu1, w1 = stat_cpu(pid), time.monotonic()
        hwm = status_kib(pid, "VmHWM")
        print(f"every host live, with rows, after {up:.2f} s ({a.hosts} ssh handshakes on these cores included"
              f"{f'; {len(stopped)} more hosts stopped' if stopped else ''})")
        print(f"viewer: {cpu1 - cpu0:.2f} s CPU over {w1 - w0:.1f} s = {100 * (cpu1 - cpu0) / (w1 - w0):.1f} % "
              f"of a core; peak RSS {hwm / 1024:.1f} MiB")
        print(text.splitlines()[0][:200])
        t.quit(s)
    finally:
        t.kill_server()


if __name__ == "__main__":
    main()
