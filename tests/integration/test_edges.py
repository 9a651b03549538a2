# SPDX-License-Identifier: GPL-2.0-or-later
"""taskview at the edges of its output: write errors, long command lines, names
that JSON consumers and terminals choke on."""
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import check, main, run, run_json  # noqa: E402

MARK = "..."


class Sleeper:
    """A python process with the given extra arguments, and optionally a name (comm)."""

    def __init__(self, *args, comm=None):
        # one line: the command line is compared with what taskview shows
        code = "import ctypes,sys,time; "
        if comm is not None:
            code += "ctypes.CDLL(None).prctl(15, bytes.fromhex(sys.argv[1]), 0, 0, 0); "
        code += "print('ok', flush=True); time.sleep(60)"
        argv = [sys.executable, "-c", code]
        if comm is not None:
            argv.append(comm.encode("utf-8").hex())
        self.proc = subprocess.Popen(argv + list(args), stdout=subprocess.PIPE, text=True)
        self.proc.stdout.readline()
        self.pid = self.proc.pid

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.kill()
        self.proc.wait()


TASKVIEW = os.environ.get("TASKVIEW", "taskview")
C_ENV = dict(os.environ, LC_ALL="C", LANG="C", LANGUAGE="")


def run_to(path, *args):
    """taskview with its output to path (e.g. /dev/full); English messages."""
    with open(path, "w") as out:
        return subprocess.run([TASKVIEW, *args], stdout=out, stderr=subprocess.PIPE, text=True, env=C_ENV,
                              timeout=180)


def test_write_errors_exit_1_with_a_message():
    if not os.path.exists("/dev/full"):
        raise AssertionError("/dev/full is missing")
    for args in (["-b", "-n", "2", "-d", "0.1"], ["-b", "--format", "json", "-d", "0.1"], ["--help"], ["-V"],
                 ["--list-columns"]):
        r = run_to("/dev/full", *args)
        check(r.returncode == 1, f"{args} > /dev/full: exit {r.returncode}")
        check("write error" in r.stderr and "No space left on device" in r.stderr,
              f"{args} > /dev/full: message {r.stderr!r}")
        # the same to a file that takes it: no error (a build without
        # taskstats still says that delays are not available)
        r = run_to(os.devnull, *args)
        check(r.returncode == 0 and "write error" not in r.stderr, f"{args} > /dev/null: {r.returncode} {r.stderr!r}")


def test_closed_pipe_ends_batch_promptly():
    # SIGPIPE ignored, as a service manager or a shell's trap may leave it:
    # the write error alone must end taskview
    def ignore_sigpipe():
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    # -p: a refresh of one process, so that the write that finds the pipe gone
    # comes soon also beside load; the wait's limit catches one that never ends
    p = subprocess.Popen([TASKVIEW, "-b", "-n", "1000", "-d", "0.1", "-p", str(os.getpid())], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=C_ENV, preexec_fn=ignore_sigpipe)
    try:
        with open(f"/proc/{p.pid}/status") as f:
            ign = int([line for line in f if line.startswith("SigIgn:")][0].split()[1], 16)
        check(ign & (1 << (signal.SIGPIPE - 1)), "SIGPIPE is ignored in taskview")
        first = p.stdout.readline()
        check(first.startswith(b"taskview "), f"first line: {first!r}")
        p.stdout.close()  # as `head -1` does
        t0 = time.monotonic()
        rc = p.wait(timeout=60)
        took = time.monotonic() - t0
        err = p.stderr.read().decode()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    print(f"  ended {took:.2f} s after the reader left")
    check(rc == 1, f"exit status {rc}")
    check("write error" in err and "Broken pipe" in err, f"message: {err!r}")


def shown_command(pid):
    r = run("-b", "-p", str(pid), "-d", "0.1", "-o", "pid,command")
    check(r.returncode == 0, r.stderr)
    row = r.stdout.splitlines()[2]
    return row.split(None, 1)[1]


def test_long_command_line_marked():
    # two arguments of 40000 bytes: 80 KiB, more than taskview reads (64 KiB)
    with Sleeper("a" * 40000, "b" * 40000) as p:
        with open(f"/proc/{p.pid}/cmdline", "rb") as f:
            whole = f.read().rstrip(b"\0").replace(b"\0", b" ").decode()
        cmd = shown_command(p.pid)
        check(cmd.endswith("b" + MARK), f"cut command line ends with the mark: ...{cmd[-20:]!r}")
        check(whole.startswith(cmd[:-len(MARK)]), "what is shown is the start of the command line")
        check(60000 < len(cmd) <= 65536, f"about 64 KiB shown: {len(cmd)}")
        doc = run_json("-p", str(p.pid), "-d", "0.1", "-o", "pid,command")[0]
        check(doc["tasks"][0]["command"] == cmd, "JSON carries the same marked command line")
    # one that fits is shown whole, without a mark
    with Sleeper("c" * 30000) as p:
        cmd = shown_command(p.pid)
        check(cmd.endswith("c" * 100) and not cmd.endswith(MARK), f"whole command line: ...{cmd[-20:]!r}")


def test_json_escapes_separators_and_bidi():
    # U+2028, NEL (U+0085) and RLO (U+202E) in a process name: 11 bytes, fits comm
    name = "a\u2028b\u0085c\u202e"
    with Sleeper(comm=name) as p:
        r = run("-b", "--format", "json", "-p", str(p.pid), "-d", "0.1", "-o", "pid,comm")
        check(r.returncode == 0, r.stderr)
        raw = r.stdout.encode("utf-8", "surrogateescape")
        for bad in ("\u2028", "\u0085", "\u202e"):
            check(bad.encode() not in raw, f"{bad!r} raw in the JSON output")
        for esc in (b"\\u2028", b"\\u0085", b"\\u202e"):
            check(esc in raw, f"{esc!r} escape in the JSON output")
        # one document per line whatever splits the lines
        lines = r.stdout.splitlines()
        check(len(lines) == 1, f"one JSON line: {len(lines)}")
        check(json.loads(lines[0])["tasks"][0]["comm"] == name, "the name decodes back exactly")


if __name__ == "__main__":
    sys.exit(main([
        test_write_errors_exit_1_with_a_message,
        test_closed_pipe_ends_batch_promptly,
        test_long_command_line_marked,
        test_json_escapes_separators_and_bidi,
    ]))
