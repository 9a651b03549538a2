# SPDX-License-Identifier: GPL-2.0-or-later
"""Every command line of the README's usage and metrics examples and of
taskview(1)'s EXAMPLES runs exactly as written, and does what its text says.

The lines are read from the documents; a line this test has no check for
fails it, so a new example gets one. They run through sh in a world made for
them, which nothing outside the test sees: a PID namespace where processes
1234 and 5678 exist and nginx is a process with threads, a user www-data with
a process, a private mount namespace with an empty /var (the recordings and
the text file go there), `sudo` and `ssh server` that run the command here,
and a time zone in which the recording starts at 03:09:55, so that --begin
03:10 finds it. The interactive ones run in tmux and quit with q.

Root, unshare and tmux needed, else skipped (77). `sudo sysctl
kernel.task_delayacct=1` switches delay accounting on for the whole machine:
where it is off, with TASKVIEW_TEST_CHANGE_HOST=1 only, and the old value is restored.
"""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SOURCE_DIR = os.environ["SOURCE_DIR"]
BUILD_DIR = os.environ["BUILD_DIR"]
TASKVIEW = os.environ["TASKVIEW"]
WORKLOAD = os.path.join(BUILD_DIR, "tests", "tv-workload")
sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "tui"))


def readme_lines():
    with open(os.path.join(SOURCE_DIR, "README.md")) as f:
        text = f.read()
    out = []
    for head in ("## Usage", "## Metrics for Prometheus"):
        part = text[text.index(head):]
        block = re.search(r"```sh\n(.*?)```", part, re.S).group(1)
        out += [("README", l) for l in block.splitlines() if l.strip()]
    return out


def man_lines():
    with open(os.path.join(SOURCE_DIR, "docs", "taskview.1")) as f:
        text = f.read()
    ex = text[text.index(".SH EXAMPLES"):]
    ex = ex[:ex.index("\n.SH ", 1)]
    out = []
    for block in re.findall(r"\n\.EX\n(.*?)\n\.EE", ex, re.S):
        block = block.replace("\\e\n", "\\\n")
        for l in re.split(r"(?<!\\)\n", block):
            l = l.replace("\\-", "-").replace("\\(aq", "'").replace("\\e", "\\")
            l = re.sub(r"\\\n\s*", "", l)
            out.append(("taskview(1)", l))
    return out


def cmd_only(line):
    """The line without its comment (what the checks are keyed by)."""
    return re.sub(r"\s+#\s.*$", "", line).strip()


class World:
    """The namespace the examples run in: a shell server in tmux, commands typed into it."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.bin = os.path.join(tmp, "bin")
        os.mkdir(self.bin)
        # copies, not links: the examples' world mounts a tmpfs on /var, which hides a build
        # directory below it (such as one in /var/tmp)
        self.taskview = os.path.join(self.bin, "taskview")
        self.workload = os.path.join(self.bin, "tv-workload")
        shutil.copy(TASKVIEW, self.taskview)
        shutil.copy(WORKLOAD, self.workload)
        with open(os.path.join(self.bin, "sudo"), "w") as f:
            f.write('#!/bin/sh\n# as root already\nexec "$@"\n')
        with open(os.path.join(self.bin, "ssh"), "w") as f:
            f.write('#!/bin/sh\n# ssh [-t] HOST COMMAND...: the command, here\n'
                    'while [ "${1#-}" != "$1" ]; do shift; done\nshift\nexec sh -c "$*"\n')
        for n in ("sudo", "ssh"):
            os.chmod(os.path.join(self.bin, n), 0o755)
        self.work = os.path.join(tmp, "work")
        os.mkdir(self.work)
        self.env = {"PATH": f"{self.bin}:{os.environ['PATH']}", "TERM": "tmux-256color",
                    "HOME": os.environ.get("HOME", tmp), "LC_ALL": "C.UTF-8"}
        self.set_clock()

    def set_clock(self):
        """A time zone in which it is 03:09:55 now: a recording started now covers 03:10."""
        off = int(time.time() - 3 * 3600 - 9 * 60 - 55) % 86400
        self.env["TZ"] = f"TVT+{off // 3600}:{off // 60 % 60:02d}:{off % 60:02d}"

    def setup_script(self):
        """Run first in the namespaces: the processes the examples name."""
        w = shlex.quote(self.workload)
        return f"""
