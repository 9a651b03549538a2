# SPDX-License-Identifier: GPL-2.0-or-later
"""Column plugins through the real binary: rejections and exit statuses, discovery, the time
budget, root's ownership rules, the shipped plugins on a workload, and a plugin built out of
tree against the installed SDK only."""
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from tvtest import (TASKVIEW, Skip, Workload, check, disk_dir, is_root, json_lines, main,  # noqa: E402
                    reachable, run, run_json)

BUILD_DIR = os.environ.get("BUILD_DIR", "build")
SOURCE_DIR = os.environ.get("SOURCE_DIR", ".")
TEST_MODS = os.environ.get("PLUGIN_TEST_DIR", os.path.join(BUILD_DIR, "tests", "plugins"))
SHIPPED = os.environ.get("PLUGIN_DIR", os.path.join(BUILD_DIR, "plugins"))


def mod(name):
    return os.path.join(TEST_MODS, name + ".so")


def shipped(name):
    path = os.path.join(SHIPPED, name + ".so")
    if not os.path.exists(path):
        raise Skip(f"{path} not built (-Dplugins=false?)")
    return path


def env_with(**kw):
    env = dict(os.environ)
    env.update(kw)
    return env


def make_tree(root, files):
    """Creates root/taskview/plugins holding copies of files (name -> source), mode 0755."""
    d = os.path.join(root, "taskview", "plugins")
    os.makedirs(d)
    for p in (root, os.path.join(root, "taskview"), d):
        os.chmod(p, 0o755)
    for name, src in files.items():
        shutil.copy(src, os.path.join(d, name))
        os.chmod(os.path.join(d, name), 0o755)
    return d


def task_row(doc, pid):
    rows = [t for t in doc["tasks"] if t["kind"] == "process" and t["pid"] == pid]
    check(len(rows) == 1, f"one process row for {pid}: {doc['tasks']}")
    return rows[0]


BROKEN = [
    ("noentry", "not a taskview plugin: no taskview_plugin_v1 symbol"),
    ("future_major", "ABI mismatch: the plugin needs ABI 2 (taskview_plugin_v2), taskview"),
    ("wrong_major", "ABI mismatch: the plugin needs ABI 2.0, taskview"),
    ("newer_minor", "ABI mismatch: the plugin needs ABI 1.1, taskview"),
    ("null_field", "missing mandatory field: collect"),
    ("dup_ids", "duplicate column id: dup.x"),
]


def test_check_plugin_rejects_with_stage():
    for name, message in BROKEN:
        r = run("--check-plugin", mod(name))
        check(r.returncode == 1, f"{name}: --check-plugin exited {r.returncode}, want 1: {r.stderr}")
        check(f"plugin {mod(name)}: {message}" in r.stderr, f"{name}: want '{message}' in: {r.stderr!r}")
    r = run("--check-plugin", os.path.join(TEST_MODS, "no-such-plugin.so"))
    check(r.returncode == 1 and "cannot load: No such file or directory" in r.stderr, r.stderr)
    # a file that is not a shared object: the loader's own words, under the user's file name;
    # a copy, as root would refuse the file in a group-writable source tree before loading it
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        src = os.path.join(d, "hello.c")
        shutil.copy(os.path.join(SOURCE_DIR, "tests", "plugins", "hello.c"), src)
        os.chmod(src, 0o644)
        r = run("--check-plugin", src)
    check(r.returncode == 1 and "hello.c: cannot load: " in r.stderr and "/proc/self/fd" not in r.stderr, r.stderr)


def test_check_plugin_good():
    for name, ids in (("hello", ["hello.tid", "hello.comm", "hello.refreshes"]),
                      ("older_small", ["old.tid", "old.ticks"]),
                      ("old_padded", ["oldpad.tid", "oldpad.tag"])):
        r = run("--check-plugin", mod(name))
        check(r.returncode == 0, f"{name}: --check-plugin exited {r.returncode}: {r.stderr}")
        for i in ids:
            check(i in r.stdout, f"{name}: {i} not listed: {r.stdout}")
        check("sample on taskview's own process" in r.stdout, r.stdout)
    for name in ("io", "oom", "fds"):
        r = run("--check-plugin", shipped(name))
        check(r.returncode == 0, f"{name}: --check-plugin exited {r.returncode}: {r.stderr}")


