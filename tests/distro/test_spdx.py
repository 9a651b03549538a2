#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every source, header, build and test file says its licence in an
SPDX-License-Identifier line near its top, and contrib/add-spdx.py, which adds
the missing lines, leaves a tree where every such file has exactly one and
nothing else changed."""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from tvtest import check, main  # noqa: E402

SOURCE_DIR = os.path.abspath(os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")))
SCRIPT = os.path.join(SOURCE_DIR, "contrib", "add-spdx.py")
LINE = "SPDX-License-Identifier: GPL-2.0-or-later"


def source_files(root):
    """The tree's files: what git tracks, or, outside a checkout (a tarball), all but build directories."""
    r = None
    if shutil.which("git"):
        r = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True)
    if r and r.returncode == 0:
        return [p for p in r.stdout.decode().split("\0") if p and os.path.isfile(os.path.join(root, p))]
    out = []
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in (".git", "__pycache__")
                   and not os.path.isdir(os.path.join(top, d, "meson-private"))]
        out += [os.path.relpath(os.path.join(top, f), root) for f in files]
    return out


def kind(rel, text):
    """What sort of file needs the line, or None."""
    name = os.path.basename(rel)
    if name.endswith((".c", ".h")):
        return "C"
    if name.endswith(".py"):
        return "python"
    if name in ("meson.build", "meson_options.txt"):
        return "meson"
    if name.endswith(".sh") or text.startswith("#!"):
        return "script"
    return None


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def lacking(root):
    """(files that need the line but lack it within their first lines, kinds seen)"""
    bad, kinds = [], {}
    for rel in sorted(source_files(root)):
        text = read(os.path.join(root, rel))
        k = kind(rel, text)
        if not k:
            continue
        kinds[k] = kinds.get(k, 0) + 1
        head = text.split("\n")[:3]
        if not any(LINE in line for line in head):
            bad.append(rel)
    return bad, kinds


def test_every_file_has_the_line():
    bad, kinds = lacking(SOURCE_DIR)
    # the check itself sees the tree: not passing for want of files
    for k in ("C", "python", "meson", "script"):
        check(kinds.get(k, 0) > 0, f"no {k} file found in {SOURCE_DIR}: {kinds}")
    check(not bad, f"{len(bad)} files lack '{LINE}' (contrib/add-spdx.py adds it):\n  " + "\n  ".join(bad))


SPDX_COMMENT = re.compile(r"(/\* |# )SPDX-License-Identifier: \S+( \*/)?\n")


def strip_line(text):
    """text without its SPDX comment line among the first three."""
    lines = text.splitlines(True)
    return "".join(line for i, line in enumerate(lines) if not (i < 3 and SPDX_COMMENT.fullmatch(line)))


def test_script_fills_a_tree():
    """On a copy of the tree without any of the lines (and without git)."""
    with tempfile.TemporaryDirectory() as d:
        root = os.path.join(d, "tree")
        before = {}
        for rel in source_files(SOURCE_DIR):
            src, dst = os.path.join(SOURCE_DIR, rel), os.path.join(root, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
            text = strip_line(read(src))
            with open(dst, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            before[rel] = text
        need = sorted(rel for rel, text in before.items() if kind(rel, text))
        r = subprocess.run([sys.executable, SCRIPT, "--check", root], capture_output=True, text=True)
        check(r.returncode == 1 and sorted(r.stdout.split()) == need,
              f"--check: exit {r.returncode}, listed {len(r.stdout.split())} of {len(need)}: {r.stderr}")
        r = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
        check(r.returncode == 0, f"add-spdx.py exited {r.returncode}: {r.stderr}")
        check(sorted(r.stdout.split()) == need, f"changed {r.stdout.split()}, want {need}")
        bad, _ = lacking(root)
        check(not bad, f"still lacking after the script: {bad}")
        for rel, text in before.items():
            path = os.path.join(root, rel)
            after = read(path)
            if rel not in need:
                check(after == text, f"{rel} changed")
                continue
            lines = after.split("\n")
            at = 1 if text.startswith("#!") else 0
            comments = sum(1 for x in after.splitlines(True) if SPDX_COMMENT.fullmatch(x))
            check(LINE in lines[at] and comments == 1, f"{rel}: line {at + 1} is {lines[at]!r}, {comments} SPDX lines")
            check(strip_line(after) == text, f"{rel}: more than the line changed")
            check(os.stat(path).st_mode == os.stat(os.path.join(SOURCE_DIR, rel)).st_mode,
                  f"{rel}: mode changed")
            if rel.endswith(".py"):
                compile(after, rel, "exec")
            elif text.startswith("#!/bin/sh") or text.startswith("#!/bin/bash"):
                r = subprocess.run([text[2:].split()[0], "-n", path], capture_output=True, text=True)
                check(r.returncode == 0, f"{rel}: {r.stderr}")
        check(any(os.stat(os.path.join(root, rel)).st_mode & stat.S_IXUSR for rel in need),
              "no executable script among the files")
        r = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
        check(r.returncode == 0 and r.stdout == "", f"a second run changed {r.stdout.split()}")
        r = subprocess.run([sys.executable, SCRIPT, "--check", root], capture_output=True, text=True)
        check(r.returncode == 0, f"--check after the script: {r.stdout}")


if __name__ == "__main__":
    sys.exit(main([
        test_every_file_has_the_line,
        test_script_fills_a_tree,
    ]))
