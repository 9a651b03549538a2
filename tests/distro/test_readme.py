#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The README's commands work as it says.

- Its two first commands set the build directory up with .ci/setup, which
  applies options to a directory that exists (meson setup would ignore them):
  checked on a temporary directory, fresh and then configured again.
- `meson devenv -C build taskview`, which the README names to run the build
  tree's binary, gives it its plugins and translations.
- Every line of the Usage block works as written once taskview is installed
  (the run command installs it with .ci/install, `meson install`; here into a
  temporary DESTDIR put on the PATH), with this test's own processes for the
  PIDs, its own directory for /var/tmp/tv, times of its recording for 03:10
  and 03:20 (to the second: it is a minute long), the remote half of the ssh line run here, and sudo left out (as
  root; those lines are skipped otherwise). The interactive ones run in a
  private tmux server.
- A binary with file capabilities ignores the variables devenv sets (root and
  setcap needed, else that part is skipped).
"""
import datetime
import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tui"))
from tmuxlib import Tmux, Workload  # noqa: E402

BUILD_DIR = os.environ["BUILD_DIR"]
SOURCE_DIR = os.environ["SOURCE_DIR"]
TASKVIEW = os.environ["TASKVIEW"]
MESON = os.environ.get("MESON") or shutil.which("meson") or "meson"
failures = []


def cgroups_in_use():
    """The control groups (v2 paths) the processes of this machine are in."""
    out = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cgroup") as f:
                out.update(line.split(":", 2)[2].strip() for line in f if line.startswith("0::"))
        except OSError:
            pass
    return out


def recorded_stamps(path, env):
    """The times of the samples recorded under path, as its replay in JSON gives them
    (each sample after the first)."""
    r = subprocess.run([TASKVIEW, "-r", path, "-b", "--format", "json", "-p", "1", "-o", "pid"],
                       env=env, capture_output=True, text=True, timeout=60)
    return [json.loads(x)["timestamp"] for x in r.stdout.splitlines() if x.startswith("{")]

def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def build_option(builddir, name):
    with open(os.path.join(builddir, "meson-info", "intro-buildoptions.json")) as f:
        return next(o["value"] for o in json.load(f) if o["name"] == name)


def config_flag(name):
    with open(os.path.join(BUILD_DIR, "config.h")) as f:
        for line in f:
            parts = line.split(None, 2)
            if len(parts) == 3 and parts[:2] == ["#define", name]:
                return parts[2].strip()
    return None


def readme_commands():
    with open(os.path.join(SOURCE_DIR, "README.md")) as f:
        text = f.read()
    block = re.search(r"```sh\n(.*?)```", text, re.S).group(1)
    return [l for l in block.splitlines() if l.strip()]


def test_commands_use_setup():
    cmds = readme_commands()
    check(len(cmds) == 2, f"two commands: {cmds}")
    for c in cmds:
        check("sh .ci/setup build" in c and "meson setup" not in c, f"set up through .ci/setup: {c}")
    check(cmds[0].startswith("sh .ci/deps && ") and cmds[1].startswith("sh .ci/deps test && "),
          "the run command installs the packages to run, the test command those to test too")
    # the run command builds no test (and needs no test dependency to configure), installs, and runs
    check("-Dtests=false" in cmds[0] and cmds[0].endswith("&& sh .ci/install build && taskview"),
          f"builds no test, installs and runs taskview from the PATH: {cmds[0]}")
    # either order: the test command turns the tests on again in a build/ the run command set up
    check("-Dwerror=true" in cmds[1] and "-Dtests=true" in cmds[1], "the test command asks for -Dwerror=true -Dtests=true")
    with open(os.path.join(SOURCE_DIR, ".ci", "run")) as f:
        check("\n" + cmds[1] + "\n" in f.read(), ".ci/run runs the test command as the README writes it")


def test_setup_applies_options():
    with tempfile.TemporaryDirectory() as d:
        b = os.path.join(d, "build")
        env = {**os.environ, "PATH": os.path.dirname(MESON) + os.pathsep + os.environ.get("PATH", "")}
        setup = ["sh", os.path.join(SOURCE_DIR, ".ci", "setup"), b]
        r = subprocess.run(setup + ["-Dtests=false"], cwd=SOURCE_DIR, capture_output=True, text=True, env=env,
                           timeout=120)
        check(r.returncode == 0, f"a fresh directory: {r.stderr[-400:]}")
        check(build_option(b, "werror") is False, "werror starts false")
        # the second README command on the first one's directory, and the install command's --prefix
        r = subprocess.run(setup + ["-Dwerror=true", "--prefix=/opt/tv"], cwd=SOURCE_DIR, capture_output=True,
                           text=True, env=env, timeout=120)
        check(r.returncode == 0, f"a configured directory: {r.stderr[-400:]}")
        check(build_option(b, "werror") is True, "-Dwerror=true applied to an existing directory")
        check(build_option(b, "prefix") == "/opt/tv", "--prefix applied to an existing directory")
        r = subprocess.run(setup, cwd=SOURCE_DIR, capture_output=True, text=True, env=env, timeout=120)
        check(r.returncode == 0 and build_option(b, "werror") is True, "no options: the directory as it was")


def honours_language():
    """Whether gettext here takes LANGUAGE under C.UTF-8 (older glibc does not):
    asked of gettext(1) with the build tree's catalog, not of taskview."""
    if not shutil.which("gettext"):
        return False
    env = {"PATH": os.environ.get("PATH", ""), "LC_ALL": "C.UTF-8", "LANGUAGE": "de",
           "TEXTDOMAINDIR": os.path.join(BUILD_DIR, "po")}
    r = subprocess.run(["gettext", "-d", "taskview", "out of memory"], capture_output=True, text=True, env=env)
    return r.returncode == 0 and r.stdout not in ("", "out of memory")


