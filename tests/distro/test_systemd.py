#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""taskview-record.service and taskview-metrics.service are installed where
systemd looks under the prefix when systemd's pkg-config file is there (a
stand-in one here, as on a packager's machine), name the installed binary,
pass `systemd-analyze verify`, and `systemd-analyze security` rates each at
2.5 or lower (where it can rate unit files offline, systemd 250 and later);
-Dsystemdunitdir=no installs none.

Configures and installs a second, minimal build into a temporary prefix; the
build without units is only configured: what `meson install` would install is
what `meson introspect --installed` lists, which the first build checks too."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE_DIR = os.environ["SOURCE_DIR"]
MESON = os.environ.get("MESON") or shutil.which("meson") or "meson"
SKIP = 77
MAX_EXPOSURE = 2.5

# the variables a systemd.pc has for this (systemd 252 and later)
SYSTEMD_PC = """prefix=/usr
rootprefix=/usr
systemd_system_unit_dir=${rootprefix}/lib/systemd/system
systemdsystemunitdir=${systemd_system_unit_dir}

Name: systemd
Description: systemd System and Service Manager
Version: 252
"""


def to_install(build, env):
    """The paths meson install puts files at, as the configured build lists them."""
    r = subprocess.run([MESON, "introspect", build, "--installed"], capture_output=True, text=True, timeout=300,
                       env=env)
    if r.returncode != 0:
        raise RuntimeError(f"meson introspect: {r.stdout}\n{r.stderr}")
    return set(json.loads(r.stdout).values())


def build_and_install(tmp, name, extra, env, install=True):
    prefix = os.path.join(tmp, name, "prefix")
    build = os.path.join(tmp, name, "build")
    r = subprocess.run([MESON, "setup", build, SOURCE_DIR, "--prefix", prefix, "-Dtests=false", "-Dplugins=false",
                        "-Dnls=disabled", "--buildtype=plain", *extra], capture_output=True, text=True,
                       timeout=300, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"meson setup: {r.stdout}\n{r.stderr}")
    with open(os.path.join(build, "config.h")) as f:
        if "#define TV_HAVE_ZSTD 0" in f.read():
            return None, None
    if not install:
        return prefix, build
    r = subprocess.run([MESON, "install", "-C", build, "--quiet"], capture_output=True, text=True, timeout=600,
                       env=env)
    if r.returncode != 0:
        raise RuntimeError(f"meson install: {r.stdout}\n{r.stderr}")
    return prefix, build


def analyze(unit):
    """systemd-analyze verify, and security (offline) at MAX_EXPOSURE or lower."""
    if not shutil.which("systemd-analyze"):
        print("note: systemd-analyze not installed: units not verified or rated")
        return []
    out = []
    name = os.path.basename(unit)
    r = subprocess.run(["systemd-analyze", "verify", "--man=no", unit], capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or r.stderr.strip():
        out.append(f"systemd-analyze verify {name}: {r.returncode}: {r.stdout}{r.stderr}")
    r = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", unit], capture_output=True,
                       text=True, timeout=60)
    m = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", r.stdout)
    if not m:
        if "--offline" in r.stderr or "unrecognized option" in r.stderr or "Unknown command" in r.stderr:
            print(f"note: this systemd-analyze cannot rate unit files offline: {r.stderr.strip()[:200]}")
            return out
        return out + [f"systemd-analyze security {name}: exit {r.returncode}: {r.stdout[-500:]}{r.stderr}"]
    score = float(m.group(1))
    print(f"{name}: exposure {score}")
    if score > MAX_EXPOSURE:
        bad = [line.strip() for line in r.stdout.splitlines() if line.startswith("✗")]
        out.append(f"{name}: exposure {score} > {MAX_EXPOSURE}:\n  " + "\n  ".join(bad))
    return out


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="taskview-systemd-") as tmp:
        pcdir = os.path.join(tmp, "pkgconfig")
        os.mkdir(pcdir)
        with open(os.path.join(pcdir, "systemd.pc"), "w") as f:
            f.write(SYSTEMD_PC)
        env = dict(os.environ, PKG_CONFIG_PATH=pcdir + ":" + os.environ.get("PKG_CONFIG_PATH", ""))
        prefix, build = build_and_install(tmp, "with", [], env)
        if prefix is None:
            print("SKIP: built without libzstd: no recorder, no record unit")
            return SKIP
        exe = os.path.join(prefix, "bin", "taskview")
        unitdir = os.path.join(prefix, "lib", "systemd", "system")
        units = {
            "taskview-record.service": [f"ExecStart={exe} --record /var/log/taskview --keep 7",
                                        "LogsDirectory=taskview"],
            "taskview-metrics.service": [f"ExecStart={exe} --textfile /run/taskview-metrics/taskview.prom",
                                         "DynamicUser=yes", "RuntimeDirectory=taskview-metrics",
                                         "RuntimeDirectoryMode=0755"],
        }
        for name, wants in units.items():
            unit = os.path.join(unitdir, name)
            if not os.path.exists(unit):
                failures.append(f"not installed: {unit}")
                continue
            with open(unit) as f:
                text = f.read()
            for w in wants:
                if w not in text:
                    failures.append(f"{name}: no {w!r}: {text}")
            failures += analyze(unit)
            if unit not in to_install(build, env):
                failures.append(f"installed, yet not in meson introspect --installed: {unit}")
        prefix, build = build_and_install(tmp, "without", ["-Dsystemdunitdir=no"], env, install=False)
        for path in to_install(build, env):
            if os.path.basename(path) in units:
                failures.append(f"would be installed with -Dsystemdunitdir=no: {path}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("ok: units installed under the prefix, name the binary, verified")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
