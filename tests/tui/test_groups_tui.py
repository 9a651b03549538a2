# SPDX-License-Identifier: GPL-2.0-or-later
"""The group view in the interactive screen, in tmux at 80x24 and 200x50: g
and --group, folding a group, search, the detail panel, tags, F9 and renice
on a group's processes with their confirmations, the cgroup filter (G) as
you type, the setting kept; the pressure meters in the header, and as
root, "unknown" with the reason when PSI is hidden in a private mount
namespace.

As root with a cgroup2 mount the workloads run in control groups of the
test's own (see tests/README.md); otherwise in whatever group the test is
in. Exit 77 (skip) when tmux is missing.
"""
import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import tmuxlib  # noqa: E402
from tmuxlib import Workload, selected_row, tagged_rows  # noqa: E402
import test_groups as cg  # noqa: E402

# the nice value this test started at (builds and CI runners run tests under nice); its children inherit it
BASE_NICE = os.getpriority(os.PRIO_PROCESS, 0)

SIZES = ((80, 24), (200, 50))
ENV = {"NO_COLOR": "1", "TERM": "screen"}


def start(t, args, w, h, wrap=(), keep_settings=False):
    if not keep_settings:
        shutil.rmtree(os.path.join(t.home, "cfg"), ignore_errors=True)
    s = t.start(args, env=ENV, width=w, height=h, wrap=wrap)
    t.wait_for(s, "PID")
    return s


def nice_of(pid):
    out = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/stat") as f:
            out.append(int(f.read().rsplit(")", 1)[1].split()[16]))
    return set(out)


def pid_rows(text, pids):
    return [p for p in pids if re.search(rf"(?m)^\s*{p}\s", text)]


class Setup:
    """Two groups of workloads: "hog" with two processes, "io" with one; of the
    test's own as root, else the workloads' own group (then "hog" and "io"
    are one group, named by its last part)."""

    def __init__(self):
        self.groups = None
        mount = cg.cgroup2_mount()
        if os.geteuid() == 0 and mount and os.environ.get("WORKLOAD"):
            self.groups = cg.Groups(mount)
            hog, io = self.groups.make("hog"), self.groups.make("io")
            self.hog = [self.groups.start(hog, "--sleepers", "1", "--name", "tv-hog") for _ in range(2)]
            self.io = [self.groups.start(io, "--sleepers", "1", "--name", "tv-io")]
            self.hog_name, self.io_name = "hog", "io"
            self.hog_path = self.groups.rel(hog)
        else:
            self.ws = [Workload("--sleepers", "1", "--name", "tv-hog") for _ in range(3)]
            self.hog = [w.pid for w in self.ws[:2]]
            self.io = [self.ws[2].pid]
            with open(f"/proc/{self.hog[0]}/cgroup") as f:
                path = [line[3:].strip() for line in f if line.startswith("0::")][0]
            self.hog_path = path
            self.hog_name = self.io_name = path.rsplit("/", 1)[-1] or "/"

    def close(self):
        if self.groups:
            self.groups.close()
        else:
            for w in self.ws:
                w.stop()


