#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The README's commands work as it says.

- Its two first commands set the build directory up with .ci/setup, which
  applies options to a directory that exists (meson setup would ignore them):
  checked on a temporary directory, fresh and then configured again.
- The run command, `meson devenv -C build taskview`, gives the build tree's
  binary its plugins and translations.
- A binary with file capabilities ignores the variables devenv sets (root and
  setcap needed, else that part is skipped).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BUILD_DIR = os.environ["BUILD_DIR"]
SOURCE_DIR = os.environ["SOURCE_DIR"]
TASKVIEW = os.environ["TASKVIEW"]
MESON = os.environ.get("MESON") or shutil.which("meson") or "meson"
failures = []


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


def main():
    for t in (test_commands_use_setup, test_setup_applies_options, test_devenv_plugins_and_translations,
              test_capabilities_ignore_devenv):
        print(t.__name__)
        try:
            t()
        except Exception as e:  # a crash is a failure with its reason
            check(False, f"{t.__name__}: {e!r}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