def devenv(args, extra_env=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in ("LANG", "LANGUAGE")}
    env.update(extra_env or {})
    return subprocess.run([MESON, "devenv", "-C", BUILD_DIR, "taskview", *args], capture_output=True, text=True,
                          env=env, timeout=60)


def test_devenv_plugins_and_translations():
    plugins = os.path.exists(os.path.join(BUILD_DIR, "plugins", "io.so"))
    r = devenv(["--list-columns"], {"LC_ALL": "C"})
    check(r.returncode == 0, f"meson devenv runs taskview: {r.stderr}")
    if plugins:
        check("io.read_rate" in r.stdout and "fds.count" in r.stdout, "the build tree's plugins are loaded")
    else:
        print("     (built without plugins)")
    if config_flag("TV_ENABLE_NLS") == "1" and os.path.exists(os.path.join(BUILD_DIR, "po", "de")):
        r = devenv(["--help"], {"LC_ALL": "C.UTF-8", "LANGUAGE": "de"})
        if not honours_language():
            print("     (gettext ignores LANGUAGE with LC_ALL=C.UTF-8 here: German not checked)")
        else:
            check(r.stdout.startswith("Aufruf:"), f"the build tree's German catalog: {r.stdout[:60]!r}")
    else:
        print("     (built without NLS)")


def test_capabilities_ignore_devenv():
    if os.geteuid() != 0 or not shutil.which("setcap") or not shutil.which("setpriv"):
        print("     (needs root, setcap and setpriv: skipped)")
        return
    sysdir = (config_flag("TV_PLUGINDIR") or '""').strip('"')
    if os.path.exists(os.path.join(sysdir, "io.so")) or not os.path.exists(os.path.join(BUILD_DIR, "plugins", "io.so")):
        print("     (io.so installed system-wide, or not built: skipped)")
        return
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)
        exe = os.path.join(d, "taskview")
        shutil.copy(TASKVIEW, exe)
        subprocess.run(["setcap", "cap_net_admin+ep", exe], check=True)
        env = {"PATH": os.environ.get("PATH", ""), "LC_ALL": "C",
               "TASKVIEW_PLUGINDIR": os.path.join(BUILD_DIR, "plugins"),
               "TASKVIEW_LOCALEDIR": os.path.join(BUILD_DIR, "po")}
        r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe, "--list-columns"],
                           capture_output=True, text=True, env=env, timeout=60)
        check(r.returncode == 0 and "io.read_rate" not in r.stdout,
              f"with file capabilities TASKVIEW_PLUGINDIR is ignored: {r.returncode} {r.stderr}")


def usage_lines():
    with open(os.path.join(SOURCE_DIR, "README.md")) as f:
        text = f.read()
    block = re.search(r"^## Usage\n\n```sh\n(.*?)```", text, re.S | re.M).group(1)
    return [l for l in block.splitlines() if l.strip()]