def test_explicit_failure_exits_2():
    for name, message in BROKEN:
        r = run("-b", "--format", "json", "--no-plugins", "--plugin", mod(name), "-p", str(os.getpid()))
        check(r.returncode == 2, f"{name}: exited {r.returncode}, want 2")
        check(message in r.stderr, f"{name}: want '{message}' in: {r.stderr!r}")
        check(r.stdout == "", f"{name}: no sample expected: {r.stdout!r}")


def test_older_plugin_values():
    pid = os.getpid()
    docs = run_json("--no-plugins", "--plugin", mod("older_small"), "-p", str(pid), "-d", "0.3",
                    "-n", "2", "-o", "pid,old.tid,old.ticks")
    check(len(docs) == 2, f"two samples: {docs}")
    row = task_row(docs[-1], pid)
    check(row["old.tid"] == pid, f"old.tid {row['old.tid']}")
    # its counter stays at 1: a rate of zero, known
    check(row["old.ticks"] == 0, f"old.ticks rate {row['old.ticks']}")


def test_discovery_carries_on():
    pid = os.getpid()
    with tempfile.TemporaryDirectory() as root:
        make_tree(root, {"hello.so": mod("hello"), "broken.so": mod("noentry"), "README": mod("noentry")})
        env = env_with(XDG_DATA_HOME=root)
        r = run("-b", "--format", "json", "-p", str(pid), "-o", "pid,hello.tid,hello.comm", env=env)
        check(r.returncode == 0, f"exited {r.returncode}: {r.stderr}")
        check("broken.so: not a taskview plugin" in r.stderr, f"message for the broken plugin: {r.stderr!r}")
        check("README" not in r.stderr, r.stderr)
        row = task_row(json_lines(r.stdout)[0], pid)
        with open("/proc/self/comm") as f:
            comm = f.read().strip().upper()
        check(row["hello.tid"] == pid and row["hello.comm"] == comm, f"row {row}, want comm {comm}")
        # --no-plugins: nothing discovered, the column does not exist
        r = run("--no-plugins", "--list-columns", env=env)
        check(r.returncode == 0 and "hello.tid" not in r.stdout, f"--no-plugins listed: {r.stdout}")
        r = run("--list-columns", env=env)
        check("hello.tid" in r.stdout, f"discovered column not listed: {r.stdout}")
        # TASKVIEW_PLUGINDIR stands for the system directory
        system = os.path.join(root, "system")
        os.mkdir(system, 0o755)
        shutil.copy(mod("older_small"), os.path.join(system, "old.so"))
        r = run("--list-columns", env=env_with(TASKVIEW_PLUGINDIR=system))
        check("old.tid" in r.stdout and "hello.tid" not in r.stdout, f"TASKVIEW_PLUGINDIR not searched: {r.stdout}")
        # HOME is used when XDG_DATA_HOME is unset
        home = os.path.join(root, "home")
        make_tree(os.path.join(home, ".local", "share"), {"hello.so": mod("hello")})
        env = env_with(HOME=home)
        env.pop("XDG_DATA_HOME", None)
        r = run("--list-columns", env=env)
        check("hello.tid" in r.stdout, f"~/.local/share plugin not found: {r.stdout} {r.stderr}")


def test_never_current_directory():
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(mod("hello"), os.path.join(d, "hello.so"))
        r = subprocess.run([os.path.abspath(os.environ.get("TASKVIEW", "taskview")), "--list-columns"],
                           cwd=d, capture_output=True, text=True, env=env_with(XDG_DATA_HOME=d))
        check("hello.tid" not in r.stdout, "a plugin was taken from the current directory")


def test_slow_plugin_disabled():
    """Over its CPU budget in every refresh: still shown after the first overrun (batch mode
    takes one refresh before the first it prints), disabled in the third."""
    pid = os.getpid()
    r = run("-b", "--format", "json", "--no-plugins", "--plugin", mod("slow"), "-p", str(pid),
            "-n", "4", "-d", "0.2", "-o", "pid,slow.value")
    check(r.returncode == 0, f"exited {r.returncode}: {r.stderr}")
    check("plugin slow disabled: " in r.stderr and
          "more CPU time than their budget in 3 refreshes in a row" in r.stderr,
          f"no disable message: {r.stderr!r}")
    values = [task_row(json.loads(line), pid)["slow.value"] for line in r.stdout.split("\n") if line]
    check(values == [1, None, None, None], f"slow.value per refresh: {values}")


