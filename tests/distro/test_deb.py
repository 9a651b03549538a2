#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""contrib/build-deb.sh builds the Debian packages on this host (without the
test suite: nocheck), lintian reports no error or warning, and the packages
hold what the README promises whatever the host has: recording (libzstd),
delay accounting (libnl-genl), the BPF thread reader (libbpf), the recorder's unit where bookworm's
dh_installsystemd handles it, with its maintainer scripts, shipped disabled,
and Provides: taskview-plugin-abi-1.0.

Skipped where dpkg-buildpackage, debhelper or lintian are missing, or a build
dependency is (`sh .ci/deps test` installs them)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from tvtest import Skip, check, main  # noqa: E402

SOURCE_DIR = os.path.abspath(os.environ["SOURCE_DIR"])
NOCHECK = {"DEB_BUILD_OPTIONS": "nocheck", "DEB_BUILD_PROFILES": "nocheck"}
UNIT = "lib/systemd/system/taskview-record.service"
METRICS_UNIT = "lib/systemd/system/taskview-metrics.service"
built = {}
TMP = None  # the test run's directory


def header_abi():
    with open(os.path.join(SOURCE_DIR, "include", "taskview", "plugin.h")) as f:
        text = f.read()
    major = re.search(r"^#define TASKVIEW_PLUGIN_ABI_MAJOR (\d+)$", text, re.M).group(1)
    minor = re.search(r"^#define TASKVIEW_PLUGIN_ABI_MINOR (\d+)$", text, re.M).group(1)
    return int(major), int(minor)


def build():
    """The packages, built once: {name: path}, and the output directory."""
    if "error" in built:  # built once, and failed: the other tests fail with it
        raise built["error"]
    if built:
        return built
    try:
        return build_once()
    except AssertionError as e:
        built["error"] = e
        raise


def build_once():
    for tool in ("dpkg-buildpackage", "dh", "lintian", "dpkg-checkbuilddeps"):
        if not shutil.which(tool):
            raise Skip(f"{tool} is missing (apt-get install dpkg-dev debhelper lintian)")
    env = dict(os.environ, **NOCHECK)
    r = subprocess.run(["dpkg-checkbuilddeps", os.path.join(SOURCE_DIR, "contrib", "debian", "control")],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise Skip(f"build dependencies missing: {r.stderr.strip()}")
    # the host this test is meant for has what made the package differ before
    r = subprocess.run(["pkg-config", "--exists", "systemd"])
    print(f"     host has systemd.pc: {r.returncode == 0}")
    out = os.path.join(TMP, "out")
    r = subprocess.run(["bash", os.path.join(SOURCE_DIR, "contrib", "build-deb.sh"), out], capture_output=True,
                       text=True, env=env, timeout=1500)
    print(r.stdout[-3000:])
    check(r.returncode == 0, f"build-deb.sh exited {r.returncode}: {r.stderr[-3000:]}")
    for name in os.listdir(out):
        m = re.fullmatch(r"(taskview(?:-dev)?)_[^_]+_[^_]+\.deb", name)
        if m:
            built[m.group(1)] = os.path.join(out, name)
    built["out"] = out
    check("taskview" in built and "taskview-dev" in built, f"packages built: {sorted(os.listdir(out))}")
    return built


def field(deb, name):
    r = subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True, text=True, check=True)
    return r.stdout.strip()


def relations(deb, name):
    """{package: constraint} of a Depends/Provides field."""
    rel = {}
    for item in field(deb, name).split(","):
        item = item.strip()
        if item:
            m = re.fullmatch(r"([a-z0-9.+-]+)(?::\w+)?\s*(\(.*\))?", item)
            check(m, f"{name}: cannot read {item!r}")
            rel[m.group(1)] = m.group(2)
    return rel


def files(deb):
    r = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True)
    return {line.split()[5].lstrip(".").lstrip("/") for line in r.stdout.splitlines() if not line.endswith("/")}


def test_lintian():
    out = build()["out"]
    with open(os.path.join(out, "lintian.log")) as f:
        log = f.read()
    print("     lintian -I --pedantic:\n" + "".join("       " + l + "\n" for l in log.splitlines()))
    bad = [l for l in log.splitlines() if re.match(r"[EW]: ", l)]
    check(not bad, f"lintian errors or warnings: {bad}")


def test_depends_and_provides():
    deb = build()["taskview"]
    dep = relations(deb, "Depends")
    for lib in ("libzstd1", "libnl-genl-3-200", "libnl-3-200", "libbpf1", "libncursesw6", "libc6"):
        check(lib in dep, f"taskview does not depend on {lib} (built without its feature?): {dep}")
    major, minor = header_abi()
    want = {f"taskview-plugin-abi-{major}.{m}" for m in range(minor + 1)}
    check(set(relations(deb, "Provides")) == want, f"Provides: {field(deb, 'Provides')!r}, want {sorted(want)}")
    check("taskview-plugin-abi-1.0" in want, f"the header's ABI is {major}.{minor}")
    dev = built["taskview-dev"]
    check(not any(d.startswith("lib") for d in relations(dev, "Depends")),
          f"taskview-dev needs no library: {field(dev, 'Depends')}")


