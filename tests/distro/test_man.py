#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The manual pages: lint-clean, and complete with respect to the program.

  test_man.py lint      groff -man -ww -z and mandoc -Tlint print nothing for
                        docs/taskview.1 and docs/taskview-plugins.7 (when present);
                        skipped when neither tool is installed
  test_man.py complete  taskview.1 names every long option of src/cli.c, every
                        built-in column id and the project version
"""
import os
import re
import shutil
import subprocess
import sys

SOURCE_DIR = os.environ["SOURCE_DIR"]
TASKVIEW = os.environ.get("TASKVIEW", "taskview")
SKIP = 77
PAGES = [os.path.join(SOURCE_DIR, "docs", p) for p in ("taskview.1", "taskview-plugins.7")]


def lint():
    tools = []
    if shutil.which("groff"):
        tools.append(["groff", "-man", "-ww", "-z"])
    if shutil.which("mandoc"):
        tools.append(["mandoc", "-Tlint"])
    if not tools:
        print("SKIP: neither groff nor mandoc is installed")
        return SKIP
    failures = 0
    for page in PAGES:
        if not os.path.exists(page):
            print(f"{os.path.basename(page)}: not present")
            continue
        for tool in tools:
            r = subprocess.run(tool + [page], capture_output=True, text=True, timeout=60)
            out = (r.stdout + r.stderr).strip()
            if out or r.returncode != 0:
                print(f"FAIL: {' '.join(tool)} {os.path.basename(page)} (exit {r.returncode}):\n{out}")
                failures += 1
            else:
                print(f"ok: {' '.join(tool)} {os.path.basename(page)}")
    return 1 if failures else 0


def roff_text(path):
    """The page with roff escapes for '-' undone, for plain searching."""
    with open(path, encoding="utf-8") as f:
        return f.read().replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fP", "")


def complete():
    page = roff_text(PAGES[0])
    failures = []
    with open(os.path.join(SOURCE_DIR, "src", "cli.c"), encoding="utf-8") as f:
        cli = f.read()
    longs = re.findall(r'\{"([a-z-]+)",\s*(?:no|required|optional)_argument', cli)
    if not longs:
        failures.append("no long options found in src/cli.c")
    for name in longs:
        if "--" + name not in page:
            failures.append(f"option --{name} is not documented")
    r = subprocess.run([TASKVIEW, "--list-columns", "--no-plugins"], capture_output=True, text=True,
                       env={**os.environ, "LC_ALL": "C", "LANGUAGE": ""}, timeout=30)
    if r.returncode != 0:
        failures.append(f"taskview --list-columns exited {r.returncode}: {r.stderr}")
    ids = [line.split()[0] for line in r.stdout.splitlines() if line.strip()]
    for cid in ids:
        m = re.fullmatch(r"([a-z]+)_delay(_avg)?", cid)
        # delay columns are documented per class: "class_delay" and ".B class"
        found = re.search(rf"^\.B {m.group(1)}$", page, re.M) if m else re.search(rf"\b{cid}\b", page)
        if not found:
            failures.append(f"column {cid} is not documented")
    version = os.environ.get("TASKVIEW_VERSION")
    th = re.search(r'^\.TH\s+TASKVIEW\s+1\s+\S+\s+"taskview ([^"]+)"', page, re.M)
    if not th:
        failures.append(".TH line without \"taskview VERSION\"")
    elif version and th.group(1) != version:
        failures.append(f".TH says version {th.group(1)}, the project is {version}")
    print(f"{len(longs)} options, {len(ids)} columns checked")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "lint"
    sys.exit(lint() if what == "lint" else complete())