def install(dest):
    """meson install into DESTDIR: (the bin directory, the environment to run it with)."""
    r = subprocess.run([MESON, "install", "--no-rebuild", "--quiet", "--destdir", dest, "-C", BUILD_DIR],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise AssertionError(f"meson install: {r.stdout}{r.stderr}")
    with open(os.path.join(BUILD_DIR, "meson-info", "intro-buildoptions.json")) as f:
        opts = {o["name"]: o["value"] for o in json.load(f)}
    bindir = dest + os.path.join(opts["prefix"], opts["bindir"])
    check(os.access(os.path.join(bindir, "taskview"), os.X_OK), f"taskview installed in {bindir}")
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    plugindir = (config_flag("TV_PLUGINDIR") or '""').strip('"')
    env["TASKVIEW_PLUGINDIR"] = dest + plugindir
    env["TASKVIEW_LOCALEDIR"] = dest + os.path.join(opts["prefix"], opts["localedir"])
    return bindir, env


class Line:
    """One Usage line, made runnable here."""

    def __init__(self, text, subst):
        self.text = text
        cmd = re.sub(r"\s+#\s.*$", "", text)  # the comment
        for old, new in subst:
            cmd = cmd.replace(old, new)
        self.cmd = cmd
        self.interactive = " -b" not in cmd and " -w " not in cmd


def start(line, env, cwd):
    """A line that runs until stopped, in a process group of its own."""
    return subprocess.Popen(["sh", "-c", line.cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def stop(p):
    try:
        os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
    return out, err


def read_until(p, pred, what, timeout=60):
    """stdout of a running line until pred(text so far) holds."""
    data = b""
    fd = p.stdout.fileno()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            data += chunk
            if pred(data.decode(errors="replace")):
                return data.decode(errors="replace")
    out, err = stop(p)
    raise AssertionError(f"{what}: not seen in {data.decode(errors='replace') + (out or '')!r} (stderr {err!r})")


def screen(t, line, env, cwd, expect, what):
    """An interactive line in tmux: its first screen shows expect; q ends it with status 0."""
    t.n += 1
    name = f"u{t.n}"
    keep = ("PATH", "TASKVIEW_PLUGINDIR", "TASKVIEW_LOCALEDIR", "HOME", "XDG_CONFIG_HOME")
    assign = " ".join(f"{k}={shlex.quote(env[k])}" for k in keep if k in env)
    t.cmd("new-session", "-d", "-s", name, "-x", "120", "-y", "40", "sh", "-c",
          f"cd {shlex.quote(cwd)} && env {assign} LC_ALL=C.UTF-8 {line.cmd}; echo EXIT=$?; sleep 60")
    try:
        t.wait(name, lambda x: "F10Quit" in x and expect(x), what, timeout=30)
        t.keys(name, "q")
        rc, text = t.wait_exit(name, timeout=60)
        check(rc == 0, f"{line.text}: exit status {rc}")
    finally:
        t.cmd("kill-session", "-t", name, check=False)


def test_usage_lines():
    lines = usage_lines()
    check(len(lines) >= 10, f"the Usage block: {lines}")
    root = os.geteuid() == 0
    if not shutil.which("tmux"):
        print("     (tmux missing: the interactive lines are not run)")
    with tempfile.TemporaryDirectory(prefix="taskview-usage-") as d:
        _, env = install(os.path.join(d, "dest"))
        env["HOME"] = os.path.join(d, "home")
        env["XDG_CONFIG_HOME"] = os.path.join(d, "home", "cfg")
        os.makedirs(env["XDG_CONFIG_HOME"])
        tv = os.path.join(d, "tv")
        w1, w2 = Workload(), Workload()
        t = Tmux(env["HOME"]) if shutil.which("tmux") else None
        if t:  # the server outlives each line's session (it would exit with its last one)
            t.cmd("new-session", "-d", "-s", "keep", "sleep 600")
        subst = [("1234,5678", f"{w1.pid},{w2.pid}"), ("-p 1234", f"-p {w1.pid}"), ("/var/tmp/tv", tv),
                 ("ssh server ", ""), ("sudo ", "")]
        todo = [Line(l, subst) for l in lines]
        done = set()
        recorder = None
        try:
            # the recorder first: the replay lines read what it recorded, over a minute and more (-d 60)
            rec = next(l for l in todo if " -w " in l.cmd)
            if not root:
                print(f"     (not root: skipped: {rec.text})")
            else:
                recorder = start(rec, env, d)
                began = time.time()
            for line in todo:
                if line is rec or " -r " in line.cmd:
                    continue
                print(f"     {line.text}")
                if line.interactive:
                    if not t:
                        continue
                    if "-p " in line.cmd:
                        screen(t, line, env, d, lambda x: all(re.search(rf"(?m)^\s*{p}\s", x)
                                                              for p in (w1.pid, w2.pid)), "the two processes")
                    else:
                        screen(t, line, env, d, lambda x: re.search(r"(?m)^\s*PID\s+USER", x), "the table")
                elif "-n 3" in line.cmd:
                    r = subprocess.run(["sh", "-c", line.cmd], cwd=d, env=env, capture_output=True, text=True,
                                       timeout=120)
                    heads = re.findall(r"(?m)^taskview \S+ - ", r.stdout)
                    check(r.returncode == 0 and len(heads) == 3, f"{line.text}: {r.returncode}, {len(heads)} "
                          f"samples: {r.stderr}")
                elif "| jq" in line.cmd:
                    p = start(line, env, d)
                    read_until(p, lambda x: re.search(rf'"pid": {w1.pid},\s*"comm": "[^"]+",\s*"ctxt_vol_rate": '
                                                      r'[0-9.]+', x), f"{line.text}: jq's object")
                    stop(p)
                elif "> sample.jsonl" in line.cmd:
                    p = start(line, env, d)
                    path = os.path.join(d, "sample.jsonl")
                    end = time.monotonic() + 60
                    while time.monotonic() < end and not (os.path.exists(path) and open(path).read().count("\n")):
                        time.sleep(0.1)
                    _, err = stop(p)
                    with open(path) as f:
                        sample = json.loads(f.readline())
                    check(isinstance(sample.get("tasks"), list), f"{line.text}: {sample} {err}")
                elif "--group cgroup" in line.cmd:
                    p = start(line, env, d)
                    read_until(p, lambda x: re.search(r"(?m)^\s*PID\s", x), f"{line.text}: a sample")
                    _, err = stop(p)
                    # without the group -c names (no systemd here), taskview says so
                    want = re.search(r"-c (\S+)", line.cmd)
                    notes = [n for n in err.splitlines() if "taskview:" in n and "delay accounting" not in n]
                    if want and not any(want.group(1) in g for g in cgroups_in_use()):
                        check(notes and all(want.group(1) in n and "control group" in n for n in notes),
                              f"{line.text}: no group {want.group(1)} here, and taskview says: {err!r}")
                    else:
                        check(not notes, f"{line.text}: {err}")
                else:
                    p = start(line, env, d)
                    read_until(p, lambda x: re.search(r"(?m)^\s*PID\s+NAME", x), f"{line.text}: a sample")
                    stop(p)
                done.add(line.text)
            if recorder:
                # -d 60 steps 60 recorded samples: wait for a minute of them and more, counted from
                # the first the recorder took (a busy machine may start it late, and stretch them)
                time.sleep(max(0, began + 67 - time.time()))
                end = time.monotonic() + 180
                while True:
                    stamps = recorded_stamps(tv, env)
                    if len(stamps) > 64 and stamps[-1] - stamps[0] >= 66 or time.monotonic() > end:
                        break
                    time.sleep(1)
                out, err = stop(recorder)
                files = os.listdir(tv) if os.path.isdir(tv) else []
                check(len(files) == 1 and re.fullmatch(r"taskview-\d{4}-\d\d-\d\d\.tvr", files[0]),
                      f"{rec.text}: daily files {files}: {err}")
                check(len(stamps) > 64, f"{rec.text}: {len(stamps)} samples recorded: {stamps}")
                done.add(rec.text)
                # HH:MM is the first such time at or after the recording's start: to the second here;
                # the stretch holds a sample and the one 60 samples on, and a minute and more
                first = datetime.datetime.fromtimestamp(int(stamps[0]) + 1)
                last = max(first + datetime.timedelta(seconds=63),
                           datetime.datetime.fromtimestamp(int(stamps[62]) + 2))
                times = [("03:10", first.strftime("%H:%M:%S")), ("03:20", last.strftime("%H:%M:%S"))]
                for line in todo:
                    if " -r " not in line.cmd:
                        continue
                    line = Line(line.text, subst + times)
                    print(f"     {line.text}\n       as {line.cmd}")
                    if line.interactive:
                        if t:
                            screen(t, line, env, d, lambda x: "recorded on" in x or "Recorded" in x, "the replay")
                            done.add(line.text)
                        continue
                    r = subprocess.run(["sh", "-c", line.cmd], cwd=d, env=env, capture_output=True, text=True,
                                       timeout=120)
                    # a multiple of the recorded interval: of its seconds, as the recorder kept them
                    heads = [float(x) for x in re.findall(r"(?m)^taskview \S+ - .*interval ([0-9.]+) s", r.stdout)]
                    check(r.returncode == 0 and heads and all(59 < x < 70 for x in heads),
                          f"{line.text}: {r.returncode}: {r.stdout[:300]} {r.stderr}")
                    done.add(line.text)
        finally:
            if recorder and recorder.poll() is None:
                stop(recorder)
            w1.stop()
            w2.stop()
            if t:
                t.kill_server()
    left = [l for l in lines if l not in done]
    if left:
        print("     not run here: " + "; ".join(left))
    check(not root or not t or not left, f"every line run as root with tmux: left {left}")


def main():
    for t in (test_commands_use_setup, test_setup_applies_options, test_devenv_plugins_and_translations,
              test_capabilities_ignore_devenv, test_usage_lines):
        print(t.__name__)
        try:
            t()
        except Exception as e:  # a crash is a failure with its reason
            check(False, f"{t.__name__}: {e!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
