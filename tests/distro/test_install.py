#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`meson install` into a temporary DESTDIR installs exactly what a package needs.

Checks, for the configured prefix and directories: the binary, both manual
pages, a catalog per language in po/LINGUAS (when built with NLS), the plugin
header, the pkg-config file and the shipped plugins (when built with them),
the recorder's systemd unit (when this build installs one: systemd.pc found,
or -Dsystemdunitdir), and that nothing else is installed and nothing lands
outside the prefix (or the unit's directory, when it was given).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

BUILD_DIR = os.environ["BUILD_DIR"]
SOURCE_DIR = os.environ["SOURCE_DIR"]
MESON = os.environ.get("MESON") or shutil.which("meson") or "meson"


def options():
    with open(os.path.join(BUILD_DIR, "meson-info", "intro-buildoptions.json")) as f:
        return {o["name"]: o["value"] for o in json.load(f)}


def config_flag(name):
    with open(os.path.join(BUILD_DIR, "config.h")) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[0] == "#define" and parts[1] == name:
                return parts[2] == "1"
    raise AssertionError(f"{name} not in config.h")


def linguas():
    with open(os.path.join(SOURCE_DIR, "po", "LINGUAS")) as f:
        return [w for line in f for w in line.split("#")[0].split()]


def unit_path(name="taskview-record.service"):
    """Where this build installs a unit of taskview's, or None."""
    with open(os.path.join(BUILD_DIR, "meson-info", "intro-installed.json")) as f:
        for dest in json.load(f).values():
            if dest.endswith("/" + name):
                return dest
    return None


def under(base, path):
    return os.path.join(base, path) if not os.path.isabs(path) else path


def main():
    o = options()
    prefix = o["prefix"]
    bindir = under(prefix, o["bindir"])
    mandir = under(prefix, o["mandir"])
    localedir = under(prefix, o["localedir"])
    includedir = under(prefix, o["includedir"])
    libdir = under(prefix, o["libdir"])
    plugindir = o["plugindir"] or os.path.join(libdir, "taskview", "plugins")

    expected = {
        os.path.join(bindir, "taskview"),
        os.path.join(mandir, "man1", "taskview.1"),
        os.path.join(includedir, "taskview", "plugin.h"),
        os.path.join(libdir, "pkgconfig", "taskview-plugin.pc"),
    }
    if os.path.exists(os.path.join(SOURCE_DIR, "docs", "taskview-plugins.7")):
        expected.add(os.path.join(mandir, "man7", "taskview-plugins.7"))
    if config_flag("TV_ENABLE_NLS"):
        for lang in linguas():
            expected.add(os.path.join(localedir, lang, "LC_MESSAGES", "taskview.mo"))
    want_plugins = o["plugins"]
    unit = unit_path()
    if unit:
        expected.add(unit)
    metrics_unit = unit_path("taskview-metrics.service")
    if metrics_unit:
        expected.add(metrics_unit)

    failures = []
    with tempfile.TemporaryDirectory(prefix="taskview-destdir-") as dest:
        r = subprocess.run([MESON, "install", "--no-rebuild", "--destdir", dest, "-C", BUILD_DIR],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            print(r.stdout, r.stderr, sep="\n")
            print("FAIL: meson install exited", r.returncode)
            return 1
        installed = set()
        for root, dirs, files in os.walk(dest):
            for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
                installed.add("/" + os.path.relpath(os.path.join(root, name), dest))

        for path in sorted(expected - installed):
            failures.append(f"missing: {path}")
        plugins = {p for p in installed if os.path.dirname(p) == plugindir.rstrip("/") and p.endswith(".so")}
        if want_plugins and not plugins:
            failures.append(f"no plugins in {plugindir}")
        if not want_plugins and plugins:
            failures.append(f"plugins installed with -Dplugins=false: {sorted(plugins)}")
        for path in sorted(installed - expected - plugins):
            failures.append(f"not expected: {path}")
        allowed = [prefix.rstrip("/") + "/", plugindir.rstrip("/") + "/"]
        if unit and o["systemdunitdir"] not in ("", "no"):
            allowed.append(os.path.dirname(unit) + "/")
        for path in sorted(installed):
            if not any(path.startswith(a) for a in allowed):
                failures.append(f"outside the prefix: {path}")

        # the installed pieces are usable: the binary runs, the .pc names the plugin dir
        exe = dest + os.path.join(bindir, "taskview")
        if os.path.exists(exe):
            v = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
            if v.returncode != 0 or "taskview" not in v.stdout:
                failures.append(f"installed taskview --version: rc {v.returncode}: {v.stdout}{v.stderr}")
            if not os.access(exe, os.X_OK):
                failures.append("installed taskview is not executable")
        pc = dest + os.path.join(libdir, "pkgconfig", "taskview-plugin.pc")
        if os.path.exists(pc):
            with open(pc) as f:
                text = f.read()
            if "plugindir=" not in text:
                failures.append("taskview-plugin.pc has no plugindir variable")
            if dest in text:
                failures.append("taskview-plugin.pc contains the DESTDIR")
        if unit and os.path.exists(dest + unit):
            with open(dest + unit) as f:
                text = f.read()
            if f"ExecStart={os.path.join(bindir, 'taskview')} --record /var/log/taskview" not in text:
                failures.append(f"{unit} does not start the installed taskview: {text}")
        for lang in linguas() if config_flag("TV_ENABLE_NLS") else []:
            mo = dest + os.path.join(localedir, lang, "LC_MESSAGES", "taskview.mo")
            if os.path.exists(mo) and os.path.getsize(mo) < 100:
                failures.append(f"{mo} is (nearly) empty")

    print(f"prefix {prefix}: {len(expected)} files expected, plugins in {plugindir}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