set -e
mount -t tmpfs tmpfs /var
mkdir -p /var/tmp /var/log/taskview /var/lib/prometheus/node-exporter
echo 1233 > /proc/sys/kernel/ns_last_pid; {w} --name tvex-1234 --sleepers 2 --seconds 900 > {self.tmp}/p1234 &
sleep 0.5
echo 5677 > /proc/sys/kernel/ns_last_pid; {w} --name tvex-5678 --sleepers 2 --seconds 900 > {self.tmp}/p5678 &
{w} --name nginx --ping --sleepers 3 --seconds 900 > /dev/null &
setpriv --reuid=www-data --regid=www-data --clear-groups {w} --name tvex-www --seconds 900 > /dev/null &
sleep 1
"""


def main():
    lines = readme_lines() + man_lines()
    if os.environ.get("TASKVIEW_TEST_CHANGE_HOST") == "only":
        # its one line that may change the host runs among the others (=1)
        print(f"SKIP: TASKVIEW_TEST_CHANGE_HOST=only runs the cases that change the host alone ({len(lines)} lines)")
        return 77
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("tmux"):
        print(f"SKIP: root, unshare and tmux needed ({len(lines)} example lines not run)")
        return 77
    import tmuxlib
    tmp = tempfile.mkdtemp(prefix="tv-examples-")
    os.chmod(tmp, 0o755)
    world = World(tmp)
    t = tmuxlib.Tmux(tmp)
    ns_pid = None
    failures, ran = [], set()
    old_delayacct = None

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        if not ok:
            failures.append(what)

    # one shell in the namespaces; each example is typed into a window of its own
    ready = os.path.join(tmp, "ready")
    setup = world.setup_script() + f"touch {ready}\nexec sleep 100000\n"
    with open(os.path.join(tmp, "setup.sh"), "w") as f:
        f.write(setup)
    t.cmd("new-session", "-d", "-s", "world", "-x", "200", "-y", "50",
          f"unshare --pid --kill-child --mount-proc --mount --propagation private sh {tmp}/setup.sh "
          f"> {tmp}/setup.log 2>&1")
    end = time.monotonic() + 30
    while not os.path.exists(ready) and time.monotonic() < end:
        time.sleep(0.2)
    if not os.path.exists(ready):
        with open(f"{tmp}/setup.log") as f:
            print(f"FAIL the namespace was not set up: {f.read()}")
        t.kill_server()
        return 1
    # the namespace's first process: new windows join its namespaces with nsenter
    mine = os.readlink("/proc/self/ns/pid")
    found = subprocess.run(["pgrep", "-f", f"sh {tmp}/setup.sh"], capture_output=True, text=True).stdout.split()
    # unshare, and its child: the namespace's first process (which became sleep)
    kids = [k for p in found for k in open(f"/proc/{p}/task/{p}/children").read().split()]
    ns_pid = next(int(p) for p in found + kids if os.readlink(f"/proc/{p}/ns/pid") != mine)
    enter = f"nsenter -t {ns_pid} -p -m --wd={shlex.quote(world.work)}"
    n = [0]

    def window(line, width=160, height=45, output=None):
        """The line, exactly as written, in a script of its own in a new window;
        output: a file in the work directory for what it prints."""
        n[0] += 1
        name = f"ex{n[0]}"
        script = os.path.join(tmp, f"{name}.sh")
        with open(script, "w") as f:
            env = " ".join(f"{k}={shlex.quote(v)}" for k, v in world.env.items())
            f.write(f"cd {shlex.quote(world.work)}\nexport {env}\n{line}\n")
        redirect = f" > {shlex.quote(os.path.join(world.work, output))} 2>&1" if output else ""
        t.cmd("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height),
              f"{enter} sh {script}{redirect}; echo EXIT=$?; sleep 100000")
        return name

    def run(line, output=None, timeout=60):
        """A batch line to its end: (exit status, screen text)."""
        s = window(line, output=output)
        rc, text = t.wait_exit(s, timeout=timeout)
        return rc, text, s

    def out(name):
        p = os.path.join(world.work, name)
        return open(p, errors="replace").read() if os.path.exists(p) else ""

    def tv_pid(session):
        """The taskview process a window runs, found among the pane's descendants."""
        exe = os.path.realpath(world.taskview)
        todo = [int(t.cmd("display", "-p", "-t", session, "#{pane_pid}").strip())]
        while todo:
            p = todo.pop()
            try:
                if os.path.realpath(f"/proc/{p}/exe") == exe:
                    return p
                todo += [int(k) for k in open(f"/proc/{p}/task/{p}/children").read().split()]
            except OSError:
                pass
        return None

    def interrupt(session):
        """Ctrl-C for the taskview of a window alone (not the shell after it)."""
        end = time.monotonic() + 10
        p = tv_pid(session)
        while not p and time.monotonic() < end and t.alive(session):
            time.sleep(0.2)
            p = tv_pid(session)
        if p:
            os.kill(p, signal.SIGINT)
        return t.wait_exit(session, 30)

    try:
        # the recorder runs from the start: the replays below read it
        rec_line = "sudo taskview -w /var/tmp/tv --keep 3 -H"
        rec_full = next(l for _s, l in lines if cmd_only(l) == rec_line)
        world.set_clock()  # the setup may have taken a while on a busy machine
        rec = window(rec_full)
        ran.add(rec_line)
        time.sleep(3)
        if not t.alive(rec):
            check(False, f"README: {rec_full}: ended at once on a machine where /var/tmp/tv does not exist yet:\n"
                  + t.text(rec).strip())
            # the replays need a recording: once more, with the directory made
            run("mkdir -p /var/tmp/tv")
            world.set_clock()
            rec = window(rec_full)
            time.sleep(2)

        checks = {}

        def ex(cmd):
            def reg(fn):
                checks[cmd] = fn
                return fn
            return reg

        @ex("taskview")
        def _(line):
            s = window(line)
            t.wait(s, lambda x: re.search(r"\bPID\b", x) and "Tasks:" in x, "the interactive screen", 20)
            t.keys(s, "q")
            rc, text = t.wait_exit(s, 20)
            check(rc == 0, f"{line}: interactive, quits with q ({rc})")

        @ex("ssh -t server taskview")
        def _(line):
            checks["taskview"](line)

        @ex("taskview -p 1234,5678 -H")
        def _(line):
            s = window(line)
            text = t.wait(s, lambda x: all(re.search(r"(?m)^\s*%d\s" % p, x) for p in (1234, 5678))
                          and "sleeper-1" in x, "1234, 5678 and their threads", 20)
            pids = tmuxlib.row_pids(text)
            check(pids <= {1234, 5678} | {int(p) for p in re.findall(r"(?m)^\s*(\d+)\s", text)},
                  f"{line}: the two processes")
            t.keys(s, "q")
            rc, _t = t.wait_exit(s, 20)
            check(rc == 0, f"{line}: two processes and their threads")

        @ex("taskview -b -n 3 -d 2")
        def _(line):
            rc, text, s = run(line, "three.txt")
            check(rc == 0 and len(re.findall(r"(?m)^\s*PID\b", out("three.txt"))) == 3, f"{line}: three text samples")

        @ex("taskview -b --format json -p 1234 -o comm,ctxt_vol_rate | jq '.tasks[] | {pid, comm, ctxt_vol_rate}'")
        def _(line):
            rc, text, s = run(line, "jq.out")
            docs = json.loads("[" + re.sub(r"\}\s*\{", "},{", out("jq.out")) + "]") if out("jq.out").strip() else []
            # JSON carries the shown columns: -o names comm, which jq would print as null otherwise
            check(rc == 0 and docs and all(d.get("comm") for d in docs)
                  and any(d["pid"] == 1234 and "ctxt_vol_rate" in d for d in docs), f"{line}: {docs[:2]}")

        @ex("taskview -b --format json -p 1234 | jq '.tasks[] | {pid, command, cpu_delay, io_delay}'")
        def _(line):
            rc, text, s = run(line, "jq2.out")
            o = out("jq2.out")
            check(rc == 0 and '"pid": 1234' in o and '"cpu_delay"' in o and '"io_delay"' in o
                  and '"command": "' in o, f"{line}: the delays of 1234: {o[:200]!r}")

        def nginx(line):
            rc, text, s = run(line, "nginx.out")
            o = out("nginx.out")
            rows = [l.split() for l in o.splitlines() if re.match(r"\s*\d+\s", l)]
            names = {r[1] for r in rows if len(r) > 1} | {r[-1] for r in rows if r}
            check(rc == 0 and {"pingA", "pingB"} <= {w.strip("├─└`|- ") for w in names | set(o.split())},
                  f"{line}: the threads of nginx:\n{o}")

        @ex("taskview -b -H -s ctxt_vol_rate -o pid,comm,cpu,ctxt_vol_rate,ctxt_invol_rate -F nginx")
        def _(line):
            nginx(line)

        @ex("taskview -b -H -F nginx -s ctxt_vol_rate -o pid,comm,cpu,ctxt_vol_rate,ctxt_invol_rate")
        def _(line):
            nginx(line)

        def www(line, name, n):
            rc, text, s = run(line, timeout=60)
            docs = [json.loads(l) for l in out(name).splitlines() if l.strip()]
            users = {tk["user"] for d in docs for tk in d["tasks"]}
            check(rc == 0 and len(docs) == n and users == {"www-data"}, f"{line}: {len(docs)} samples, users {users}")

        @ex("ssh server taskview -b -u www-data --format json > sample.jsonl")
        def _(line):
            www(line, "sample.jsonl", 1)

        @ex("ssh server taskview -b -u www-data --format json -d 10 -n 360 > samples.jsonl")
        def _(line):
            # an hour: the first samples are checked, then it is stopped
            s = window(line)
            end = time.monotonic() + 60
            while time.monotonic() < end and len(out("samples.jsonl").splitlines()) < 2:
                time.sleep(0.5)
            docs = [json.loads(l) for l in out("samples.jsonl").splitlines()[:2]]
            users = {tk["user"] for d in docs for tk in d["tasks"]}
            # every 10 s: at least, and the interval a sample states is the time between the two
            apart = docs[1]["timestamp"] - docs[0]["timestamp"] if len(docs) == 2 else 0
            check(len(docs) == 2 and users == {"www-data"} and docs[1]["interval"] >= 9.999
                  and abs(docs[1]["interval"] - apart) < 0.1,
                  f"{line}: samples 10 s apart of www-data: {len(docs)}, {users}")
            interrupt(s)

        def recorded_at(path, at):
            """The first sample's time (local) at or after at, once the recording holds one:
            beside load the recorder's first sample may come seconds after it started."""
            end = time.monotonic() + 180
            while True:
                run(f"taskview -r {path} -b -o pid -p 1 | grep '^taskview '", "times.txt")
                times = re.findall(r"^taskview \S+ - \S+ (\d\d:\d\d:\d\d),", out("times.txt"), re.M)
                later = [x for x in times if x >= at]
                if later or time.monotonic() > end:
                    check(later, f"{path}: a sample at or after {at}, recorded at {times}")
                    return later[0] if later else None
                time.sleep(2)

        def replay_screen(line, path):
            first = recorded_at(path, "03:10:00")
            if first is None:
                return
            s = window(line)
            text = t.wait(s, lambda x: "Sample:" in x or "EXIT=" in x, "the replay", 30)
            m = re.search(r"Time: \S+ (\d\d:\d\d:\d\d)", text)
            if not m:
                rc, _x, _s = run(f"ls -l {path}; date; taskview -r {path} -b -o pid | grep -m3 taskview", "why.txt")
                text += "\n" + out("why.txt") + "\nthe recorder:\n" + t.text(rec)
            check(m and m.group(1) == first, f"{line}: starts at {first}, the first sample from 03:10 "
                  f"({m and m.group(1)}):\n{text}")
            t.keys(s, "q")
            rc, _t = t.wait_exit(s, 20)
            check(rc == 0, f"{line}: quits")

        @ex("sudo taskview -r /var/tmp/tv --begin 03:10")
        def _(line):
            replay_screen(line, "/var/tmp/tv")

        @ex("taskview -r /var/log/taskview --begin 03:10")
        def _(line):
            # the service's directory: the same recording, copied there
            rc, _x, _s = run("cp -p /var/tmp/tv/*.tvr /var/log/taskview/")
            check(rc == 0, "a recording in /var/log/taskview")
            replay_screen(line, "/var/log/taskview")

        @ex("sudo taskview -r /var/tmp/tv -b --begin 03:10 --end 03:20 -d 60 -s io_delay")
        def _(line):
            # a sample a minute from 03:10: the recorder has to reach 03:11
            recorded_at("/var/tmp/tv", "03:11:00")
            rc, text, s = run(line, "stretch.txt")
            o = out("stretch.txt")
            check(rc == 0 and re.search(r"\bPID\b", o) and "IOD" in o, f"{line}: that stretch, by I/O delay:\n{o[:500]}")

        @ex("taskview -b --group cgroup -c system.slice")
        def _(line):
            rc, text, s = run(line, "groups.txt")
            o = out("groups.txt")
            # the host may have no system.slice: then it says so, and ends well
            check(rc == 0, f"{line}: exit {rc}: {o[:300]}")

        @ex('taskview -b --format openmetrics -n 1')
        def _(line):
            rc, text, s = run(line, "om.txt")
            check(rc == 0 and out("om.txt").endswith("# EOF\n"), f"{line}: one exposition ending in # EOF")

        def textfile(line):
            s = window(line)
            path = "/var/lib/prometheus/node-exporter/taskview.prom"
            probe = f"{enter} sh -c 'test -s {path} && tail -c 6 {path}'"
            end = time.monotonic() + 60
            got = ""
            while time.monotonic() < end:
                got = subprocess.run(probe, shell=True, capture_output=True, text=True).stdout
                if got:
                    break
                time.sleep(1)
            check(got.endswith("\n") and "taskview" not in got[:0], f"{line}: the text file written ({got!r})")
            interrupt(s)

        @ex("taskview --textfile /var/lib/prometheus/node-exporter/taskview.prom -d 15 --top 10")
        def _(line):
            textfile(line)

        @ex("sudo sysctl kernel.task_delayacct=1")
        def _(line):
            nonlocal old_delayacct
            was = open("/proc/sys/kernel/task_delayacct").read().strip()
            # where it is on already the line changes nothing, and runs beside other tests
            if was != "1" and os.environ.get("TASKVIEW_TEST_CHANGE_HOST") != "1":
                print(f"SKIP {line}: changes the host (TASKVIEW_TEST_CHANGE_HOST=1 runs it)")
                return
            old_delayacct = was
            rc, text, s = run(line)
            check(rc == 0 and open("/proc/sys/kernel/task_delayacct").read().strip() == "1", f"{line}")

        @ex("sudo taskview -s io_delay")
        def _(line):
            s = window(line)
            text = t.wait(s, lambda x: re.search(r"\bPID\b", x) and "Tasks:" in x, "the screen", 20)
            head = tmuxlib.header_line(text)
            check("IOD" in head, f"{line}: sorted by the I/O delay column: {head!r}")
            t.keys(s, "q")
            rc, _t = t.wait_exit(s, 20)
            check(rc == 0, f"{line}: quits")

        order = [l for l in lines if cmd_only(l[1]) != rec_line]
        # the long replay waits for the recorder: last
        order.sort(key=lambda l: "-d 60" in l[1])
        for src, line in order:
            c = cmd_only(line)
            if c not in checks:
                check(False, f"{src}: no check for the example {line!r}: add one to test_examples.py")
                continue
            ran.add(c)
            try:
                checks[c](line)
            except AssertionError as e:
                check(False, f"{src}: {line}: {e}")
        # the recorder: daily files in the directory, kept running until now
        check(t.alive(rec), f"{rec_line}: still recording")
        rc, text = interrupt(rec)
        files = subprocess.run(f"{enter} sh -c 'ls /var/tmp/tv'", shell=True, capture_output=True,
                               text=True).stdout.split()
        # stopped as Ctrl-C stops it: the shell's status of a SIGINT, or 0
        check(rc in (0, 130) and any(re.fullmatch(r"taskview-\d{4}-\d\d-\d\d\.tvr", f) for f in files),
              f"{rec_line}: daily files {files}, exit {rc}")
    finally:
        # the namespace's first process ignores a hang-up: it, and with it everything in it, ends here
        if ns_pid:
            try:
                os.kill(ns_pid, signal.SIGKILL)
            except OSError:
                pass
        if old_delayacct is not None:
            with open("/proc/sys/kernel/task_delayacct", "w") as f:
                f.write(old_delayacct)
        t.kill_server()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(ran)} example lines run, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
