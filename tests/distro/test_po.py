#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Translations: po/POTFILES lists every source file with marked strings;
each language in po/LINGUAS passes `msgfmt --check` with nothing fuzzy or
untranslated and has every string the sources mark today; a translated
multi-line text (the --help entries) keeps its lines under 80 columns.
"""
import gettext
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata

SOURCE_DIR = os.environ["SOURCE_DIR"]
SKIP = 77
MARKED = re.compile(r'\b[NP]?_\(\s*"')
# the keywords of po/meson.build
KEYWORDS = ["--keyword=_", "--keyword=N_", "--keyword=P_:1,2"]


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return [w for line in f for w in [line.split("#")[0].strip()] if w]


def msgids(po):
    """The msgids of a .po or .pot file (header excluded), unescaped enough to compare."""
    ids, cur, state = set(), None, None
    with open(po, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("msgid "):
                cur, state = line[6:].strip('"'), "id"
            elif line.startswith('"') and state == "id":
                cur += line.strip('"')
            else:
                if state == "id" and cur:
                    ids.add(cur)
                state = None
    if state == "id" and cur:
        ids.add(cur)
    return ids


def width(text):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wide_lines(po):
    """Translated lines of 80 columns or more where the English lines are shorter."""
    with tempfile.TemporaryDirectory() as tmp:
        mo = os.path.join(tmp, "t.mo")
        subprocess.run(["msgfmt", "-o", mo, po], check=True)
        with open(mo, "rb") as f:
            catalog = gettext.GNUTranslations(f)._catalog
    bad = []
    for key, text in catalog.items():
        english = key[0] if isinstance(key, tuple) else key
        if "\n" not in english or not text or max(width(x) for x in english.split("\n")) >= 80:
            continue
        for line in text.split("\n"):
            if width(line) >= 80:
                bad.append(f"line of {width(line)} columns: {line!r}")
    return bad


def main():
    po_dir = os.path.join(SOURCE_DIR, "po")
    failures = []
    listed = read_list(os.path.join(po_dir, "POTFILES"))
    for path in listed:
        if not os.path.exists(os.path.join(SOURCE_DIR, path)):
            failures.append(f"POTFILES lists {path}, which does not exist")
    for root, _dirs, files in [w for d in ("src", "plugins") for w in os.walk(os.path.join(SOURCE_DIR, d))]:
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, SOURCE_DIR)
            with open(path, encoding="utf-8", errors="replace") as f:
                if MARKED.search(f.read()) and rel not in listed:
                    failures.append(f"{rel} has marked strings but is not in po/POTFILES")

    if not shutil.which("msgfmt"):
        print("msgfmt not installed: catalogs not checked")
    else:
        for lang in read_list(os.path.join(po_dir, "LINGUAS")):
            po = os.path.join(po_dir, lang + ".po")
            if not os.path.exists(po):
                failures.append(f"po/LINGUAS names {lang}, but po/{lang}.po does not exist")
                continue
            r = subprocess.run(["msgfmt", "--check", "--statistics", "-o", os.devnull, po],
                               capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
            stats = r.stderr.strip()
            print(f"{lang}: {stats}")
            if r.returncode != 0:
                failures.append(f"msgfmt --check {lang}.po failed:\n{stats}")
            elif "fuzzy" in stats or "untranslated" in stats:
                failures.append(f"{lang}.po is incomplete: {stats}")

    if shutil.which("xgettext"):
        with tempfile.TemporaryDirectory() as tmp:
            pot = os.path.join(tmp, "t.pot")
            r = subprocess.run(["xgettext", *KEYWORDS, "--from-code=UTF-8", "-o", pot,
                                "-D", SOURCE_DIR, "-f", os.path.join(po_dir, "POTFILES")],
                               capture_output=True, text=True)
            if r.returncode != 0 or not os.path.exists(pot):
                failures.append(f"xgettext failed: {r.stderr.strip()}")
            else:
                current = msgids(pot)
                for lang in read_list(os.path.join(po_dir, "LINGUAS")):
                    po = os.path.join(po_dir, lang + ".po")
                    if os.path.exists(po):
                        new = sorted(current - msgids(po))
                        if new:
                            failures.append(f"{lang}.po lacks {len(new)} source strings "
                                            f"(meson compile taskview-pot taskview-update-po), e.g. {new[0]!r}")

    if shutil.which("msgfmt"):
        for lang in read_list(os.path.join(po_dir, "LINGUAS")):
            po = os.path.join(po_dir, lang + ".po")
            if os.path.exists(po):
                failures += [f"{lang}: {m}" for m in wide_lines(po)]

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
