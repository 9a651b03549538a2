#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""taskview speaks German and French from an installed prefix.

The binary looks for its catalogs under the prefix it was configured with, so
this test configures a second, minimal build with --prefix in a temporary
directory, installs it there (a real install, no DESTDIR) and runs, under
each language: `taskview --help` (translated, no line of 80 columns or more),
a batch sample (translated header with the singular of "1 process"; every
column header translated and whole) and, in tmux when it is installed, the
interactive screen (translated delay state and column headers).

It needs no locale to be generated: with LANGUAGE set and the locale C.UTF-8,
glibc translates. Where that does not work (an older glibc treats C.UTF-8 like
C) and no de_DE.UTF-8 / fr_FR.UTF-8 locale exists, the test is skipped.
"""
import gettext
import os
import shutil
import subprocess
import shlex
import sys
import tempfile
import time

SOURCE_DIR = os.environ["SOURCE_DIR"]
MESON = os.environ.get("MESON") or shutil.which("meson") or "meson"
SKIP = 77

# (language, full locale, words that must appear in --help, in the batch header
#  of a sample of one process: the singular form)
LANGS = [
    ("de", "de_DE.UTF-8", "Aufruf: taskview", "gezeigt: 1 Prozess,"),
    ("fr", "fr_FR.UTF-8", "Utilisation : taskview", "affichés : 1 processus,"),
]
ENGLISH = {**{k: v for k, v in os.environ.items() if not k.startswith("LC_")}, "LC_ALL": "C", "LANGUAGE": ""}


def locales():
    try:
        out = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout
    except OSError:
        return set()
    return {line.strip().lower().replace("utf-8", "utf8") for line in out.splitlines()}


def env_for(lang, full, have):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in ("LANG", "LANGUAGE")}
    if full.lower().replace("utf-8", "utf8") in have:
        env["LANG"] = full
        return env
    if "c.utf8" in have:
        env["LC_ALL"] = "C.UTF-8"
        env["LANGUAGE"] = lang
        return env
    return None


def translator(prefix, lang):
    """The installed catalog of lang, wherever under prefix it went."""
    localedir = os.path.join(prefix, "share", "locale")
    for root, _dirs, files in os.walk(prefix):
        if "taskview.mo" in files and os.path.basename(os.path.dirname(root)) == lang:
            localedir = os.path.dirname(os.path.dirname(root))
    return gettext.translation("taskview", localedir, languages=[lang])


def catalog_translates(prefix, lang, word):
    """Whether the installed catalog itself has the --help translation."""
    try:
        t = translator(prefix, lang)
    except OSError:
        return False
    usage = subprocess.run([os.path.join(prefix, "bin", "taskview"), "--help"], capture_output=True,
                           text=True, env=ENGLISH).stdout
    first = usage[:usage.index("\n\n") + 2]  # the --help text's first entry
    return word in t.gettext(first)


def check_headers(exe, env, tr):
    """Every column shown at once: each translated header appears whole (the
    column is as wide as its translated header), none is cut."""
    ids = [line.split()[0] for line in run([exe, "--list-columns", "--no-plugins"], env=ENGLISH).stdout.splitlines()]
    cmd = [exe, "-b", "-p", "1", "-d", "0.2", "--no-plugins", "-o", ",".join(ids)]
    english = run(cmd, env=ENGLISH).stdout.splitlines()[1].split()
    translated = run(cmd, env=env).stdout.splitlines()[1].split()
    want = [tr.gettext(h) for h in english]
    if translated != want:
        return [f"headers {translated} are not the translated {want}"]
    if translated == english:
        return ["no column header is translated"]
    return []


TUI_COLUMNS = "pid,user,state,cpu,time,vm_rss,vm_pte,ctxt_vol_rate,cpu_delay,io_delay_avg,comm"
# the delay-accounting states of the header, as the catalog must render them
STATES = ["n/a", "on", "off", "no permission", "unsupported"]


def check_tui(exe, env, tr, home):
    """The interactive screen in tmux: the header says the delay state in the
    language, and the table's column headers are the translated ones, whole."""
    if not shutil.which("tmux"):
        print("tmux is not installed: the interactive screen is not checked")
        return []
    sock = f"tvlocale-{os.getpid()}"
    env = {**env, "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, "cfg"), "TERM": "xterm-256color"}
    line = "env -i " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items() if k in
                                ("PATH", "HOME", "XDG_CONFIG_HOME", "TERM", "LANG", "LC_ALL", "LANGUAGE"))
    line += f" {shlex.quote(exe)} --no-plugins -p 1 -o {TUI_COLUMNS}; sleep 30"
    tmux = ["tmux", "-L", sock, "-f", "/dev/null"]
    subprocess.run([*tmux, "new-session", "-d", "-x", "200", "-y", "20", "sh", "-c", line], check=True)
    want = [tr.gettext(h) for h in run([exe, "-b", "-p", "1", "-d", "0.1", "--no-plugins", "-o", TUI_COLUMNS],
                                       env=ENGLISH).stdout.splitlines()[1].split()]
    label = tr.gettext("Delay acct:")
    states = [tr.gettext(x) for x in STATES]
    screen = ""
    try:
        for _ in range(100):
            screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True).stdout
            # the sort column's header is followed by a mark of the direction
            heads = [x.replace("\u25bc", " ").replace("\u25b2", " ").split() for x in screen.splitlines()
                     if x.split()[:1] == want[:1]]
            if label in screen and heads and heads[0] == want:
                after = screen.split(label, 1)[1].split()
                if after and any(" ".join(after).startswith(st) for st in states):
                    return []
            time.sleep(0.1)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    return [f"the screen lacks {label!r} with one of {states}, or the headers {want}:\n{screen}"]


