#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""taskview-record.service is installed where systemd looks under the prefix
when systemd's pkg-config file is there (a stand-in one here, as on a
packager's machine), names the installed binary, and passes
`systemd-analyze verify`; -Dsystemdunitdir=no installs none.

Configures and installs a second, minimal build into a temporary prefix."""
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE_DIR = os.environ["SOURCE_DIR"]
MESON = os.environ.get("MESON") or shutil.which("meson") or "meson"
SKIP = 77

# the variables a systemd.pc has for this (systemd 252 and later)
SYSTEMD_PC = """prefix=/usr
rootprefix=/usr
systemd_system_unit_dir=${rootprefix}/lib/systemd/system
systemdsystemunitdir=${systemd_system_unit_dir}

Name: systemd
Description: systemd System and Service Manager
Version: 252
"""


def build_and_install(tmp, name, extra, env):
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
    r = subprocess.run([MESON, "install", "-C", build, "--quiet"], capture_output=True, text=True, timeout=600,
                       env=env)
    if r.returncode != 0:
        raise RuntimeError(f"meson install: {r.stdout}\n{r.stderr}")
    return prefix, build


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="taskview-systemd-") as tmp:
        pcdir = os.path.join(tmp, "pkgconfig")
        os.mkdir(pcdir)
        with open(os.path.join(pcdir, "systemd.pc"), "w") as f:
            f.write(SYSTEMD_PC)
        env = dict(os.environ, PKG_CONFIG_PATH=pcdir + ":" + os.environ.get("PKG_CONFIG_PATH", ""))
        prefix, _ = build_and_install(tmp, "with", [], env)
        if prefix is None:
            print("SKIP: built without libzstd: no recorder, no unit")
            return SKIP
        unit = os.path.join(prefix, "lib", "systemd", "system", "taskview-record.service")
        if not os.path.exists(unit):
            failures.append(f"not installed: {unit}")
        else:
            with open(unit) as f:
                text = f.read()
            exe = os.path.join(prefix, "bin", "taskview")
            if f"ExecStart={exe} --record /var/log/taskview --keep 7" not in text:
                failures.append(f"ExecStart does not name {exe}: {text}")
            if "LogsDirectory=taskview" not in text:
                failures.append("no LogsDirectory: /var/log/taskview would not be made")
            if shutil.which("systemd-analyze"):
                r = subprocess.run(["systemd-analyze", "verify", "--man=no", unit], capture_output=True, text=True,
                                   timeout=60)
                if r.returncode != 0 or r.stderr.strip():
                    failures.append(f"systemd-analyze verify: {r.returncode}: {r.stdout}{r.stderr}")
            else:
                print("note: systemd-analyze not installed: unit not verified")
        prefix, _ = build_and_install(tmp, "without", ["-Dsystemdunitdir=no"], env)
        for root, _, files in os.walk(prefix):
            if "taskview-record.service" in files:
                failures.append(f"installed with -Dsystemdunitdir=no: {root}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("ok: unit installed under the prefix, names the binary, verified")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
