# SPDX-License-Identifier: GPL-2.0-or-later
"""The keys an htop user reaches for, and a terminal that goes away, in tmux:
a taskview whose terminal is gone ends at once, with or without a hang-up
signal; a signal's number typed in the signal menu selects it; e, l, a and s
show the environment, the open files, the CPU affinity (and set it) and
trace the task, as root and as a user, with control characters escaped;
Esc or q leaves strace and q then quits; keys that do nothing say so.

Runs the real binary in private tmux servers (tmuxlib.py). Exit 77 (skip)
when tmux is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tmuxlib  # noqa: E402
from tmuxlib import Tmux, selected_row  # noqa: E402

ENV = {"NO_COLOR": "1", "TERM": "screen"}
AS_ROOT = os.geteuid() == 0
NOBODY = ("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups")


def descendants(pid):
    out = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                kids = [int(x) for x in f.read().split()]
        except OSError:
            continue
        out += kids
        todo += kids
    return out


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def find_taskview(t, s):
    sh = int(t.cmd("display", "-p", "-t", s, "#{pane_pid}").strip())
    for p in descendants(sh):
        if comm(p) == "taskview":
            return p
    raise AssertionError(f"no taskview below {sh}")


def cpu_ticks(pid):
    """utime + stime of a process, or None when it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[11]) + int(fields[12])


def start(t, args, w=100, h=30, wrap=(), env=None):
    shutil.rmtree(os.path.join(t.home, "cfg"), ignore_errors=True)
    s = t.start(args, env={**ENV, **(env or {})}, width=w, height=h, wrap=wrap)
    t.wait_for(s, "PID")
    return s


def status_line(t, s):
    lines = t.text(s).splitlines()
    return lines[-2] if len(lines) >= 2 else ""


# ---- the terminal goes away ----

def hangup_case(home, wrap, what, args=("-d", "0.5"), keys=(), ready=None, before=None):
    """taskview in a tmux server of its own, then the server killed (after
    keys, once ready is on the screen)."""
    t = Tmux(home)
    t.sock = f"tvhup-{os.getpid()}-{what}"
    try:
        s = start(t, list(args), wrap=wrap)
        pid = find_taskview(t, s)
        if keys:
            if before:
                t.wait_for(s, before)
            t.keys(s, *keys)
            t.wait_for(s, ready)
        helpers = descendants(pid)
        t.kill_server()
        # it ends (a guard of 60 s: the time it takes is measured in bench/, beside a
        # storm); until then it must not spin
        start_t = time.monotonic()
        end = start_t + 60
        first = cpu_ticks(pid)
        last = first
        while time.monotonic() < end:
            now = cpu_ticks(pid)
            if now is None:
                break
            last = now
            time.sleep(0.05)
        took = time.monotonic() - start_t
        hz = os.sysconf("SC_CLK_TCK")
        used = (last - first) / hz if first is not None and last is not None else 0.0
        if cpu_ticks(pid) is not None:
            os.kill(pid, 9)
            raise AssertionError(f"{what}: taskview {pid} still runs {took:.0f} s after its terminal went away, "
                                 f"having used {used:.2f} s of CPU meanwhile")
        print(f"  {what}: ended {took:.2f} s after the server was killed, {used:.2f} s of CPU meanwhile")
        assert used <= 0.5 * took + 0.5, f"{what}: it spun before it ended: {used:.2f} s of CPU in {took:.2f} s"
        for h in helpers:
            assert pid_gone(h), f"{what}: {comm(h)} {h}, started by taskview, still runs"
    finally:
        t.kill_server()


def test_terminal_gone(t):
    home = t.home
    # a session of its own: no hang-up signal reaches it, only end of file
    hangup_case(home, ("setsid",), "setsid")
    # hang-ups ignored by whatever started it
    hangup_case(home, ("sh", "-c", "trap '' HUP; exec setsid \"$@\"", "sh"), "nohup")
    # the same session: SIGHUP
    hangup_case(home, (), "sighup")
    if AS_ROOT and shutil.which("runuser"):
        hangup_case(home, ("runuser", "-u", "nobody", "--"), "runuser")
    if AS_ROOT and shutil.which("strace"):
        # while strace runs with the screen put away
        victim = subprocess.Popen(["sleep", "300"])
        try:
            hangup_case(home, ("setsid",), "strace", args=("-p", str(victim.pid)), keys=("s",), ready="attached",
                         before="sleep 300")
        finally:
            victim.kill()
            victim.wait()


# ---- htop's keys ----