def run(cmd, **kw):
    # no timeout of its own: a build beside a loaded machine takes what it takes,
    # and the test's own limit in meson.build ends a hang
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
    return r


def main():
    if not os.path.exists(os.path.join(SOURCE_DIR, "po", "LINGUAS")):
        print("SKIP: no po/ directory")
        return SKIP
    build_dir = os.environ.get("BUILD_DIR")
    if build_dir:
        with open(os.path.join(build_dir, "config.h")) as f:
            if "#define TV_ENABLE_NLS 0" in f.read():
                print("SKIP: this build has NLS disabled")
                return SKIP
    if not shutil.which("msgfmt"):
        print("SKIP: msgfmt is not installed")
        return SKIP
    have = locales()
    with tempfile.TemporaryDirectory(prefix="taskview-prefix-") as tmp:
        prefix = os.path.join(tmp, "prefix")
        build = os.path.join(tmp, "build")
        # only what this test needs: no tests, no plugins
        r = subprocess.run([MESON, "setup", build, SOURCE_DIR, "--prefix", prefix, "-Dnls=enabled",
                            "-Dtests=false", "-Dplugins=false", "--buildtype=plain"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout, r.stderr, sep="\n")
            print("FAIL: meson setup of the prefix build")
            return 1
        run([MESON, "install", "-C", build, "--quiet"])
        exe = os.path.join(prefix, "bin", "taskview")

        failures = []
        skipped = 0
        for lang, full, help_word, header_word in LANGS:
            env = env_for(lang, full, have)
            if env is None:
                print(f"{lang}: neither {full} nor C.UTF-8 is available")
                skipped += 1
                continue
            h = subprocess.run([exe, "--help"], capture_output=True, text=True, env=env, timeout=30)
            if h.returncode != 0:
                failures.append(f"{lang}: --help exited {h.returncode}: {h.stderr}")
                continue
            if help_word not in h.stdout:
                if not catalog_translates(prefix, lang, help_word):
                    failures.append(f"{lang}: the installed catalog does not translate the --help text")
                elif "LANG" not in env:
                    # an older glibc ignores LANGUAGE under C.UTF-8: not taskview's fault
                    print(f"{lang}: gettext ignores LANGUAGE with LC_ALL=C.UTF-8 here and {full} is missing")
                    skipped += 1
                else:
                    failures.append(f"{lang}: --help is not translated:\n{h.stdout[:300]}")
                continue
            wide = [line for line in h.stdout.splitlines() if len(line) >= 80]
            if wide:
                failures.append(f"{lang}: --help lines of 80 columns or more: {wide}")
            tr = translator(prefix, lang)
            failures += [f"{lang}: {m}" for m in check_headers(exe, env, tr)]
            failures += [f"{lang}: {m}" for m in check_tui(exe, env, tr, tmp)]
            b = subprocess.run([exe, "-b", "-p", "1", "-d", "0.2", "--no-plugins"],
                               capture_output=True, text=True, env=env, timeout=30)
            if b.returncode != 0:
                failures.append(f"{lang}: batch sample exited {b.returncode}: {b.stderr}")
            elif header_word not in b.stdout.splitlines()[0]:
                failures.append(f"{lang}: batch header is not translated: {b.stdout.splitlines()[0]}")
            else:
                print(f"{lang}: {b.stdout.splitlines()[0]}")
            # column headers come from the catalog too
            lc = subprocess.run([exe, "--list-columns", "--no-plugins"], capture_output=True, text=True,
                                env=env, timeout=30)
            if lc.returncode != 0 or "pid" not in lc.stdout:
                failures.append(f"{lang}: --list-columns exited {lc.returncode}: {lc.stderr}")

    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    if skipped == len(LANGS):
        print("SKIP: no usable locale for any language")
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