# Plugins that break a rule while collecting (tests/plugins/hostile.c): what taskview says.
COLLECT_FAILURES = [
    ("loop_collect", r"no answer within [0-9.]+ s of wall-clock time \(it loops or blocks\)"),
    ("block_collect", r"no answer within [0-9.]+ s of wall-clock time \(it loops or blocks\)"),
    # a sanitizer build turns the signal into its own exit status
    ("segv", r"the plugin helper ended while it ran \((killed by signal 11|exit status \d+)"),
    ("aborts", r"the plugin helper ended while it ran \(killed by signal 6"),
    ("exits", r"the plugin helper ended while it ran \(exit status 3\)"),
    ("noisy", r"it wrote to standard output or error, which plugins must not do: "
              r"\\e\]2;pwned by a plugin\\x07noisy on stdout"),
    ("junk", r"the plugin helper sent malformed data while it ran"),
]
# ... and while loading.
LOAD_FAILURES = [
    ("loop_init", r"hung while loading: no answer within [0-9.]+ s"),
    ("segv_init", r"crashed while loading: the plugin helper ended \((killed by signal 11|exit status \d+)"),
    ("liar", r"crashed while loading: the plugin helper ended \((killed by signal 11|exit status \d+)"),
]


def marked_env(**kw):
    """An environment whose mark every process started from it carries (the plugin helper too)."""
    mark = f"{os.getpid()}-{time.monotonic_ns()}"
    return env_with(TV_PLUGIN_TEST_MARK=mark, **kw), mark


def marked_pids(mark):
    """Processes still running with the mark: a helper left behind."""
    found = []
    needle = f"TV_PLUGIN_TEST_MARK={mark}".encode()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    found.append(int(d))
        except OSError:
            pass
    return found


def wait_unmarked(mark, timeout=3.0):
    end = time.monotonic() + timeout
    while marked_pids(mark) and time.monotonic() < end:
        time.sleep(0.05)
    return marked_pids(mark)


