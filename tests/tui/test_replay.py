# SPDX-License-Identifier: GPL-2.0-or-later
"""The replay screen (taskview -r PATH) in tmux, over a recording of a real
workload made with -w: the header shows the recorded host and the sample's
recorded time, b and f step through the samples (the detail panel with
them), J jumps to a time, a task that ended in the interval is marked, and
kill and renice are refused with a message while the recorded process stays
untouched. An idle replay uses no CPU and quits at the first q; K hides
kernel threads as live; stepping into damage says so; H shows the threads of
a recording made with -H and without -b.

Exit 77 (skip) without tmux.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import tmuxlib  # noqa: E402
from tmuxlib import TASKVIEW, Workload, row_pids, table_rows  # noqa: E402

# the nice value this test started at (builds and CI runners run tests under nice); its children inherit it
BASE_NICE = os.getpriority(os.PRIO_PROCESS, 0)

SHORT = "tvreplayshort"


def local(ts):
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ts))


def times(ts):
    """What the header may show for a sample whose JSON time is ts: the JSON rounds it to the
    millisecond, the header shows the second it falls in (53.9996 is 54.000 there, and 53 here)."""
    return {local(ts - 0.0005), local(ts + 0.0005)}


def header_time(text):
    for line in text.splitlines():
        if "Time:" in line:
            return line.split("Time:", 1)[1].split("Sample:")[0].strip()
    return None


def sample_no(text):
    """The header's "Sample: N of M": the sample shown, counted from 1 in the recording."""
    m = re.search(r"Sample: (\d+) of \d+", text)
    return int(m.group(1)) if m else None