def test_group_view(t, w, h):
    st = Setup()
    try:
        ids = ",".join(map(str, st.hog + st.io))
        s = start(t, ["-d", "0.5", "-s", "pid", "-p", ids], w, h)
        t.wait(s, lambda x: len(pid_rows(x, st.hog + st.io)) == 3, "the workloads")
        # g: the groups above their processes, their pressure in the columns
        t.keys(s, "g")
        t.wait_for(s, "group view")
        text = t.wait(s, lambda x: re.search(rf"(?m)^\s*-\s.*[-+] {re.escape(st.hog_name)}\s*$", x), "the group row")
        assert "CPUP%" in text and "MEMP%" in text, text
        # the header: the system's pressure
        psi = [line for line in text.splitlines() if line.startswith("PSI ")]
        assert psi and "cpu[" in psi[0] and "mem[" in psi[0], psi
        if w >= 200:
            assert "avg10" in psi[0], psi
        # search finds the group (from the top: its processes' command lines
        # name it too); Left folds it, Right opens it again
        t.keys(s, "Home", "/")
        t.keys(s, "-l", st.hog_name)
        t.keys(s, "Enter")
        t.wait(s, lambda x: (selected_row(t, s) or "").rstrip().endswith(st.hog_name), "the group selected")
        t.keys(s, "Left")
        t.wait(s, lambda x: not pid_rows(x, st.hog), "the group's processes folded away")
        assert re.search(rf"\+ {re.escape(st.hog_name)}\s*$", selected_row(t, s)), selected_row(t, s)
        t.keys(s, "Right")
        t.wait(s, lambda x: len(pid_rows(x, st.hog)) == 2, "the group open again")
        # the detail panel of a group
        t.keys(s, "i")
        text = t.wait_for(s, "Sums of its processes")
        assert f"Control group {st.hog_name} ({st.hog_path})" in text, text
        # the end of it, on a small screen further down
        t.keys(s, "End")
        text = t.wait_for(s, "Pressure of the group")
        assert re.search(r"CPU +(some: avg10|-)", text), text
        t.keys(s, "Home")
        t.wait_for(s, "Sums of its processes")
        t.keys(s, "Escape")
        t.wait_gone(s, "Pressure of the group")
        # Space tags the group's processes; U untags
        t.keys(s, "Space")
        t.wait_for(s, f"processes of {st.hog_name} tagged")
        tagged = " ".join(tagged_rows(t, s))
        for p in st.hog:
            assert str(p) in tagged, (p, tagged)
        t.keys(s, "U", "Up")
        t.wait(s, lambda x: (selected_row(t, s) or "").rstrip().endswith(st.hog_name), "the group again")
        # F9 on the group: the group's processes, named, asked first; n sends nothing
        n = len(st.hog) + (len(st.io) if st.groups is None else 0)
        t.keys(s, "F9")
        t.wait_for(s, f"Send signal to the {n} processes of {st.hog_name}:")
        t.keys(s, "Enter")
        t.wait_for(s, f"Send SIGTERM to the {n} processes of control group {st.hog_name}")
        t.wait_for(s, "one hidden by a filter")
        t.keys(s, "n")
        time.sleep(0.3)
        for p in st.hog:
            assert os.path.exists(f"/proc/{p}"), "n sends nothing"
        # renice: asked first; n changes nothing, y every thread of every process
        t.keys(s, "[")
        t.wait_for(s, f"Change the nice value by +1 of the {n} processes of control group {st.hog_name}")
        t.keys(s, "n")
        time.sleep(0.3)
        assert nice_of(st.hog[0]) == {BASE_NICE}, nice_of(st.hog[0])
        t.keys(s, "[")
        t.wait_for(s, "Change the nice value by +1")
        t.keys(s, "y")
        t.wait_for(s, f"nice changed for {n} tasks")
        for p in st.hog:
            assert nice_of(p) == {BASE_NICE + 1}, (p, nice_of(p))
        # G: only the processes of matching groups, as you type; Esc clears
        if st.groups:
            t.keys(s, "G")
            t.keys(s, "-l", st.io_name)
            t.wait(s, lambda x: not pid_rows(x, st.hog) and pid_rows(x, st.io), "only the io group")
            t.keys(s, "-l", "xyz-none")
            t.wait_for(s, "not found")
            t.keys(s, "Escape")
            t.wait(s, lambda x: len(pid_rows(x, st.hog + st.io)) == 3, "the filter gone")
            t.keys(s, "G")
            t.keys(s, "-l", st.io_name)
            t.keys(s, "Enter")
            t.wait_for(s, f"Cgroup: {st.io_name} (Esc clears)")
            t.keys(s, "Escape")
            t.wait(s, lambda x: len(pid_rows(x, st.hog + st.io)) == 3, "Esc clears the cgroup filter")
        t.quit(s)
        # the setting is kept; --group none overrides it
        s = start(t, ["-d", "0.5", "-p", ids], w, h, keep_settings=True)
        t.wait(s, lambda x: re.search(rf"[-+] {re.escape(st.hog_name)}\s*$", x, re.M), "the group view kept")
        # the status line names the view: far down the list it looks like the plain one
        t.wait_for(s, "[group view: g leaves]")
        t.quit(s)
        s = start(t, ["-d", "0.5", "-p", ids, "--group", "none"], w, h, keep_settings=True)
        t.wait(s, lambda x: len(pid_rows(x, st.hog + st.io)) == 3, "the list")
        assert not re.search(r"(?m)^\s*-\s+-\s", t.text(s)), "no group rows"
        assert "[group view" not in t.text(s), t.text(s)
        t.quit(s)
    finally:
        st.close()


def test_pressure_unknown(t, w, h):
    if os.geteuid() != 0 or not shutil.which("unshare") or not os.path.isdir("/proc/pressure"):
        print("     (needs root, unshare and /proc/pressure: skipped)")
        return
    empty = tempfile.mkdtemp()
    try:
        wrap = ("unshare", "-m", "--propagation", "private", "sh", "-c",
                f"mount --bind '{empty}' /proc/pressure && exec \"$0\" \"$@\"")
        s = start(t, ["-d", "0.5", "--group", "cgroup", "-p", "1"], w, h, wrap=wrap)
        text = t.wait_for(s, "PSI the kernel has no pressure stall information")
        psi = [line for line in text.splitlines() if line.startswith("PSI ")][0]
        assert "%" not in psi and "0.0" not in psi, psi
        t.quit(s)
    finally:
        os.rmdir(empty)


TESTS = [test_group_view, test_pressure_unknown]


def main():
    return tmuxlib.run_tests("tv-groups-", tmuxlib.sized(TESTS, SIZES), public=True)


if __name__ == "__main__":
    sys.exit(main())