def run_awake(*args, env=None):
    """run(), and the seconds the run took less those taskview's main thread spent
    runnable but waiting for a CPU (its schedstat run_delay, read from the ended
    process before it is reaped): beside CPU hogs and other suites, a run was held
    for a minute, and a bound on its time would measure the machine."""
    t0 = time.monotonic()
    p = subprocess.Popen([TASKVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         errors="surrogateescape")
    out = {}

    def drain(name, f):
        out[name] = f.read()
    readers = [threading.Thread(target=drain, args=(n, f)) for n, f in (("out", p.stdout), ("err", p.stderr))]
    for r in readers:
        r.start()
    guard = threading.Timer(180, p.kill)  # a hang, not a measurement
    guard.start()
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
    guard.cancel()
    took = time.monotonic() - t0
    with open(f"/proc/{p.pid}/schedstat") as f:
        waited = int(f.read().split()[1]) / 1e9
    p.wait()
    for r in readers:
        r.join()
    return subprocess.CompletedProcess(p.args, p.returncode, out["out"], out["err"]), took - waited


def test_hostile_plugins_disabled():
    """Each plugin that hangs, crashes, exits, writes output or garbage while collecting is named
    once and disabled; the other plugin and the built-in columns go on in every sample, nothing
    reaches taskview's output, and no helper is left behind."""
    pid = os.getpid()
    for name, reason in COLLECT_FAILURES:
        env, mark = marked_env()
        r, took = run_awake("-b", "--format", "json", "--no-plugins", "--plugin", mod(name), "--plugin",
                            mod("hello"), "-p", str(pid), "-n", "3", "-d", "0.2", "-o",
                            f"pid,state,{name}.value,hello.tid", env=env)
        check(r.returncode == 0, f"{name}: exited {r.returncode}: {r.stderr}")
        lines = [line for line in r.stderr.split("\n") if line]
        said = [line for line in lines if f"plugin {name} disabled: " in line]
        check(len(said) == 1 and re.search(reason, said[0]),
              f"{name}: want one message matching {reason!r}: {r.stderr!r}")
        check(len(lines) == 1, f"{name}: other messages: {r.stderr!r}")
        check("\x1b" not in r.stderr and "pwned" not in r.stdout and "noisy on" not in r.stdout,
              f"{name}: plugin output reached taskview's: {r.stdout!r} {r.stderr!r}")
        samples = [json.loads(line) for line in r.stdout.split("\n") if line]
        check(len(samples) == 3, f"{name}: {len(samples)} samples")
        for doc in samples:
            row = task_row(doc, pid)
            check(row[f"{name}.value"] is None, f"{name}: value {row}")
            check(row["hello.tid"] == pid and row["state"] is not None, f"{name}: the rest stopped: {row}")
        check(took < 3 * 0.2 + 2 * 4.0 + 3, f"{name}: took {took:.1f} s")
        check(not wait_unmarked(mark), f"{name}: a plugin helper is still running")


def test_hostile_plugins_at_load():
    """A plugin that hangs or crashes while loading (in init, or lying about its column count):
    discovered, it is skipped with a message and the others load; named with --plugin, taskview
    exits 2; --check-plugin fails it with 1."""
    pid = os.getpid()
    for name, reason in LOAD_FAILURES:
        with tempfile.TemporaryDirectory() as d:
            os.chmod(d, 0o755)
            # loaded first (in name order), so that hello needs the helper started again
            shutil.copy(mod(name), os.path.join(d, f"a_{name}.so"))
            shutil.copy(mod("hello"), os.path.join(d, "hello.so"))
            env, mark = marked_env(TASKVIEW_PLUGINDIR=d)
            r = run("-b", "--format", "json", "-p", str(pid), "-o", "pid,hello.tid", env=env)
            check(r.returncode == 0, f"{name}: exited {r.returncode}: {r.stderr}")
            check(re.search(rf"plugin {re.escape(d)}/a_{name}\.so: {reason}", r.stderr),
                  f"{name}: want {reason!r}: {r.stderr!r}")
            check(task_row(json.loads(r.stdout.split("\n")[0]), pid)["hello.tid"] == pid, r.stdout)
            check(not wait_unmarked(mark), f"{name}: a plugin helper is still running")
        r = run("-b", "--no-plugins", "--plugin", mod(name), "-p", str(pid))
        check(r.returncode == 2 and re.search(rf"plugin {re.escape(mod(name))}: {reason}", r.stderr) and not r.stdout,
              f"{name} with --plugin: exited {r.returncode}: {r.stderr!r}")
        r = run("--check-plugin", mod(name))
        check(r.returncode == 1 and re.search(reason, r.stderr), f"{name}: --check-plugin {r.returncode}: {r.stderr!r}")


def test_check_plugin_hostile():
    """--check-plugin runs a plugin as taskview does and fails it for what would disable it."""
    for name, reason in COLLECT_FAILURES + [("slow", "more CPU time than their budget")]:
        r = run("--check-plugin", mod(name))
        check(r.returncode == 1 and f"plugin {name} disabled: " in r.stderr and re.search(reason, r.stderr),
              f"{name}: --check-plugin exited {r.returncode}: {r.stderr!r}")
        check("\x1b" not in r.stdout + r.stderr, f"{name}: escape sequences got through")


def raw_controls(text):
    """Control characters in text as a terminal would get them (C0, DEL, C1), but newlines."""
    return [hex(ord(c)) for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]


def test_plugin_strings_escaped():
    """A plugin's name, column id and string values that are escape sequences (painter.c) reach
    the terminal escaped: in --check-plugin's listing and messages, and in a batch run's."""
    paint = r"\e[31m\e]2;painted\x07\e[2J"
    for name, what in (("painter_name", f'name "painter{paint}"'),
                       ("painter_id", f'column id "painter_id.{paint}"')):
        r = run("--check-plugin", mod(name))
        check(r.returncode == 1 and what in r.stderr, f"{name}: exited {r.returncode}: {r.stderr!r}")
        check(not raw_controls(r.stdout + r.stderr), f"{name}: raw controls {raw_controls(r.stderr)}: {r.stderr!r}")
        r = run("-b", "--no-plugins", "--plugin", mod(name), "-p", str(os.getpid()))
        check(r.returncode == 2 and what in r.stderr and not raw_controls(r.stderr),
              f"{name} in a batch run: exited {r.returncode}: {r.stderr!r}")
    r = run("--check-plugin", mod("painter_value"))
    check(r.returncode == 0, f"painter_value: exited {r.returncode}: {r.stderr!r}")
    check(f'"red{paint}\\u009b31m"' in r.stdout, f"the sample value not shown escaped: {r.stdout!r}")
    check(not raw_controls(r.stdout + r.stderr), f"painter_value: raw controls {raw_controls(r.stdout)}: {r.stdout!r}")


def cpu_quota_dir():
    """A control group of the test's own whose CPU time a quota limits: cgroup v2's cpu.max
    where the cpu controller is in the unified hierarchy, else cgroup v1's cfs quota."""
    with open("/proc/self/mountinfo") as f:
        mounts = [(ln.split(" - ")[0].split()[4], ln.split(" - ")[1].split()) for ln in f]
    for point, (fstype, _src, opts) in mounts:
        if fstype == "cgroup2" and os.path.exists(os.path.join(point, "cgroup.subtree_control")):
            with open(os.path.join(point, "cgroup.subtree_control")) as f:
                if "cpu" in f.read().split():
                    return point, "v2"
        if fstype == "cgroup" and "cpu" in opts.split(","):
            return point, "v1"
    return None, None


def quota_run(args):
    """taskview ARGS with its helper kept to 1.5 % of a CPU by a quota, as a busy machine can."""
    mount, kind = cpu_quota_dir()
    if not mount:
        raise Skip("no cgroup with the cpu controller")
    d = os.path.join(mount, f"taskview-test-quota-{os.getpid()}")
    os.mkdir(d)
    try:
        with open(os.path.join(d, "cpu.max" if kind == "v2" else "cpu.cfs_quota_us"), "w") as f:
            f.write("1500 100000" if kind == "v2" else "1500")
        procs = os.path.join(d, "cgroup.procs")
        return subprocess.run(["sh", "-c", f"echo $$ > {procs} && exec \"$0\" \"$@\"", TASKVIEW] + args,
                              capture_output=True, text=True, timeout=300)
    finally:
        os.rmdir(d)


def test_starved_plugin_is_not_hung():
    """A plugin kept off the CPU (its helper given 1.5 % of one by a quota, as a busy machine
    can) answers late, having run less than its budget allows: it is not taken for hung. The
    slow plugin is then disabled for its CPU time, as on an idle machine, not for its silence."""
    if not is_root():
        raise Skip("a CPU quota needs root")
    # about 4.7 s of wall-clock time for each 70 ms answer, past the 3.5 s deadline
    r = quota_run(["--check-plugin", mod("slow")])
    check(r.returncode == 1 and "more CPU time than their budget" in r.stderr,
          f"--check-plugin exited {r.returncode}: {r.stderr!r}")


def test_starved_thread_is_not_hung():
    """Starved, with the work in a thread of the plugin's: its helper's main thread sleeps in
    the join while the worker waits for a CPU, for about 7 s past the 3.5 s deadline. Its wait
    for a CPU shows it starved, not hung: it loads, and gives its values."""
    if not is_root():
        raise Skip("a CPU quota needs root")
    r = quota_run(["--check-plugin", mod("handoff")])
    check(r.returncode == 0 and re.search(r"handoff\.value +[0-9]+", r.stdout),
          f"--check-plugin exited {r.returncode}: {r.stderr!r}\n{r.stdout}")


def test_slow_within_budget_stays():
    """sleepy takes 170 ms of wall-clock time per refresh but 20 ms of CPU time: under the
    old wall-clock budget (or on a machine busy enough to keep it off a CPU) it would be
    disabled; the budget counts CPU time, so it stays."""
    pid = os.getpid()
    r = run("-b", "--format", "json", "--no-plugins", "--plugin", mod("sleepy"), "-p", str(pid),
            "-n", "4", "-d", "0.1", "-o", "pid,sleepy.value")
    check(r.returncode == 0 and r.stderr == "", f"exited {r.returncode}: {r.stderr!r}")
    values = [task_row(json.loads(line), pid)["sleepy.value"] for line in r.stdout.split("\n") if line]
    check(values == [pid] * 4, f"sleepy.value per refresh: {values}")
    r = run("--check-plugin", mod("sleepy"))
    check(r.returncode == 0, f"--check-plugin: {r.returncode}: {r.stderr}")


def proc_state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def test_helper_ends_with_taskview():
    """Killed while a plugin loops, taskview leaves no helper running; so does a signal's
    default action in batch mode."""
    for sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT):
        env, mark = marked_env()
        p = subprocess.Popen([os.environ.get("TASKVIEW", "taskview"), "-b", "--no-plugins", "--plugin",
                              mod("loop_collect"), "-p", str(os.getpid()), "-n", "100", "-d", "0.2",
                              "-o", "pid,loop_collect.value"],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # a helper in the plugin's loop (running or runnable); a start under load may take long
        end, looping = time.monotonic() + 60, []
        while not looping and time.monotonic() < end and p.poll() is None:
            time.sleep(0.1)
            looping = [x for x in marked_pids(mark) if x != p.pid and proc_state(x) == "R"]
        check(looping, f"no helper seen in the plugin's loop: {marked_pids(mark)}")
        p.send_signal(sig)
        p.wait(timeout=5)
        check(not wait_unmarked(mark), f"after {sig.name}: a plugin helper is still running: {marked_pids(mark)}")


def test_helper_killed_between_refreshes():
    """A helper killed from outside while idle (no plugin to blame): said once, started again,
    and every plugin keeps its values."""
    pid = os.getpid()
    p = subprocess.Popen([os.environ.get("TASKVIEW", "taskview"), "-b", "--format", "json", "--no-plugins",
                          "--plugin", mod("hello"), "-p", str(pid), "-n", "4", "-d", "0.8",
                          "-o", "pid,hello.tid"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = p.stdout.readline()  # a refresh is done: the next is 0.8 s away
    with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
        helpers = [int(x) for x in f.read().split()]
    check(len(helpers) == 1, f"helpers: {helpers}")
    os.kill(helpers[0], signal.SIGKILL)
    out, err = p.communicate(timeout=30)
    check(p.returncode == 0, f"exited {p.returncode}: {err}")
    check(err.count("taskview: ") == 1 and
          "the plugin helper ended between refreshes (killed by signal 9" in err and "disabled" not in err,
          f"messages: {err!r}")
    rows = [task_row(json.loads(line), pid) for line in [first] + out.split("\n") if line]
    check(len(rows) == 4 and all(r["hello.tid"] == pid for r in rows), f"rows: {rows}")


def test_root_refuses_writable():
    if not is_root():
        raise Skip("the ownership rules apply to root")
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        p = os.path.join(d, "hello.so")
        shutil.copy(mod("hello"), p)
        os.chmod(p, 0o666)
        r = run("-b", "--format", "json", "--plugin", p, "-p", str(os.getpid()))
        check(r.returncode == 2 and f"plugin {p}: refused: {p} is world-writable" in r.stderr, r.stderr)
        r = run("--check-plugin", p)
        check(r.returncode == 1 and "world-writable" in r.stderr, r.stderr)
        os.chmod(p, 0o755)
        os.chmod(d, 0o777)
        r = run("--check-plugin", p)
        check(r.returncode == 1 and f"{d} is world-writable" in r.stderr, f"directory not checked: {r.stderr}")
        os.chmod(d, 0o755)
        os.chown(p, 1, 1)
        r = run("--check-plugin", p)
        check(r.returncode == 1 and "is owned by uid 1, not by root" in r.stderr, r.stderr)
        os.chown(p, 0, 0)
        check(run("--check-plugin", p).returncode == 0, "a root-owned 0755 plugin must load")
        # discovered: the user directory of another user is skipped, with a message
        root = os.path.join(d, "xdg")
        make_tree(root, {"hello.so": mod("hello")})
        os.chown(os.path.join(root, "taskview", "plugins"), 1, 1)
        r = run("--list-columns", env=env_with(XDG_DATA_HOME=root))
        check("hello.tid" not in r.stdout and "skipped:" in r.stderr and "owned by uid 1" in r.stderr,
              f"foreign plugin directory used: {r.stderr}")


SHIPPED_COLS = "pid,io.read_rate,io.write_rate,io.cancelled,oom.score,oom.adj,fds.count"


def test_shipped_plugins_on_workload():
    plugins = ["--no-plugins"]
    for name in ("io", "oom", "fds"):
        plugins += ["--plugin", shipped(name)]
    with tempfile.TemporaryDirectory(dir=disk_dir()) as d, \
            Workload("--fds", "100", "--oom-adj", "500", "--fsync", d) as w:
        docs = run_json(*plugins, "-p", str(w.pid), "-d", "0.5", "-o", SHIPPED_COLS)
        row = task_row(docs[-1], w.pid)
        check(row["fds.count"] is not None and row["fds.count"] >= 100, f"fds.count {row['fds.count']}")
        check(row["oom.adj"] == 500, f"oom.adj {row['oom.adj']}")
        check(row["oom.score"] is not None and row["oom.score"] >= 500, f"oom.score {row['oom.score']}")
        if not is_root():
            check(row["io.write_rate"] is not None and row["io.write_rate"] > 0,
                  f"io.write_rate {row['io.write_rate']}")
            check(row["io.read_rate"] is not None and row["io.read_rate"] >= 0, f"io.read_rate {row['io.read_rate']}")
        else:
            # the helper gave up root's capabilities: /proc/PID/io of a process that holds
            # some (this root workload) needs CAP_SYS_PTRACE, so unknown, never zero
            for k in ("io.read_rate", "io.write_rate", "io.cancelled"):
                check(row[k] is None, f"{k} of a root process as root: {row[k]}, want null")
        if is_root():
            # someone else's process: no permission is unknown, never zero
            theirs = [reachable(p, 65534) if p.endswith(".so") else p for p in plugins]
            docs = run_json(*theirs, "-p", str(w.pid), "-d", "0.3", "-o", SHIPPED_COLS, user=65534)
            row = task_row(docs[-1], w.pid)
            for k in ("io.read_rate", "io.write_rate", "io.cancelled", "fds.count"):
                check(row[k] is None, f"{k} as another user: {row[k]}, want null")
            check(row["oom.adj"] == 500, "oom_score_adj is world-readable")
    if is_root():
        # a user's own process, as that user: io as before
        with tempfile.TemporaryDirectory(dir=disk_dir(65534)) as d:
            os.chown(d, 65534, 65534)
            with Workload("--fsync", d, user=65534) as w:
                theirs = [reachable(p, 65534) if p.endswith(".so") else p for p in plugins]
                docs = run_json(*theirs, "-p", str(w.pid), "-d", "0.5", "-o", SHIPPED_COLS, user=65534)
                row = task_row(docs[-1], w.pid)
                check(row["io.write_rate"] is not None and row["io.write_rate"] > 0,
                      f"io.write_rate as the process's user: {row['io.write_rate']}")
                check(row["io.read_rate"] is not None and row["io.read_rate"] >= 0,
                      f"io.read_rate as the process's user: {row['io.read_rate']}")


def test_exported_symbols():
    nm = shutil.which("nm")
    if not nm:
        raise Skip("no nm")
    for name in ("io", "oom", "fds"):
        out = subprocess.run([nm, "-D", "--defined-only", shipped(name)], capture_output=True, text=True).stdout
        syms = {line.split()[-1] for line in out.splitlines() if line.strip()} - {"_init", "_fini"}
        check(syms == {"taskview_plugin_v1"}, f"{name}.so exports {sorted(syms)}")


def test_shipped_need_libc():
    """Each shipped plugin names the C library it runs on (NEEDED), even one that calls nothing
    from it: lintian's shared-library-lacks-prerequisites."""
    readelf = shutil.which("readelf")
    if not readelf:
        raise Skip("no readelf")
    for name in ("io", "oom", "fds"):
        out = subprocess.run([readelf, "-d", shipped(name)], capture_output=True, text=True).stdout
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)
        check(any(n.startswith("libc.so") for n in needed), f"{name}.so NEEDED entries: {needed}")


def test_out_of_tree_plugin():
    cc = shlex.split(os.environ.get("CC", "cc"))
    if not shutil.which("pkg-config") or not shutil.which(cc[0]):
        raise Skip("needs pkg-config and a C compiler")
    with tempfile.TemporaryDirectory() as dest:
        r = subprocess.run(["meson", "install", "-C", BUILD_DIR, "--destdir", dest, "--no-rebuild", "--quiet"],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"meson install failed: {r.stdout} {r.stderr}")
        pcs = glob.glob(os.path.join(dest, "**", "taskview-plugin.pc"), recursive=True)
        check(len(pcs) == 1, f"taskview-plugin.pc installed once: {pcs}")
        # the installed paths live under DESTDIR: let pkg-config prefix them
        env = env_with(PKG_CONFIG_PATH=os.path.dirname(pcs[0]), PKG_CONFIG_SYSROOT_DIR=dest,
                       PKG_CONFIG_LIBDIR=os.path.dirname(pcs[0]))
        cflags = subprocess.run(["pkg-config", "--cflags", "taskview-plugin"], env=env,
                                capture_output=True, text=True, check=True).stdout.split()
        check(any(f.startswith("-I" + dest) for f in cflags), f"cflags {cflags}")
        plugindir = subprocess.run(["pkg-config", "--variable=plugindir", "taskview-plugin"], env=env,
                                   capture_output=True, text=True, check=True).stdout.strip()
        check(plugindir.startswith(dest), f"plugindir {plugindir}")
        # the ABI the header declares, for packages to depend on
        with open(os.path.join(SOURCE_DIR, "include", "taskview", "plugin.h")) as f:
            header = f.read()
        for part in ("major", "minor"):
            want = re.search(rf"#define TASKVIEW_PLUGIN_ABI_{part.upper()} (\d+)", header).group(1)
            got = subprocess.run(["pkg-config", f"--variable=abi_{part}", "taskview-plugin"], env=env,
                                 capture_output=True, text=True, check=True).stdout.strip()
            check(got == want, f"taskview-plugin.pc abi_{part} {got!r}, the header says {want}")
        if os.path.exists(os.path.join(SHIPPED, "io.so")):
            check(os.path.exists(os.path.join(plugindir, "io.so")), f"io.so not in {plugindir}")
        check(os.path.exists(os.path.join(dest, *cflags[0][len("-I" + dest):].split("/"), "taskview", "plugin.h")),
              "header installed under include/taskview")

        so = os.path.join(dest, "hello.so")
        src = os.path.join(SOURCE_DIR, "tests", "plugins", "hello.c")
        # no include path of the source tree: the installed SDK only
        r = subprocess.run([*cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", *cflags,
                            "-o", so, src], capture_output=True, text=True)
        check(r.returncode == 0, f"out-of-tree build failed: {r.stderr}")
        pid = os.getpid()
        docs = run_json("--no-plugins", "--plugin", so, "-p", str(pid), "-o", "pid,hello.tid,hello.half")
        row = task_row(docs[-1], pid)
        check(row["hello.tid"] == pid and row["hello.half"] == pid / 2, f"row {row}")


def doc_examples():
    """The complete plugins of docs/plugins.md and docs/taskview-plugins.7, as C sources."""
    with open(os.path.join(SOURCE_DIR, "docs", "plugins.md")) as f:
        md = f.read()
    with open(os.path.join(SOURCE_DIR, "docs", "taskview-plugins.7")) as f:
        man = f.read()
    out = {"plugins.md": re.search(r"```c\n(.*?)```", md, re.S).group(1)}
    block = [b for b in re.findall(r"^\.EX\n(.*?)^\.EE", man, re.S | re.M) if "taskview_plugin_v1(void)" in b]
    check(len(block) == 1, "one complete example in the man page")
    out["taskview-plugins.7"] = block[0].replace("\\-", "-").replace("\\e", "\\")
    return out


def test_doc_examples_build_and_load():
    cc = shlex.split(os.environ.get("CC", "cc"))
    if not shutil.which(cc[0]):
        raise Skip("no C compiler")
    with tempfile.TemporaryDirectory() as d:
        for where, code in doc_examples().items():
            src = os.path.join(d, "example.c")
            so = os.path.join(d, "example.so")
            with open(src, "w") as f:
                f.write(code)
            r = subprocess.run([*cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-shared", "-fPIC",
                                "-I", os.path.join(SOURCE_DIR, "include"), "-o", so, src],
                               capture_output=True, text=True)
            check(r.returncode == 0, f"{where}: example does not build: {r.stderr}")
            r = run("--check-plugin", so)
            check(r.returncode == 0, f"{where}: example rejected: {r.stderr}")


def test_man_page_lint():
    page = os.path.join(SOURCE_DIR, "docs", "taskview-plugins.7")
    ran = False
    for cmd in (["groff", "-man", "-ww", "-z", page], ["mandoc", "-Tlint", page]):
        if not shutil.which(cmd[0]):
            continue
        ran = True
        r = subprocess.run(cmd, capture_output=True, text=True)
        check(r.returncode == 0 and not r.stdout and not r.stderr, f"{cmd[0]}: {r.stdout}{r.stderr}")
    if not ran:
        raise Skip("neither groff nor mandoc")


if __name__ == "__main__":
    sys.exit(main([
        test_check_plugin_rejects_with_stage,
        test_check_plugin_good,
        test_explicit_failure_exits_2,
        test_older_plugin_values,
        test_discovery_carries_on,
        test_never_current_directory,
        test_slow_plugin_disabled,
        test_hostile_plugins_disabled,
        test_hostile_plugins_at_load,
        test_check_plugin_hostile,
        test_plugin_strings_escaped,
        test_slow_within_budget_stays,
        test_starved_plugin_is_not_hung,
        test_starved_thread_is_not_hung,
        test_helper_ends_with_taskview,
        test_helper_killed_between_refreshes,
        test_root_refuses_writable,
        test_shipped_plugins_on_workload,
        test_exported_symbols,
        test_shipped_need_libc,
        test_out_of_tree_plugin,
        test_doc_examples_build_and_load,
        test_man_page_lint,
    ]))