def pid_gone(pid, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cpu_ticks(pid) is None:
            return True
        time.sleep(0.05)
    return False


def test_signal_number(t):
    victim = subprocess.Popen(["sleep", "300"])
    try:
        s = start(t, ["-p", str(victim.pid)])
        t.wait_for(s, "sleep 300")
        # 9 alone, then 1 and 5 in a row, select the signal of that number
        for digits, name in ((["9"], "KILL"), (["1", "5"], "TERM"), (["1"], "HUP"), (["1", "8"], "CONT")):
            t.keys(s, "k")
            t.wait_for(s, "Send signal:")
            for d in digits:
                t.keys(s, d)
            t.keys(s, "Enter")
            t.wait_for(s, f"Send SIG{name} to process {victim.pid}")
            t.keys(s, "n")
            t.wait_gone(s, f"Send SIG{name}")
        assert victim.poll() is None, "a cancelled confirmation sent a signal"
        t.keys(s, "k", "9", "Enter")
        t.wait_for(s, "Send SIGKILL")
        t.keys(s, "y")
        t.wait_for(s, f"sent SIGKILL to {victim.pid}")
        assert victim.wait(timeout=5) == -9
        t.quit(s)
    finally:
        if victim.poll() is None:
            victim.kill()
        victim.wait()


def hostile_process(tmp):
    """A sleep whose environment and open file carry control characters."""
    evil = os.path.join(tmp, "tv-evil\x1b[2J\x07name\nx")
    with open(evil, "w"):
        pass
    env = {"PATH": "/usr/bin:/bin", "TVFOO": "bar\x1b[31mred\x07\u009b2J", "TV\x01BAD": "x"}
    with open(evil) as f:
        p = subprocess.Popen(["sleep", "300"], stdin=f, env=env)
    return p, evil


def no_raw_escapes(t, s, what):
    """NO_COLOR: an escape that coloured the screen came from a task, raw."""
    from tmuxlib import has_colour
    esc = t.text(s, escapes=True)
    assert not has_colour(esc), f"{what}: a colour reached the terminal:\n{esc!r}"
    assert "\x07" not in esc


def test_environ_files(t):
    tmp = tempfile.mkdtemp(prefix="tv-keys-")
    os.chmod(tmp, 0o755)
    p, evil = hostile_process(tmp)
    try:
        s = start(t, ["-p", str(p.pid)])
        t.wait_for(s, "sleep 300")
        t.keys(s, "e")
        text = t.wait_for(s, f"Environment of process {p.pid}")
        assert "TVFOO=bar\\e[31mred\\x07\\u009b2J" in text, text
        assert "TV\\x01BAD=x" in text, text
        no_raw_escapes(t, s, "e")
        # a frame around the panel
        assert "┌" in text and "┘" in text, text
        t.keys(s, "e")
        t.wait_gone(s, "Environment of")
        t.keys(s, "l")
        text = t.wait_for(s, f"Open files of process {p.pid}")
        assert "tv-evil\\e[2J\\x07name\\nx" in text, text
        assert re.search(r"\b0 r\s+0\s+/", text), text
        assert "/usr/bin/sleep" in text or "/bin/sleep" in text, text
        no_raw_escapes(t, s, "l")
        t.keys(s, "Escape")
        t.wait_gone(s, "Open files of")
        t.quit(s)
    finally:
        p.kill()
        p.wait()
        os.unlink(evil)
        os.rmdir(tmp)


def test_as_user(t):
    """As nobody: another user's environment, files, affinity and trace are
    refused with a reason; one's own are shown."""
    if not AS_ROOT:
        print("  not root: skipped")
        return
    root_p = subprocess.Popen(["sleep", "300"])
    mine = subprocess.Popen([*NOBODY, "sleep", "300"])
    try:
        time.sleep(0.1)
        s = start(t, ["-s", "pid", "-p", f"{root_p.pid},{mine.pid}"], wrap=NOBODY)
        t.wait_for(s, "nobody")
        root_first = root_p.pid < mine.pid
        t.keys(s, "Home" if root_first else "End")
        refusals = [("e", "cannot read the environment"), ("l", "cannot read the open files")]
        if shutil.which("strace"):
            refusals.append(("s", "cannot trace"))
        for key, what in refusals:
            t.keys(s, key)
            line = t.wait(s, lambda x: what in x, what).splitlines()
            msg = [x for x in line if what in x][0]
            assert "another user" in msg, msg
            t.keys(s, "Escape")
        t.keys(s, "a")
        t.wait_for(s, "may run on:")
        t.keys(s, "Enter")
        t.wait_for(s, "belongs to another user")
        t.keys(s, "End" if root_first else "Home", "e")
        t.wait_for(s, f"Environment of process {mine.pid}")
        t.keys(s, "Escape")
        t.wait_gone(s, "Environment of")
        t.quit(s)
    finally:
        for p in (root_p, mine):
            p.kill()
            p.wait()


def test_stacks_as_user(t):
    """As nobody, another user's thread stacks are "-" (never 0), and the panel
    says why, for the stacks and for the address space."""
    if not AS_ROOT:
        print("  not root: skipped")
        return
    w = tmuxlib.Workload("--stacks", "1024", "--idle", "8", "--name", "tv-stk-root")
    try:
        s = start(t, ["-p", str(w.pid), "-o", "pid,stack_size,stack_rss,comm"], h=60, wrap=NOBODY)
        row = t.wait(s, lambda x: "tv-stk-root" in x, "the workload's row")
        line = [x for x in row.splitlines() if "tv-stk-root" in x][0]
        assert line.split()[:3] == [str(w.pid), "-", "-"], line
        t.keys(s, "i")
        t.keys(s, "End")
        # the address space is read off the screen's thread: its reason comes after the stacks'
        text = t.wait(s, lambda x: "Address space" in x and "mappings needs permission" in " ".join(
            y.strip("|│ ") for y in x.splitlines()), "the reasons")
        joined = " ".join(y.strip("|│ ") for y in text.splitlines())
        assert re.search(r"Thread stacks reserved +- ", text), text
        assert "Some thread stacks are unknown: finding and reading them needs permission to trace the " \
               "process (ptrace)" in joined, joined
        assert "The address space by kind is unknown: reading the process's mappings needs permission to " \
               "trace it (ptrace)" in joined, joined
        t.keys(s, "Escape")
        t.quit(s)
    finally:
        w.stop()


def test_affinity(t):
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        print("  one CPU: skipped")
        return
    p = subprocess.Popen(["sleep", "300"])
    try:
        s = start(t, ["-p", str(p.pid)])
        t.wait_for(s, "sleep 300")
        t.keys(s, "a")
        text = t.wait_for(s, f"CPUs process {p.pid} (sleep) may run on:")
        assert f"[x] CPU {cpus[0]}" in text, text
        # untick the first CPU the test may use, set
        t.keys(s, *(["Down"] * cpus[0]), "Space", "Enter")
        t.wait_for(s, f"may now run on {len(cpus) - 1} CPU")
        assert os.sched_getaffinity(p.pid) == set(cpus[1:]), os.sched_getaffinity(p.pid)
        # none ticked: refused, nothing changed
        t.keys(s, "a")
        # the affinity as it is now
        text = t.wait_for(s, "may run on:")
        assert f"[ ] CPU {cpus[0]}" in text and f"[x] CPU {cpus[1]}" in text, text
        # a: all, again: none
        t.keys(s, "a")
        t.wait_for(s, f"[x] CPU {cpus[0]}")
        t.keys(s, "a")
        t.wait_for(s, f"[ ] CPU {cpus[1]}")
        t.keys(s, "Enter")
        t.wait_for(s, "Tick at least one CPU")
        t.keys(s, "Escape")
        assert os.sched_getaffinity(p.pid) == set(cpus[1:])
        t.quit(s)
    finally:
        p.kill()
        p.wait()


def test_trace(t):
    p = subprocess.Popen(["sleep", "300"])
    try:
        s = start(t, ["-p", str(p.pid)], env={"PATH": "/nonexistent"})
        t.wait_for(s, "sleep 300")
        t.keys(s, "s")
        t.wait_for(s, "strace, which is not installed")
        t.quit(s)
        if not shutil.which("strace"):
            print("  strace not installed: only its absence checked")
            return
        s = start(t, ["-p", str(p.pid)])
        tv = find_taskview(t, s)
        t.wait_for(s, "sleep 300")
        t.keys(s, "s")
        t.wait_for(s, f"tracing {p.pid} with strace")
        if not AS_ROOT:
            return
        t.wait_for(s, "attached")
        # Ctrl-C ends strace, not taskview (nor the traced task)
        t.keys(s, "C-c")
        t.wait_for(s, "press Enter to return")
        t.keys(s, "Enter")
        t.wait_for(s, f"traced {p.pid} (sleep)")
        assert p.poll() is None, "the traced task died"
        assert cpu_ticks(tv) is not None, "taskview ended with strace"
        # the shell of the pane got the Ctrl-C too: taskview's end is seen by its PID
        t.keys(s, "q")
        assert pid_gone(tv), "taskview did not quit after the trace"
    finally:
        p.kill()
        p.wait()


def test_trace_leave(t):
    """Esc or q leaves strace as it leaves any panel, and q then quits: an
    htop user's way out (Ctrl-C is not the only one)."""
    if not (AS_ROOT and shutil.which("strace")):
        print("  needs root and strace: skipped")
        return
    p = subprocess.Popen(["sleep", "300"])
    traces = 0

    def trace():
        """s, then waits for this strace's own line: the terminal still shows the earlier ones."""
        nonlocal traces
        traces += 1
        t.keys(s, "s")
        t.wait(s, lambda x: x.count("Process %d attached" % p.pid) >= traces, f"strace attached ({traces})")

    try:
        s = start(t, ["-p", str(p.pid)])
        tv = find_taskview(t, s)
        t.wait_for(s, "sleep 300")
        for key in ("Escape", "q", "F10"):
            trace()
            t.keys(s, key)
            # straight back to the screen: no Enter asked for
            t.wait_for(s, "PID")
            t.wait_gone(s, "attached")
            assert cpu_ticks(tv) is not None, f"{key} in strace ended taskview"
            assert p.poll() is None, "the traced task died"
        # arrows are no Esc (their sequences start with one): strace goes on
        # until Ctrl-C, which asks for Enter; Esc then also brings the screen back
        trace()
        t.keys(s, "Up")
        t.keys(s, "S-Right")
        t.keys(s, "C-c")
        t.wait_for(s, "press Enter to return")
        t.keys(s, "Escape")
        t.wait_for(s, "PID")
        t.keys(s, "q")
        assert pid_gone(tv), "taskview did not quit with q after leaving strace"
    finally:
        p.kill()
        p.wait()


def test_pid_digits_end_at_another_key(t):
    """Digits jump to the process whose PID starts with them; any other key ends
    the number, so the next digits are a PID of their own, however soon."""
    procs = [subprocess.Popen(["sleep", "300"]) for _ in range(3)]
    a, b, c = sorted(p.pid for p in procs)
    try:
        s = start(t, ["-d", "0.5", "-s", "pid", "-p", f"{a},{b},{c}", "-o", "pid,comm"])
        t.wait(s, lambda x: all(str(p) in x for p in (a, b, c)), "the three rows")

        def selected(pid, what):
            end = time.monotonic() + tmuxlib.WAIT
            row = None
            while time.monotonic() < end:
                row = selected_row(t, s)
                if row and row.split() and row.split()[0] == str(pid):
                    return
                time.sleep(0.05)
            raise AssertionError(f"{what}: selected {row!r}\n{t.text(s)}")

        t.keys(s, *str(b))
        selected(b, "the digits of the middle PID")
        # Home, then at once the last PID: not the digits of both
        t.keys(s, "Home", *str(c))
        selected(c, "the digits typed after Home")
        t.quit(s)
    finally:
        for p in procs:
            p.kill()
            p.wait()


def test_unbound_key(t):
    s = start(t, ["-d", "0.5"])
    t.keys(s, "x")
    t.wait_for(s, "x does nothing here (F1 lists the keys)")
    t.keys(s, "F11")
    t.wait_for(s, "does nothing here")
    t.quit(s)


# ---- 80, 100 and 200 columns ----

SIZES = ((80, 24), (100, 30), (200, 50))


def help_entry(text, keys):
    """What the help screen says of keys, its wrapped lines joined."""
    out = None
    for line in text.splitlines():
        if out is None:
            if line.startswith(keys + " ") and line[len(keys):22].strip() == "":
                out = line[23:].strip()
        elif line.startswith(" " * 23) and line.strip():
            out += " " + line.strip()
        else:
            break
    return out


def check_size(t, w, h):
    what = f"{w}x{h}"
    s = start(t, ["-d", "0.5"], w=w, h=h)
    text = t.wait_for(s, "Uptime:")
    tasks = [x for x in text.splitlines() if x.startswith("Tasks:")][0]
    assert re.search(r"Uptime: (\d+d )?\d\d:\d\d:\d\d\s*$", tasks), f"{what}: the task line is cut: {tasks!r}"
    assert re.search(r"Load( average)?: \d+\.\d\d \d+\.\d\d \d+\.\d\d ", tasks), f"{what}: {tasks!r}"
    psi = [x for x in text.splitlines() if x.startswith("PSI ")]
    if psi and "[" in psi[0]:
        line = psi[0]
        assert not re.search(r"\(\d", line), f"{what}: pressure figures without their label: {line!r}"
        n = line.count("avg10")
        assert n in (0, 3), f"{what}: the meters say different things: {line!r}"
        for label in ("cpu[", "io[", "mem["):
            assert label in line, f"{what}: {label} missing: {line!r}"
    # F1: lines wrap at blanks
    t.keys(s, "F1")
    text = t.wait_for(s, "Keys:")
    for keys, says in (("g", "group view: processes under their control group, with its sums and pressure"),
                       ("/", "search a name, command, thread name or control group (jumps as you type)")):
        got = help_entry(text, keys)
        assert got == says, f"{what}: help for {keys}: {got!r}\n{text}"
    t.keys(s, "Escape")
    t.wait_gone(s, "Keys:")
    # T: sorted by CPU time, shown or named
    t.keys(s, "T")
    text = t.wait(s, lambda x: "sorted by TIME" in x or re.search(r"TIME\s*[▼▲]|[▼▲]\s*TIME", x), "the sort by TIME")
    from tmuxlib import header_line
    if "TIME" not in header_line(text):
        assert "[sorted by TIME, descending; not shown: F2 adds it]" in text, text
    t.keys(s, "P")
    t.wait_gone(s, "sorted by TIME")
    # t and g from the first row: the new view from its top, the first row selected
    for key, ready in (("t", "process tree"), ("g", "group view")):
        t.keys(s, "Home", key)
        t.wait_for(s, ready)
        from tmuxlib import table_rows
        end = time.monotonic() + 60
        while True:
            text = t.text(s)
            rows = table_rows(text)
            sel = selected_row(t, s)
            if key == "g" and rows and not rows[0].lstrip().startswith("-"):
                ok = False  # the groups come with a later sample
            else:
                ok = bool(rows) and sel is not None and sel.rstrip() == rows[0].rstrip()
            if ok or time.monotonic() > end:
                break
            time.sleep(0.1)
        assert ok, f"{what}: after {key} the selection is not the first row: {sel!r}\n{text}"
        t.keys(s, key)
    # F2: nothing of the table beside the list of columns
    t.keys(s, "F2")
    text = t.wait_for(s, "Columns (shown first")
    pid = [x for x in text.splitlines() if re.match(r"\[.\] PID\s+pid\s", x)][0]
    assert pid.rstrip().endswith("thread rows"), f"{what}: {pid!r}"
    t.keys(s, "Escape")
    t.wait_gone(s, "Columns (shown first")
    # i and w: a frame
    for key, title in (("i", "Process "), ("w", "Command line of process")):
        t.keys(s, "Home", key)

        def framed(text):
            lines = text.splitlines()
            top = [i for i, x in enumerate(lines) if "┌" in x]
            return (title in text and bool(top) and top[0] + 1 < len(lines) and "│" in lines[top[0] + 1]
                    and any("└" in x for x in lines[top[0]:]))
        # a capture may come while the panel is being drawn: wait for the whole frame
        t.wait(s, framed, f"{what} {key}: a framed panel")
        t.keys(s, "Escape")
        t.wait_gone(s, title)
    t.quit(s)


def test_sizes(t):
    for w, h in SIZES:
        check_size(t, w, h)


def test_sort_then_panel(t):
    """A sort key, then i at once, on columns that need no taskstats: the panel opens taskstats for
    its delays while the sort's sample is being taken. The client reaches the sampler through its
    own thread, in order (handed to it directly, it was used and taken away at once: SIGSEGV)."""
    for sort in ("N", "P", "M"):
        for _ in range(3):
            s = start(t, ["-d", "0.3", "-o", "pid,user,cpu,vm_rss,command"])
            t.wait(s, lambda x: re.search(r"(?m)^ +\d+ root ", x), "the rows")  # a row to open
            t.keys(s, sort, "i")
            t.wait_for(s, "CPU delay")
            t.keys(s, "Escape")
            t.wait_gone(s, "CPU delay")
            t.quit(s)


TESTS = [test_sizes, test_sort_then_panel, test_terminal_gone, test_signal_number, test_environ_files, test_as_user, test_stacks_as_user, test_affinity, test_trace, test_trace_leave,
         test_pid_digits_end_at_another_key, test_unbound_key]


def main():
    return tmuxlib.run_tests("tv-tui-keys-", TESTS, public=True)

if __name__ == "__main__":
    sys.exit(main())
