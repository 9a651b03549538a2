#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Adds the SPDX-License-Identifier line to every source, header, build and test
file of the tree that lacks one; prints the files it changed.

    contrib/add-spdx.py [--check] [SOURCE_DIR]

The files are those git tracks (every file below SOURCE_DIR, build directories
excepted, outside a git checkout): C sources and headers, Python and shell
scripts, meson files, and any other file that starts with "#!". The line goes
first, or second after a "#!" line, as a comment of the file's language.
With --check nothing is written and the exit status is 1 when a file lacks it.
Running it again changes nothing.

A generated file (one that says "do not edit" near its top) is left alone and
named on stderr, with exit status 1: its generator has to write the line, or
the next run of the generator drops it again.
"""
import os
import subprocess
import sys

LICENSE = "GPL-2.0-or-later"
TAG = "SPDX-License-Identifier:"
# the line must appear within this many lines from the top
HEAD_LINES = 3
NAMES = ("meson.build", "meson_options.txt")
C_SUFFIXES = (".c", ".h")
HASH_SUFFIXES = (".py", ".sh")


def tree_files(root):
    """Paths relative to root: the files git tracks, or every file outside build directories."""
    try:
        r = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, timeout=60)
        if r.returncode == 0:
            return sorted(p for p in r.stdout.decode().split("\0") if p and os.path.isfile(os.path.join(root, p)))
    except OSError:
        pass
    out = []
    for top, dirs, files in os.walk(root):
        # .git, __pycache__ and meson build directories are not part of the source
        dirs[:] = [d for d in dirs if d not in (".git", "__pycache__")
                   and not os.path.exists(os.path.join(top, d, "meson-private"))]
        out += [os.path.relpath(os.path.join(top, f), root) for f in files]
    return sorted(out)


def comment_style(path, data):
    """('/* ', ' */') or ('# ', '') for a file that needs the line, else None."""
    name = os.path.basename(path)
    if name.endswith(C_SUFFIXES):
        return ("/* ", " */")
    if name.endswith(HASH_SUFFIXES) or name in NAMES or data.startswith(b"#!"):
        return ("# ", "")
    return None


def generated(data):
    head = b"\n".join(data.split(b"\n", 5)[:5]).lower()
    return b"do not edit" in head


def has_line(data):
    head = data.split(b"\n", HEAD_LINES)[:HEAD_LINES]
    return any(TAG.encode() in line for line in head)


def with_line(data, style):
    line = f"{style[0]}{TAG} {LICENSE}{style[1]}\n".encode()
    if data.startswith(b"#!"):
        first, _, rest = data.partition(b"\n")
        return first + b"\n" + line + rest
    return line + data


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    missing = 0
    left = []
    for rel in tree_files(root):
        path = os.path.join(root, rel)
        with open(path, "rb") as f:
            data = f.read()
        style = comment_style(rel, data)
        if style is None or has_line(data):
            continue
        if generated(data):
            left.append(rel)
            continue
        missing += 1
        print(rel)
        if not check:
            with open(path, "wb") as f:  # in place: the mode stays
                f.write(with_line(data, style))
    for rel in left:
        print(f"{rel}: generated, not changed: its generator has to write '{TAG} {LICENSE}'", file=sys.stderr)
    if check and missing:
        print(f"{missing} files lack '{TAG} {LICENSE}': run contrib/add-spdx.py", file=sys.stderr)
    return 1 if left or (check and missing) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