def record(home):
    """Records a few seconds of a live workload and of a process that ends
    in the middle; returns the path, the workload and the replay's samples."""
    wl = Workload("--name", "tvreplaywl", "--ping")
    short = os.path.join(home, SHORT)
    shutil.copy("/bin/sleep", short)
    path = os.path.join(home, "rec.tvr")
    rec = subprocess.Popen([TASKVIEW, "-w", path, "-d", "1", "-n", "6"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # once the recording holds a sample: the recorder (and, as root, its exit
    # listener) is up before the short process starts, however late it came
    end = time.monotonic() + 60
    while time.monotonic() < end and rec.poll() is None:
        r = subprocess.run([TASKVIEW, "-r", path, "-b", "--format", "json", "-o", "all"], capture_output=True, text=True)
        if r.stdout.strip():
            break
        time.sleep(0.2)
    subprocess.run([short, "1.5"], check=True)
    _, err = rec.communicate(timeout=60)
    assert rec.returncode == 0, f"recording failed: {err}"
    r = subprocess.run([TASKVIEW, "-r", path, "-b", "--format", "json", "-o", "all"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    samples = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(samples) >= 5, f"only {len(samples)} samples replayed"
    return path, wl, samples


def test_replay_screen(t, home):
    path, wl, samples = record(home)
    try:
        s = t.start(["-r", path])
        text = t.wait_for(s, "Sample:")
        host = socket.gethostname()
        assert f"Host: {host}" in text, f"the recorded host is not in the header:\n{text}"
        # the first sample shown is the first the batch replay prints
        n0 = sample_no(text)
        assert header_time(text) in times(samples[0]["timestamp"]), \
            f"header time {header_time(text)!r}, recorded {samples[0]['timestamp']}:\n{text}"
        assert "Uptime:" not in text and "Load average:" not in text, text
        assert "PID" in text and table_rows(text), f"no table:\n{text}"
        # the key bar offers the replay's time where a live screen renices and kills
        # (wait for the bottom line: a capture can come while the screen is being written)
        text = t.wait(s, lambda x: "F10" in x.rstrip("\n").splitlines()[-1], "the key bar")
        bar = text.rstrip("\n").splitlines()[-1]
        for label in ("F7Back", "F8Fwd", "F9Jump"):
            assert label in bar.replace(" ", ""), f"{label} not in the key bar: {bar!r}"
        assert "Kill" not in bar and "Nice" not in bar, bar

        # f steps forward one sample, b back: followed by the header's sample number, since two
        # samples of a busy machine may fall in the same second; each shows its recorded time
        def step(key, n, ts):
            t.keys(s, key)
            text = t.wait(s, lambda x: sample_no(x) == n, f"sample {n} after {key}")
            assert header_time(text) in times(ts), f"after {key}: header time {header_time(text)!r}, " \
                f"recorded {ts}:\n{text}"
        step("f", n0 + 1, samples[1]["timestamp"])
        step("b", n0, samples[0]["timestamp"])
        step("F8", n0 + 1, samples[1]["timestamp"])
        step("F7", n0, samples[0]["timestamp"])
        t.keys(s, "b")
        t.wait_for(s, "first sample of the recording")

        # J jumps to a recorded time: to the first sample in its second (a sample whose time is
        # not within a millisecond of a whole second, where the JSON's rounding would hide which)
        target = next(x for x in samples[3:] + samples[:3] if abs(x["timestamp"] - round(x["timestamp"])) > 0.001)
        hms = time.strftime("%H:%M:%S", time.localtime(target["timestamp"]))
        t.keys(s, "F9")  # J's key bar twin
        t.wait_for(s, "Jump to")
        t.keys(s, hms, "Enter")
        want = local(target["timestamp"])
        t.wait(s, lambda x: header_time(x) == want, f"time {want} after J {hms}")

        # the short process, ended in an interval, is marked there
        ended = [x for x in samples if any(k.get("exited") and k.get("comm") == SHORT for k in x["tasks"])]
        if ended:
            pid = next(k["pid"] for k in ended[0]["tasks"] if k.get("exited") and k.get("comm") == SHORT)
            n = n0 + samples.index(ended[0])
            t.keys(s, "J")
            t.wait_for(s, "Jump to")
            # by the epoch, a millisecond before the JSON's (rounded) time: that sample, not one before
            t.keys(s, "@%.3f" % (ended[0]["timestamp"] - 0.001), "Enter")
            text = t.wait(s, lambda x: sample_no(x) == n, f"sample {n}")
            when = header_time(text)
            assert when in times(ended[0]["timestamp"]), f"header time {when!r}, recorded {ended[0]['timestamp']}"
            t.keys(s, "\\")
            t.keys(s, SHORT, "Enter")
            mine = lambda x: [r for r in table_rows(x) if r.split()[:1] == [str(pid)]]  # noqa: E731
            text = t.wait(s, lambda x: any("(exited)" in r for r in mine(x)), "the ended process marked")
            row = mine(text)[0]
            assert " X " in row, f"the ended process's state is not X: {row!r}"
            # its detail panel steps with the replay: the next sample has it no more
            t.keys(s, "Home", "i")
            t.wait_for(s, f"Process {pid}: {SHORT} at {when}")
            if ended[0] is not samples[-1]:
                # the panel covers the header: its title says the time
                t.keys(s, "f")
                gone = re.compile(rf"Process {pid}: {SHORT} \(not in this sample\) at (\S+ \S+)")
                text = t.wait(s, lambda x: gone.search(x), f"{SHORT} not in the next sample")
                after = samples[samples.index(ended[0]) + 1]["timestamp"]
                assert gone.search(text).group(1) in times(after), f"recorded {after}:\n{text}"
            t.keys(s, "b")
            text = t.wait_for(s, f"Process {pid}: {SHORT} at {when}")
            assert "(not in this sample)" not in text, text
            t.keys(s, "Escape")
            t.wait_gone(s, f"Process {pid}:")
            t.keys(s, "Escape")
        else:
            # as root the exit listener records it, where taskview has taskstats
            listener = os.geteuid() == 0 and samples[0]["delayacct"]["state"] in ("on", "off")
            assert not listener, "as root the exit listener records the ended process"
            print("no exit records (not root, or no taskstats): the ended-process check is skipped")

        # kill and renice refused; the workload is not touched
        t.keys(s, "\\")
        t.keys(s, "tvreplaywl", "Enter")
        t.wait(s, lambda x: any(str(wl.pid) in r for r in table_rows(x)), "the workload's row")
        # the detail panel steps with b and f, its title at the sample's time
        text = t.text(s)
        n, at = sample_no(text), header_time(text)
        assert n > n0, f"the sample shown ({n}) is not one after the first ({n0})"
        t.keys(s, "i")
        t.wait_for(s, f"Process {wl.pid}: tvreplaywl at {at}")
        # (the panel covers the header: its title says the time)
        t.keys(s, "b")
        title = re.compile(rf"Process {wl.pid}: tvreplaywl at (\S+ \S+)")
        before = samples[n - n0 - 1]["timestamp"]
        t.wait(s, lambda x: title.search(x) and title.search(x).group(1) in times(before), f"the sample before, {before}")
        t.keys(s, "F8")
        t.wait_for(s, f"Process {wl.pid}: tvreplaywl at {at}")
        t.keys(s, "Escape")
        t.wait_gone(s, f"Process {wl.pid}:")
        t.keys(s, "k")
        text = t.wait_for(s, "a replay cannot send signals")
        assert "SIGTERM" not in text and "Send signal" not in text, f"a signal menu opened:\n{text}"
        t.keys(s, "Enter")
        time.sleep(0.2)
        t.keys(s, "]")
        t.wait_for(s, "a replay cannot change priorities")
        assert wl.proc.poll() is None, "the recorded workload got a signal"
        with open(f"/proc/{wl.pid}/stat") as f:
            stat = f.read()
        fields = stat.rsplit(")", 1)[1].split()
        assert fields[0] not in ("T", "t") and fields[16] == str(BASE_NICE), \
            f"the workload was stopped or reniced from {BASE_NICE}: {stat}"
        t.quit(s)
    finally:
        wl.stop()


def cpu_ticks(pid):
    """utime + stime of a process, in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def test_replay_idle_and_kernel_threads(t, home):
    """The replay screen waits for keys without using the CPU, hides kernel
    threads as the live screen does (K shows them, K again hides them), and
    quits at the first q."""
    path = os.path.join(home, "idle.tvr")
    r = subprocess.run([TASKVIEW, "-w", path, "-d", "0.3", "-n", "3"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    s = t.start(["-r", path])
    t.wait_for(s, "Sample:")
    pid = t.taskview_pid(s)
    # idle: a screen that spins takes a share of a CPU even on a busy machine
    # (it polled the keyboard without waiting, about 40 % of one idle)
    time.sleep(0.5)
    before = cpu_ticks(pid)
    time.sleep(4)
    used = cpu_ticks(pid) - before
    hz = os.sysconf("SC_CLK_TCK")
    assert used <= hz // 10, f"the idle replay used {used} ticks of CPU in 4 s"
    # kthreadd (PID 2) is a kernel thread: hidden until K, as live
    t.keys(s, "\\")
    t.keys(s, "kthreadd", "Enter")
    text = t.wait_for(s, "(Esc clears)")
    assert 2 not in row_pids(text), f"a kernel thread is shown before K:\n{text}"
    t.keys(s, "K")
    t.wait(s, lambda x: 2 in row_pids(x), "kthreadd shown after K")
    t.keys(s, "K")
    t.wait(s, lambda x: 2 not in row_pids(x) and "kernel threads hidden" in x, "kthreadd hidden after K again")
    t.quit(s)


def test_replay_damage_said(t, home):
    """Stepping into damage says so: the samples after it are there but
    cannot be shown; it is not called the last sample of the recording."""
    path = os.path.join(home, "damaged.tvr")
    # one process recorded: samples stay small, so all 21 fit one block on any machine
    # (a block ends at 4 MiB; a busy machine's whole sample reaches that in a few)
    r = subprocess.run([TASKVIEW, "-w", path, "-d", "0.1", "-n", "20", "-p", str(os.getpid())],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    with open(path, "r+b") as f:
        data = f.read()
        off, samples = 0, []
        while off + 36 <= len(data) and data[off:off + 4] == b"\x89TVR":
            hlen = int.from_bytes(data[off + 6:off + 8], "little")
            plen = int.from_bytes(data[off + 8:off + 12], "little")
            if data[off + 4] == 2:
                samples.append((off, hlen))
                assert len(samples) == 1 or not data[off + 5] & 1, f"sample {len(samples)} starts a block"
            off += hlen + plen
        assert len(samples) == 21, f"{len(samples)} samples recorded"
        # a byte of sample 10's compressed data: 10 to 21 cannot be read
        at = samples[9][0] + samples[9][1] + 3
        f.seek(at)
        f.write(bytes([data[at] ^ 0x5A]))
    s = t.start(["-r", path])
    t.wait_for(s, "Sample: 2 of 21")
    for n in range(3, 10):
        t.keys(s, "f")
        t.wait_for(s, f"Sample: {n} of 21")
    # the damage is found when read: said once, with what it cost
    t.keys(s, "f")
    text = t.wait_for(s, "12 samples lost")
    assert "Sample: 9 of 21" in text and "this is the last sample" not in text, text
    t.keys(s, "f")
    text = t.wait_for(s, "the rest of the recording is damaged")
    assert "Sample: 9 of 21" in text and "this is the last sample" not in text, text
    t.quit(s)


def test_replay_threads_recorded_without_b(t, home):
    """taskview -w PATH -H, as the README runs it (no -b), records the threads:
    H shows them on the replay screen."""
    wl = Workload("--name", "tvreplaythr", "--ping")
    try:
        path = os.path.join(home, "threads.tvr")
        r = subprocess.run([TASKVIEW, "-w", path, "-H", "-d", "0.3", "-n", "3"], capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0, r.stderr
        tids = set(wl.threads.values())
        assert tids, "the workload has threads"
        s = t.start(["-r", path])
        t.wait_for(s, "Sample:")
        t.keys(s, "\\")
        t.keys(s, "tvreplaythr", "Enter")
        text = t.wait(s, lambda x: wl.pid in row_pids(x), "the workload's row")
        assert not tids & row_pids(text), f"threads shown before H:\n{text}"
        t.keys(s, "H")
        t.wait(s, lambda x: tids <= row_pids(x), f"the workload's threads {sorted(tids)} after H")
        t.quit(s)
    finally:
        wl.stop()


TESTS = [test_replay_screen, test_replay_idle_and_kernel_threads, test_replay_damage_said,
         test_replay_threads_recorded_without_b]


def main():
    return tmuxlib.run_tests("tv-replay-", TESTS, call=lambda test, t, home: test(t, home))


if __name__ == "__main__":
    sys.exit(main())
