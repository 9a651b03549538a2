# SPDX-License-Identifier: GPL-2.0-or-later
"""The sanitizer's table of shown code points is what text_width_gen.py makes
from the Unicode data installed here (Debian's unicode-data), when that is the
version the table was made from; skipped (77) otherwise."""
import os
import re
import subprocess
import sys

SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
UNICODE_DIR = os.environ.get("UNICODE_DIR", "/usr/share/unicode")


def main():
    table = os.path.join(SOURCE_DIR, "src", "util", "text_width_table.c")
    gen = os.path.join(SOURCE_DIR, "src", "util", "text_width_gen.py")
    eaw = os.path.join(UNICODE_DIR, "EastAsianWidth.txt")
    if not os.path.exists(eaw):
        print(f"no Unicode data in {UNICODE_DIR} (package unicode-data): skipped")
        return 77
    with open(table, encoding="utf-8") as f:
        committed = f.read()
    have = re.search(r'text_width_unicode_version\[\] = "([^"]+)"', committed).group(1)
    with open(eaw, encoding="utf-8") as f:
        m = re.match(r"# \S+-(\d+\.\d+\.\d+)\.txt", f.readline())
    data = m.group(1) if m else "unknown"
    if data != have:
        print(f"the table is from Unicode {have}, the data here is {data}: skipped")
        return 77
    made = subprocess.run([sys.executable, gen, UNICODE_DIR], capture_output=True, text=True, check=True).stdout
    if made != committed:
        print("src/util/text_width_table.c differs from what text_width_gen.py makes: regenerate it")
        return 1
    print(f"table matches Unicode {data}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
