#!/usr/bin/env python3
"""taskview speaks German and French from an installed prefix.

The binary looks for its catalogs under the prefix it was configured with, so
this test configures a second, minimal build with --prefix in a temporary
directory, installs it there (a real install, no DESTDIR) and runs
`taskview --help` and a batch sample under each language.

It needs no locale to be generated: with LANGUAGE set and the locale C.UTF-8,
glibc translates. Where that does not work (an older glibc treats C.UTF-8 like
C) and no de_DE.UTF-8 / fr_FR.UTF-8 locale exists, the test is skipped.
"""
import gettext
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE_DIR = os.environ["SOURCE_DIR"]
MESON = os.environ.get("MESON") or shutil.which("meson") or "meson"
SKIP = 77

# (language, full locale, words that must appear in --help, in the batch header)
LANGS = [
    ("de", "de_DE.UTF-8", "Aufruf: taskview", "Intervall"),
    ("fr", "fr_FR.UTF-8", "Utilisation : taskview", "intervalle"),
]


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


def catalog_translates(prefix, lang, word):
    """Whether the installed catalog itself has the --help translation."""
    localedir = os.path.join(prefix, "share", "locale")
    for root, _dirs, files in os.walk(prefix):
        if "taskview.mo" in files and os.path.basename(os.path.dirname(root)) == lang:
            localedir = os.path.dirname(os.path.dirname(root))
    try:
        t = gettext.translation("taskview", localedir, languages=[lang])
    except OSError:
        return False
    usage = subprocess.run([os.path.join(prefix, "bin", "taskview"), "--help"], capture_output=True,
                           text=True, env={**os.environ, "LC_ALL": "C", "LANGUAGE": ""}).stdout
    return word in t.gettext(usage)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)
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
                           capture_output=True, text=True, timeout=120)
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
