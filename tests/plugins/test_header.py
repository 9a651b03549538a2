#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The installed plugin header compiles on its own: pedantic C11 and C99, and as C++."""
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
INCLUDE = os.path.join(SOURCE_DIR, "include")

C_FLAGS = ["-pedantic", "-Werror", "-Wall", "-Wextra", "-Wstrict-prototypes", "-Wmissing-prototypes"]
CXX_FLAGS = ["-pedantic", "-Werror", "-Wall", "-Wextra"]

# A translation unit that only includes the header, and one that uses every name in it.
ONLY = "#include <taskview/plugin.h>\n"
USE = ONLY + """
static void use_collect(void *state, const struct taskview_host *host,
                        const struct taskview_task *task, struct taskview_values *values)
{
    (void)state;
    if (host->wanted(values, 0))
        host->set_int(values, 0, host->task_tid(task));
}
static struct taskview_column use_columns[1];
static struct taskview_plugin use_plugin;
const struct taskview_plugin *taskview_plugin_v1(void)
{
    use_columns[0].id = "use.x";
    use_columns[0].header = "X";
    use_columns[0].type = TASKVIEW_TYPE_INTEGER;
    use_columns[0].rows = TASKVIEW_ROWS_BOTH;
    use_columns[0].align = TASKVIEW_ALIGN_DEFAULT;
    use_columns[0].flags = TASKVIEW_COLUMN_COUNTER;
    use_plugin.struct_size = sizeof(use_plugin);
    use_plugin.abi_major = TASKVIEW_PLUGIN_ABI_MAJOR;
    use_plugin.abi_minor = TASKVIEW_PLUGIN_ABI_MINOR;
    use_plugin.name = "use";
    use_plugin.columns = use_columns;
    use_plugin.ncolumns = 1;
    use_plugin.column_size = sizeof(use_columns[0]);
    use_plugin.collect = use_collect;
    return &use_plugin;
}
"""

CASES = [
    # (compilers to try, language, standard, extra flags)
    (["cc", "gcc", "clang"], "c", "-std=c11", C_FLAGS),
    (["cc", "gcc", "clang"], "c", "-std=c99", C_FLAGS),
    (["c++", "g++", "clang++"], "c++", "-std=c++11", CXX_FLAGS),
    (["c++", "g++", "clang++"], "c++", "-std=c++20", CXX_FLAGS),
]


def main():
    failures = []
    ran = {"c": 0, "c++": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for compilers, lang, std, flags in CASES:
            seen = set()
            for name in compilers:
                path = shutil.which(name)
                if not path or os.path.realpath(path) in seen:
                    continue
                seen.add(os.path.realpath(path))
                for label, text in (("alone", ONLY), ("used", USE)):
                    src = os.path.join(tmp, "t." + ("cc" if lang == "c++" else "c"))
                    with open(src, "w") as f:
                        f.write(text)
                    cmd = [path, std, *flags, "-I", INCLUDE, "-c", src, "-o", os.path.join(tmp, "t.o")]
                    r = subprocess.run(cmd, capture_output=True, text=True)
                    ran[lang] += 1
                    if r.returncode != 0:
                        failures.append("%s (%s): %s" % (" ".join(cmd), label, r.stderr.strip()))
                    else:
                        print("ok: %s %s %s (%s)" % (name, lang, std, label))
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    if ran["c"] == 0:
        print("no C compiler found")
        return 77
    if ran["c++"] == 0:
        print("no C++ compiler found: only C checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