def test_files():
    deb = build()["taskview"]
    have = files(deb)
    want = {"usr/bin/taskview", UNIT, METRICS_UNIT, "usr/share/man/man1/taskview.1.gz",
            "usr/share/locale/de/LC_MESSAGES/taskview.mo", "usr/share/locale/fr/LC_MESSAGES/taskview.mo",
            "usr/share/doc/taskview/README.Debian", "usr/share/doc/taskview/copyright"}
    want |= {p for p in have if re.fullmatch(r"usr/lib/[^/]+/taskview/plugins/(io|oom|fds)\.so", p)}
    check(want <= have, f"missing from taskview: {sorted(want - have)}")
    check(len([p for p in have if p.endswith(".so")]) == 3, f"three plugins: {sorted(have)}")
    check(not any(p.startswith("usr/lib/systemd") for p in have),
          "a unit under /usr/lib/systemd, where bookworm's dh_installsystemd does not look")
    dev = files(built["taskview-dev"])
    check({"usr/include/taskview/plugin.h", "usr/share/man/man7/taskview-plugins.7.gz"} <= dev
          and any(p.endswith("pkgconfig/taskview-plugin.pc") for p in dev), f"taskview-dev: {sorted(dev)}")


def test_binary_records():
    """The packaged binary records and replays, and loads the packaged plugins."""
    root = os.path.join(TMP, "root")
    subprocess.run(["dpkg-deb", "-x", build()["taskview"], root], check=True)
    exe = os.path.join(root, "usr", "bin", "taskview")
    rec = os.path.join(TMP, "rec.tv")
    plugindir = next(os.path.join(d, "") for d, _, fs in os.walk(root) if "io.so" in fs)
    env = dict(os.environ, TASKVIEW_PLUGINDIR=plugindir)
    pid = str(os.getpid())
    r = subprocess.run([exe, "-b", "-n", "1", "-d", "0.2", "-w", rec, "-p", pid, "-o", "pid,comm"],
                       capture_output=True, text=True, env=env, timeout=60)
    check(r.returncode == 0 and os.path.getsize(rec) > 0, f"taskview -w: {r.returncode} {r.stderr}")
    r = subprocess.run([exe, "-r", rec, "-b", "-o", "pid,comm"], capture_output=True, text=True, env=env,
                       timeout=60)
    check(r.returncode == 0 and re.search(rf"^\s*{pid}\s", r.stdout, re.M), f"taskview -r: {r.stdout}{r.stderr}")
    r = subprocess.run([exe, "--list-columns"], capture_output=True, text=True, env=env, timeout=60)
    check("io.read_rate" in r.stdout, f"the packaged plugins: {r.stdout[-500:]}{r.stderr}")
    # as root on a kernel with BTF, the packaged binary reads threads with its BPF task iterator
    if os.geteuid() == 0 and os.path.exists("/sys/kernel/btf/vmlinux"):
        r = subprocess.run([exe, "-b", "-H", "--format", "json", "-n", "1", "-p", pid, "-o", "pid,comm"],
                           capture_output=True, text=True, env=env, timeout=60)
        check(r.returncode == 0 and '"reader": "bpf"' in r.stdout, f"packaged -H reader: {r.stdout[:400]}{r.stderr}")
    with open(os.path.join(root, UNIT)) as f:
        unit = f.read()
    check("ExecStart=/usr/bin/taskview " in unit, "the unit starts /usr/bin/taskview")


def test_maintainer_scripts():
    """dh_installsystemd saw the unit: snippets that keep it disabled unless
    the admin enabled it, restart it on upgrades, and forget it on purge."""
    ctl = os.path.join(TMP, "control")
    subprocess.run(["dpkg-deb", "-e", build()["taskview"], ctl], check=True)
    scripts = {}
    for name in ("postinst", "prerm", "postrm"):
        path = os.path.join(ctl, name)
        check(os.path.exists(path), f"no {name}: dh_installsystemd did not see the unit")
        with open(path) as f:
            scripts[name] = f.read()
    post = scripts["postinst"]
    restarts = [l for l in post.splitlines() if "deb-systemd-invoke $_dh_action" in l]
    for unit in ("'taskview-record.service'", "'taskview-metrics.service'"):
        check(f"deb-systemd-helper update-state {unit}" in post, f"postinst does not register {unit}:\n{post}")
        # enabled again only where it was: shipped disabled
        enable = f"deb-systemd-helper enable {unit}"
        check(enable in post and f"deb-systemd-helper --quiet was-enabled {unit}" in post
              and post.index(f"was-enabled {unit}") < post.index(enable),
              f"postinst enables {unit} unconditionally:\n{post}")
        check(any(unit in l for l in restarts), f"postinst does not restart {unit} on upgrades")
        check(any("deb-systemd-helper purge" in l and unit in l for l in scripts["postrm"].splitlines()),
              f"postrm does not forget {unit} on purge:\n{scripts['postrm']}")

if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="taskview-deb-test-") as TMP:
        sys.exit(main([test_lintian, test_depends_and_provides, test_files, test_binary_records,
                       test_maintainer_scripts]))
