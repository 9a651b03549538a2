# SPDX-License-Identifier: GPL-2.0-or-later
"""Metrics for fleet collectors, checked by the real consumers.

Every OpenMetrics exposition parses with python3-prometheus-client's strict
parser; the values equal the batch JSON of the same samples; group counters
do not fall when a process of the group ends (with and without exit
records); Debian's node_exporter serves the --textfile as typed metrics
while taskview rewrites it; PCP's pmdaopenmetrics, under a pmcd of the
test's own on a loopback port, reads the same file; docs/metrics.md lists
every metric.
"""
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import TASKVIEW, Skip, Workload, check, is_root, main, reachable, run  # noqa: E402
from exposition import parse_om, parse_text, parsers, series, value, where  # noqa: E402, F401

SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
NOBODY = 65534


def expositions(text):
    parts = text.split("# EOF\n")
    check(parts[-1] == "", "output ends with an exposition's # EOF")
    return [p + "# EOF\n" for p in parts[:-1]]


def as_user(cmd, user):
    if user is None:
        return cmd
    return ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", reachable(cmd[0], user), *cmd[1:]]


def users():
    return [None, NOBODY] if is_root() else [None]


def series_bound(top, ngroups):
    """docs/metrics.md: at most 11 + 33 G + 25 N series."""
    return 11 + 33 * ngroups + 25 * top


def commands(m, name="taskview_command_threads"):
    """{(group, comm): labels} of the commands with series."""
    return {(dict(k[1])["group"], dict(k[1])["comm"]): dict(k[1]) for k in m if k[0] == name}


def check_groups_named(m, what):
    """Every series with a group label names one: never empty."""
    empty = [k for k in m if dict(k[1]).get("group") == ""]
    check(not empty, f"{what}: series without a group: {empty[:3]}")


# ------------------------------------------------------------------ format


def test_expositions_parse_strictly():
    """Every exposition parses with the OpenMetrics parser, counters end in
    _total, units match names, and the series stay within the stated bound.
    Of the test's own workloads: the host's tasks and groups are not the
    test's to judge (a host may hold any control group name)."""
    for user in users():
        wls = [Workload("--sleepers", "2", "--name", f"tvm-parse{i}", user=user) for i in range(5)]
        try:
            r = run("-b", "--format", "openmetrics", "-n", "3", "-d", "0.4", "--top", "4",
                    "-p", ",".join(str(w.pid) for w in wls), user=user)
        finally:
            for w in wls:
                w.stop()
        check(r.returncode == 0, f"{user}: exit {r.returncode}: {r.stderr}")
        exps = expositions(r.stdout)
        check(len(exps) == 3, f"{user}: one exposition per sample, got {len(exps)}")
        om, _ = parsers()
        for e in exps:
            fams = list(om(e))
            m = series(fams)
            for f in fams:
                check(f.name.startswith("taskview_"), f"prefix: {f.name}")
                check(f.type in ("counter", "gauge"), f"{f.name}: type {f.type}")
                if f.unit:
                    check(f.name.endswith("_" + f.unit), f"{f.name}: unit {f.unit}")
            groups = {dict(k[1]).get("group") for k in m if "group" in dict(k[1])}
            check_groups_named(m, str(user))
            check(not any("pid" in dict(k[1]) for k in m), f"{user}: a pid label")
            cmds = commands(m)
            check(len(cmds) == 4, f"{user}: --top 4 gives four commands: {cmds}")
            check(len(m) <= series_bound(4, len(groups)),
                  f"{user}: {len(m)} series > bound for {len(groups)} groups")
            check(any(k[0] == "taskview_group_processes" for k in m), "group gauges present")
            if user == NOBODY:
                # no taskstats, no exit listener: those values are unknown, not 0
                # (the CPU wait comes from schedstat, readable by anyone)
                bad = [k for k in m if "delay" in k[0] and dict(k[1])["class"] != "cpu"]
                check(not bad, f"nobody: delays written: {bad[:3]}")
                check(value(m, "taskview_exits_watched") == 0, "nobody: exits not watched")
                check(value(m, "taskview_exit_records_total") is None, "nobody: no exit record count")


def test_hostile_names_in_labels():
    """A name with a terminal escape, quotes, a backslash, a newline and an
    invalid byte still gives a valid exposition; its label keeps the text."""
    name = 'q"\\\x1b[2J\n\xe9'
    p = subprocess.Popen(["python3", "-c", "import ctypes,sys,time\n"
                          "ctypes.CDLL(None).prctl(15, sys.argv[1].encode('latin-1'), 0,0,0)\n"
                          "x=0\nt=time.time()\n"
                          "while time.time()-t<0.3: x+=1\n"
                          "print('ok', flush=True); time.sleep(30)", name],
                         stdout=subprocess.PIPE, text=True)
    try:
        p.stdout.readline()
        r = run("-b", "--format", "openmetrics", "-p", str(p.pid), "-d", "0.2", "--top", "1")
        check(r.returncode == 0, r.stderr)
        check("\x1b" not in r.stdout, "no raw ESC in the exposition")
        m = parse_om(r.stdout)
        comms = {dict(k[1]).get("comm") for k in m if k[0] == "taskview_command_threads"}
        # what a label cannot show as text is written as %XX bytes (docs/metrics.md)
        check(comms == {'q"\\%1B[2J%0A%E9'}, f"comm label: {comms}")
    finally:
        p.kill()
        p.wait()


# ------------------------------------------------------------------ values


def read_samples(cmd, n, textfile, user=None):
    """Runs taskview with JSON on stdout and a text file; returns
    [(json document, text file content)] of the same samples. taskview
    writes the file before the JSON line; it is stopped while the file is
    read, so the next sample cannot replace it. After the last there is no
    next, and it is left to end: stopped as it ends, a sanitizer build's
    leak check, which stops its threads itself, can wait forever."""
    import json
    proc = subprocess.Popen(as_user(cmd, user), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="surrogateescape")
    out = []
    try:
        for i in range(n):
            line = proc.stdout.readline()
            if not line:
                proc.wait(timeout=180)
                raise AssertionError(f"taskview ended early (exit {proc.returncode}): {proc.stderr.read()}")
            last = i == n - 1
            if not last:
                os.kill(proc.pid, signal.SIGSTOP)
            try:
                with open(textfile, encoding="utf-8") as f:
                    content = f.read()
            finally:
                if not last:
                    os.kill(proc.pid, signal.SIGCONT)
            out.append((json.loads(line), content))
        if proc.wait(timeout=180) != 0:
            raise AssertionError(f"taskview exit {proc.returncode}: {proc.stderr.read()}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return out


def close(a, b, tol, what):
    check(a is not None and b is not None and abs(a - b) <= tol, f"{what}: {a} != {b} (±{tol})")


def check_sample_against_json(doc, m, prev, user):
    """One sample: every metric against the JSON of the same sample."""
    close(value(m, "taskview_sample_timestamp_seconds"), doc["timestamp"], 0.0011, "timestamp")
    procs = [t for t in doc["tasks"] if t["kind"] == "process"]
    groups = {}
    for t in procs:
        groups.setdefault(t["unit"] or "", []).append(t)
    # a process of no known group counts in the unattributed CPU, not in a group=""
    unknown = groups.pop("", [])
    if unknown:
        close(value(m, "taskview_unattributed_cpu_seconds_total"), sum(t["time"] for t in unknown),
              0.005 * len(unknown) + 1e-9, "unattributed cpu seconds")
    check(set(groups) == {dict(k[1])["group"] for k in m if k[0] == "taskview_group_processes"},
          f"groups: {set(groups)}")
    for g, ts in groups.items():
        n = len(ts)
        check(value(m, "taskview_group_processes", group=g) == n, f"{g}: processes")
        check(value(m, "taskview_group_threads", group=g) == sum(t["threads"] for t in ts), f"{g}: threads")
        # JSON rounds seconds to 2 decimals, the exposition is exact
        close(value(m, "taskview_group_cpu_seconds_total", group=g), sum(t["time"] for t in ts),
              0.005 * n + 1e-9, f"{g}: cpu seconds")
        for col, name in (("ctxt_vol", "voluntary"), ("ctxt_invol", "involuntary")):
            check(value(m, f"taskview_group_{name}_context_switches_total", group=g) == sum(t[col] for t in ts),
                  f"{g}: {name} switches")
        for col, name in (("vm_rss", "resident_memory"), ("vm_size", "virtual_memory"),
                          ("vm_pte", "page_table"), ("vm_swap", "swap")):
            check(value(m, f"taskview_group_{name}_bytes", group=g) == 1024 * sum(t[col] for t in ts),
                  f"{g}: {name} bytes")
    # the commands picked: the sums of their processes' own counters
    cmds = {}
    for t in procs:
        if t["unit"]:
            cmds.setdefault((t["unit"], t["comm"]), []).append(t)
    top = commands(m)
    check(len(top) == min(3, len(cmds)) and set(top) <= set(cmds), f"--top 3: {sorted(top)} of {sorted(cmds)}")
    for key, labels in top.items():
        ts = cmds[key]
        n = len(ts)
        check(value(m, "taskview_command_processes", **labels) == n, f"{key}: processes")
        close(value(m, "taskview_command_cpu_seconds_total", **labels), sum(t["time"] for t in ts),
              0.005 * n + 1e-9, f"{key}: cpu")
        for col, name in (("ctxt_vol", "voluntary"), ("ctxt_invol", "involuntary")):
            check(value(m, f"taskview_command_{name}_context_switches_total", **labels) == sum(t[col] for t in ts),
                  f"{key}: {name} switches")
        check(value(m, "taskview_command_threads", **labels) == sum(t["threads"] for t in ts), f"{key}: threads")
        for col, name in (("vm_rss", "resident_memory"), ("vm_pte", "page_table")):
            check(value(m, f"taskview_command_{name}_bytes", **labels) == 1024 * sum(t[col] for t in ts),
                  f"{key}: {name} bytes")
        for cls in ("cpu", "io"):
            secs = value(m, "taskview_command_delay_seconds_total", **labels, **{"class": cls})
            events = value(m, "taskview_command_delay_events_total", **labels, **{"class": cls})
            if secs is None or events is None:
                # unknown (no taskstats for nobody; a class the kernel does not count): left out
                check(secs is None and events is None and all(t[f"{cls}_delay"] is None for t in ts),
                      f"{key}: {cls} delay unknown, yet written ({secs}, {events}) or known in JSON")
                check(cls != "cpu", f"{key}: the cpu delay counters (taskstats or schedstat)")
                continue
            check(user is None or cls == "cpu", f"{key}: nobody has no {cls} delay counters")
            if n != 1 or not prev or key not in prev[1]:
                continue
            # the interval's average wait from the counters is the JSON's
            psecs, pevents = prev[1][key][cls]
            avg = ts[0][f"{cls}_delay_avg"]
            if events > pevents:
                want = (secs - psecs) * 1000 / (events - pevents)
                # JSON rounds to 3 decimals; the model keeps averages as float
                close(avg, want, 0.0006 + 2e-7 * abs(want), f"{key}: {cls} average wait ms")
            else:
                check(avg is None, f"{key}: no {cls} wait, no average: {avg}")
    # the system's pressure, and the exit listener
    for res in ("cpu", "io", "memory"):
        for half in ("some", "full"):
            p = (doc["pressure"][res] or {}).get(half)
            v = value(m, f"taskview_pressure_{half}_seconds_total", resource=res)
            if p is None:
                check(v is None, f"pressure {res} {half}: unknown, yet written")
            else:
                check(v is not None and abs(v - p["total_us"] / 1e6) < 1e-9, f"pressure {res} {half}: {v} {p}")
    check(value(m, "taskview_exits_watched") == (1 if doc["exits"]["watched"] else 0), "exits watched")


def test_values_equal_json():
    """The same samples as JSON and as a text file: equal values, in base units."""
    for user in users():
        with Workload("--ping", "--sleepers", "2", "--map-mib", "64", "--touch-mib", "8",
                      user=user) as a, \
                Workload("--burn", "1", "--name", "tvm-burn", user=user) as b:
            with tempfile.TemporaryDirectory() as tmp:
                if user is not None:
                    os.chown(tmp, user, user)
                path = os.path.join(tmp, "taskview.prom")
                cmd = [TASKVIEW, "--format", "json", "--textfile", path, "-n", "5", "-d", "1", "--top", "3",
                       "-p", f"{a.pid},{b.pid}", "-o", "all"]
                pairs = read_samples(cmd, 5, path, user)
                records = lost = 0
                prev = None
                matched = 0
                for i, (doc, content) in enumerate(pairs):
                    m = parse_text(content)
                    records += doc["exits"]["records"]
                    lost += doc["exits"]["lost"]
                    ts = value(m, "taskview_sample_timestamp_seconds")
                    check(ts is not None and ts >= doc["timestamp"] - 0.0011, f"sample {i}: the file is older")
                    if ts > doc["timestamp"] + 0.0011:
                        # the test was held up for a whole interval: the next
                        # sample had replaced the file already
                        prev = None
                        continue
                    matched += 1
                    check_sample_against_json(doc, m, prev, user)
                    if doc["exits"]["watched"]:
                        check(value(m, "taskview_exit_records_total") == records, f"sample {i}: exit records")
                        check(value(m, "taskview_exit_records_lost_total") == lost, f"sample {i}: lost records")
                    delays = {}
                    for k, v in m.items():
                        if k[0] == "taskview_command_delay_seconds_total":
                            d = dict(k[1])
                            ev = value(m, "taskview_command_delay_events_total", **d)
                            delays.setdefault((d["group"], d["comm"]), {})[d["class"]] = (v, ev)
                    prev = (doc, delays)
                check(matched >= 2, f"only {matched} of {len(pairs)} samples read in time")


def burner_cpu(m, comm):
    """The CPU seconds a sample shows for the processes named comm, 0 if none."""
    vals = [v for labels, v in where(m, "taskview_command_cpu_seconds_total").items()
            if dict(labels).get("comm") == comm]
    return vals[0] if vals and vals[0] is not None else 0


def test_group_counters_survive_exits():
    """A process of the group ends: the group's counters keep what it
    counted (its exit record as root, its last values as nobody)."""
    for user in users():
        with Workload("--ping", user=user) as keep:
            burner = Workload("--burn", "1", "--name", "tvm-ends", user=user)
            cmd = [TASKVIEW, "-b", "--format", "openmetrics", "-n", "60", "-d", "0.5", "--top", "2",
                   "-p", f"{keep.pid},{burner.pid}"]
            proc = subprocess.Popen(as_user(cmd, user), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            history, buf = [], []
            killed = kill_sent = None
            try:
                # taskview may run ahead of this reader on a busy machine: the
                # samples' own timestamps tell which were taken after the end
                for line in proc.stdout:
                    buf.append(line)
                    if line != "# EOF\n":
                        continue
                    m = parse_om("".join(buf))
                    buf = []
                    history.append(m)
                    # ended once a sample shows it counted some CPU time (a busy machine gives it little)
                    if killed is None and len(history) >= 3 and burner_cpu(m, "tvm-ends") >= 0.05:
                        kill_sent = time.time()
                        burner.stop()
                        killed = time.time()
                    if killed and sum(value(h, "taskview_sample_timestamp_seconds") > killed + 0.1
                                      for h in history) >= 3:
                        break
            finally:
                burner.stop()
                proc.kill()
                proc.wait()
            after = [h for h in history if killed and value(h, "taskview_sample_timestamp_seconds") > killed + 0.1]
            before = [h for h in history if killed and value(h, "taskview_sample_timestamp_seconds") < kill_sent]
            check(len(after) >= 3 and before, f"{len(before)} samples before the end, {len(after)} after")
            group = dict(next(k for k in history[0] if k[0] == "taskview_group_cpu_seconds_total")[1])["group"]
            names = sorted({k[0] for m in history for k in m if k[0].startswith("taskview_group_") and
                            k[0].endswith("_total")})
            check("taskview_group_cpu_seconds_total" in names, f"counters: {names}")
            for name in names:
                keys = {k for m in history for k in m if k[0] == name}
                for k in keys:
                    vals = [m[k] for m in history if k in m]
                    check(all(b >= a for a, b in zip(vals, vals[1:])), f"{user}: {k} fell: {vals}")
            # the last values seen of the ended process stay in its group
            # (a sample taken while the kill landed may miss it already: the last one that has it)
            seen = [value(h, "taskview_command_cpu_seconds_total", group=group, comm="tvm-ends") for h in before]
            seen = [v for v in seen if v is not None]
            ended_cpu = seen[-1] if seen else None
            # enough that losing it would show (the machine may be busy: not much more)
            check(ended_cpu is not None and ended_cpu >= 0.05, f"the burner's CPU before it ended: {ended_cpu}")
            end = after[-1]
            check(value(end, "taskview_group_processes", group=group) == 1, "one process left")
            keep_cpu = value(end, "taskview_command_cpu_seconds_total", group=group,
                             comm=os.path.basename(os.environ.get("WORKLOAD", "tv-workload"))[:15])
            check(keep_cpu is not None, f"the remaining process in --top: {sorted(commands(end))}")
            total = value(end, "taskview_group_cpu_seconds_total", group=group)
            check(total >= ended_cpu + keep_cpu - 1e-9,
                  f"{user}: group {total} < ended {ended_cpu} + live {keep_cpu}")


# ------------------------------------------------------------------ consumers


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(pred, timeout, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r = pred()
        if r:
            return r
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def start_taskview_textfile(path, *extra):
    proc = subprocess.Popen([TASKVIEW, "--textfile", path, "-d", "0.3", *extra], stderr=subprocess.PIPE, text=True)
    wait_for(lambda: os.path.exists(path) or proc.poll() is not None, 20, "the text file")
    if proc.poll() is not None:
        raise AssertionError(f"taskview --textfile ended: {proc.stderr.read()}")
    return proc


def test_textfile_replaced_whole():
    """The file is replaced by a rename (a new inode each sample), never
    rewritten in place: a reader always finds a whole sample. A stale
    PATH.tmp from an earlier run is replaced, not followed."""
    parsers()
    with tempfile.TemporaryDirectory() as tmp, Workload("--name", "tvm-file") as w:
        path = os.path.join(tmp, "taskview.prom")
        decoy = os.path.join(tmp, "decoy")
        with open(decoy, "w") as f:
            f.write("keep\n")
        os.symlink(decoy, path + ".tmp")
        # until 21 reads and 6 changes are seen (a busy machine holds the reader back), 1000 samples at most
        tv = subprocess.Popen([TASKVIEW, "--textfile", path, "-d", "0.1", "-n", "1000", "-p", str(w.pid)],
                              stderr=subprocess.PIPE, text=True)
        reads = changes = 0
        held = None  # the file read last, kept open: its inode cannot be reused meanwhile
        try:
            while tv.poll() is None and not (reads > 20 and changes > 5):
                try:
                    f = open(path, encoding="utf-8")
                except FileNotFoundError:
                    continue
                text = f.read()
                m = parse_text(text)
                group = dict(next(k for k in m if k[0] == "taskview_group_processes")[1])["group"]
                ts = value(m, "taskview_sample_timestamp_seconds")
                check(ts is not None and value(m, "taskview_group_processes", group=group) == 1,
                      f"a whole sample: {text[-300:]!r}")
                reads += 1
                ino = os.fstat(f.fileno()).st_ino
                if held and held[2] != ts:
                    changes += 1
                    check(ino != held[1], "the file was rewritten in place, not replaced")
                if held:
                    held[0].close()
                held = (f, ino, ts)
        finally:
            if held:
                held[0].close()
            if tv.poll() is None:
                tv.terminate()
            tv.wait(timeout=60)
        check(tv.returncode in (0, -signal.SIGTERM), f"taskview exit {tv.returncode}: {tv.stderr.read()}")
        check(reads > 20 and changes > 5, f"only {reads} reads, {changes} changes seen")
        with open(decoy) as f:
            check(f.read() == "keep\n", "the symbolic link PATH.tmp was followed")
        check(not os.path.exists(path + ".tmp"), "PATH.tmp left behind")


def test_node_exporter_serves_textfile():
    """Debian's node_exporter reads the file while taskview replaces it:
    no scrape error, counters typed as counters, values as in the file."""
    exe = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
    if not exe:
        raise Skip("prometheus-node-exporter is not installed")
    parsers()
    with tempfile.TemporaryDirectory() as tmp, Workload("--ping") as w, Workload("--name", "tvm-second") as w2:
        path = os.path.join(tmp, "taskview.prom")
        tv = start_taskview_textfile(path, "--top", "2", "-p", f"{w.pid},{w2.pid}")
        ne = None
        try:
            for attempt in range(3):
                port = free_port()
                ne = subprocess.Popen([exe, f"--web.listen-address=127.0.0.1:{port}", "--collector.disable-defaults",
                                       "--collector.textfile", f"--collector.textfile.directory={tmp}"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                url = f"http://127.0.0.1:{port}/metrics"

                def scrape():
                    try:
                        with urllib.request.urlopen(url, timeout=5) as r:
                            return r.read().decode()
                    except OSError:
                        return None if ne.poll() is None else "exited"
                first = wait_for(scrape, 20, "node_exporter")
                if first != "exited":
                    break
                ne = None
            check(ne is not None, "node_exporter did not start")
            # while taskview rewrites the file every 0.3 s: never a torn read
            for _ in range(8):
                body = scrape()
                check("node_textfile_scrape_error 0\n" in body, f"scrape error:\n{body[-2000:]}")
                check("# TYPE taskview_group_cpu_seconds_total counter\n" in body, "counter type kept")
                check("# HELP taskview_group_cpu_seconds_total CPU time" in body, "help text kept")
                time.sleep(0.2)
            tv.send_signal(signal.SIGTERM)
            tv.wait(timeout=60)
            with open(path, encoding="utf-8") as f:
                want = parse_text(f.read())
            _, tp = parsers()
            got = {k: v for k, v in series(list(tp(scrape()))).items() if k[0].startswith("taskview_")}
            check(set(got) == set(want), f"series differ: {sorted(set(got) ^ set(want))[:5]}")
            for k, v in want.items():
                check(got[k] == v or (math.isnan(got[k]) and math.isnan(v)), f"{k}: served {got[k]}, file {v}")
            comm = os.path.basename(os.environ.get("WORKLOAD", "tv-workload"))[:15]
            check(any(k[0] == "taskview_command_cpu_seconds_total" and ("comm", comm) in k[1] for k in got),
                  "the workload's own series arrived")
        finally:
            if tv.poll() is None:
                tv.kill()
                tv.wait()
            if ne is not None:
                ne.terminate()
                ne.wait(timeout=10)


def pcp_conf():
    conf = {}
    try:
        with open(os.environ.get("PCP_CONF", "/etc/pcp.conf"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^(PCP_[A-Z_]+)=(.*)$", line.strip())
                if m:
                    conf[m.group(1)] = m.group(2)
    except OSError:
        pass
    return conf


def test_pcp_reads_textfile():
    """PCP's pmdaopenmetrics, under a pmcd of the test's own (loopback port,
    its own configuration and namespace), reads the text file: every series
    with its value, counters with counter semantics."""
    conf = pcp_conf()
    pmcd = os.path.join(conf.get("PCP_BINADM_DIR", "/usr/lib/pcp/bin"), "pmcd")
    pmda = os.path.join(conf.get("PCP_PMDAS_DIR", "/var/lib/pcp/pmdas"), "openmetrics", "pmdaopenmetrics.python")
    pminfo = shutil.which("pminfo")
    if not (os.access(pmcd, os.X_OK) and os.path.exists(pmda) and pminfo):
        raise Skip("PCP (Debian package pcp) is not installed")
    # the agent is Python: the system's python3, which has PCP's module
    python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else shutil.which("python3")
    r = subprocess.run([python, "-c", "import pcp.pmda, requests"], capture_output=True, text=True)
    if r.returncode != 0:
        raise Skip(f"pmdaopenmetrics cannot run: {r.stderr.strip().splitlines()[-1]}")
    parsers()
    with tempfile.TemporaryDirectory() as tmp, Workload("--ping", "--name", "tvm-pcp") as w:
        os.chmod(tmp, 0o755)
        path = os.path.join(tmp, "taskview.prom")
        r = run("--textfile", path, "-n", "2", "-d", "0.3", "--top", "1", "-p", str(w.pid))
        check(r.returncode == 0, r.stderr)
        with open(path, encoding="utf-8") as f:
            want = parse_text(f.read())
        check(len(want) > 20 and any(k[0] == "taskview_group_cpu_seconds_total" for k in want),
              f"a whole sample: {len(want)} series")
        confd = os.path.join(tmp, "config.d")
        os.mkdir(confd)
        with open(os.path.join(confd, "taskview.url"), "w") as f:
            f.write(f"file://{path}\n")
        with open(os.path.join(tmp, "pmcd.conf"), "w") as f:
            f.write(f"openmetrics\t144\tpipe\tbinary notready\t{python} {pmda} -c {confd} "
                    f"-l {tmp}/openmetrics.log\n")
        with open(os.path.join(tmp, "pmns"), "w") as f:
            f.write("root {\n\topenmetrics\t144:*:*\n}\n")
        import pwd
        me = pwd.getpwuid(os.geteuid()).pw_name
        # a loaded machine can hold the agent (Python) past pmcd's 5 s for its
        # start (-q) or an answer (-t), and pmcd then drops it for good: allow
        # a minute, as for pminfo
        env = dict(os.environ, PCP_RUN_DIR=tmp, PMCD_REQUEST_TIMEOUT="60")
        port = free_port()
        pm = subprocess.Popen([pmcd, "-f", "-A", "-i", "127.0.0.1", "-p", str(port), "-c", f"{tmp}/pmcd.conf",
                               "-n", f"{tmp}/pmns", "-l", f"{tmp}/pmcd.log", "-s", f"{tmp}/pmcd.socket",
                               "-x", f"{tmp}/pmcd.err", "-U", me, "-q", "60", "-t", "60"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=env)
        host = f"127.0.0.1:{port}"
        try:
            def ready():
                if pm.poll() is not None:
                    return "exited"
                q = subprocess.run([pminfo, "-h", host, "openmetrics.taskview"], capture_output=True, text=True,
                                   env=env, timeout=30)
                return q.returncode == 0 and "taskview_group_cpu_seconds_total" in q.stdout
            def logs():
                log = ""
                for name in ("pmcd.log", "pmcd.err", "openmetrics.log"):
                    p = os.path.join(tmp, name)
                    if os.path.exists(p):
                        with open(p, errors="replace") as f:
                            log += f.read()
                return log.strip()[-2000:]
            try:
                state = wait_for(ready, 90, "pmcd with the openmetrics agent")
            except AssertionError as e:
                raise AssertionError(f"{e}: {logs()}") from None
            if state == "exited":
                raise Skip(f"pmcd cannot run here (exit {pm.returncode}): {logs()}")
            q = subprocess.run([pminfo, "-h", host, "-f", "-d", "openmetrics.taskview"], capture_output=True,
                               text=True, env=env, timeout=60)
            check(q.returncode == 0, q.stderr)
            got = parse_pminfo(q.stdout)
            for (name, labels), v in want.items():
                metric = f"openmetrics.taskview.{name}"
                check(metric in got, f"{metric} missing in PCP")
                inst = got[metric]["values"]
                key = " ".join(sorted(f"{k}:{val}" for k, val in labels)) if labels else ""
                check(key in inst, f"{metric} {key!r}: instances {sorted(inst)[:4]}")
                check(abs(inst[key] - v) <= 1e-9 * max(1.0, abs(v)), f"{metric} {key}: PCP {inst[key]}, file {v}")
                sem = got[metric]["semantics"]
                check(sem == ("counter" if name.endswith("_total") else "instant"), f"{metric}: semantics {sem}")
            check(any("comm:tvm-pcp" in k for k in got["openmetrics.taskview.taskview_command_threads"]["values"]),
                  "the workload's series arrived")
        finally:
            pm.terminate()
            try:
                pm.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pm.kill()
                pm.wait()


def parse_pminfo(text):
    """pminfo -f -d: {metric: {"semantics": ..., "values": {"k:v k:v": value}}}."""
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith("openmetrics."):
            cur = out.setdefault(line.strip(), {"semantics": None, "values": {}})
            continue
        if cur is None:
            continue
        m = re.search(r"Semantics: (\w+)", line)
        if m:
            cur["semantics"] = m.group(1)
        m = re.match(r'\s+inst \[\d+ or "\d+ ?(.*)"\] value (\S+)', line)
        if m:
            cur["values"][m.group(1)] = float(m.group(2))
        m = re.match(r"\s+value (\S+)$", line)
        if m:
            cur["values"][""] = float(m.group(1))
    return out


# ------------------------------------------------------------------ own groups


def own_groups():
    """The test's own control groups (tests/integration/test_groups.py): root and a cgroup2 mount."""
    from test_groups import Groups, need_root_mount
    return Groups(need_root_mount())


def start_in(group_dir, cmd):
    """A process started inside a control group, in a session of its own (killed with its children)."""
    procs_file = os.path.join(group_dir, "cgroup.procs")

    def enter():
        with open(procs_file, "w") as f:
            f.write(str(os.getpid()))
    return subprocess.Popen(cmd, preexec_fn=enter, start_new_session=True, stdout=subprocess.DEVNULL)


def stop_session(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    p.wait()


def promtool_clean(text, what):
    """promtool check metrics (the text format's linter) finds nothing."""
    exe = shutil.which("promtool")
    if not exe:
        return False
    r = subprocess.run([exe, "check", "metrics"], input=text, capture_output=True, text=True, timeout=60)
    check(r.returncode == 0 and not (r.stdout + r.stderr).strip(),
          f"{what}: promtool check metrics: exit {r.returncode}: {r.stdout}{r.stderr}")
    return True


def test_groups_differing_in_unshowable_bytes():
    """Control groups whose names differ only in bytes a label cannot hold
    (a control character, an invalid byte) get distinct, valid label values:
    the strict parsers find no series twice, promtool no fault."""
    with own_groups() as g:
        names = {"dup\x01": "dup%01", "dup\x02": "dup%02", os.fsdecode(b"dup\xff"): "dup%FF", "dup%": "dup%25"}
        for n in names:
            g.start(g.make(n), "--ping")
        base = os.path.basename(g.base)
        r = run("-b", "--format", "openmetrics", "-c", base, "-n", "2", "-d", "0.3", "--top", "5")
        check(r.returncode == 0, r.stderr)
        for e in expositions(r.stdout):
            m = parse_om(e)
            got = {dict(k[1])["group"] for k in m if k[0] == "taskview_group_processes"}
            check(got == set(names.values()), f"groups: {got}")
            check(len({dict(k[1])["group"] for k in m if k[0] == "taskview_command_processes"}) == 4,
                  f"commands: {sorted(commands(m))}")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "taskview.prom")
            r = run("--textfile", path, "-c", base, "-n", "2", "-d", "0.3", "--top", "5")
            check(r.returncode == 0, r.stderr)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            m = parse_text(text)
            got = {dict(k[1])["group"] for k in m if k[0] == "taskview_group_processes"}
            check(got == set(names.values()), f"text file groups: {got}")
            promtool_clean(text, "text file")


# A churning host: long-lived processes of about the same CPU, whose order
# changes all the time, and short-lived ones using CPU, each with a PID of
# its own.
CHURN = "while :; do sh -c 'i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done' & sleep 0.1; wait; done"


def test_series_stable_under_churn():
    """Over 30 expositions of a group with process churn, the distinct
    series are at most 1.5 times the largest exposition (docs/metrics.md,
    How many series): no series per PID, the commands picked stay."""
    with own_groups() as g:
        d = g.make("churn")
        for i in range(8):
            g.start(d, "--ticker", "300", "--name", f"tvm-steady{i}")
        churners = [start_in(d, ["sh", "-c", CHURN]) for _ in range(2)]
        try:
            r = run("-b", "--format", "openmetrics", "-c", os.path.basename(g.base), "-n", "30", "-d", "0.3",
                    "--top", "5", timeout=180)
        finally:
            for c in churners:
                stop_session(c)
        check(r.returncode == 0, r.stderr)
        exps = expositions(r.stdout)
        check(len(exps) == 30, f"{len(exps)} expositions")
        seen, largest, pids = set(), 0, set()
        for e in exps:
            m = parse_om(e)
            check_groups_named(m, "churn")
            largest = max(largest, len(m))
            seen |= set(m)
            check(len(commands(m)) == 5, f"--top 5: {sorted(commands(m))}")
        print(f"note: series per exposition at most {largest}, distinct over 30: {len(seen)}")
        check(len(seen) <= 1.5 * largest, f"{len(seen)} distinct series over 30 expositions, the largest {largest}")


def http_json(url, timeout=10):
    import json
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read().decode())


def cpu_usage(group_dir):
    """The group's cpu.stat usage_usec, in seconds."""
    with open(os.path.join(group_dir, "cpu.stat")) as f:
        for line in f:
            k, v = line.split()
            if k == "usage_usec":
                return int(v) / 1e6
    raise AssertionError(f"no usage_usec in {group_dir}/cpu.stat")


def start_server(cmd, url, what):
    """A server on a free loopback port: retried on another port when it cannot listen."""
    for _ in range(3):
        port = free_port()
        p = subprocess.Popen([a.format(port=port) for a in cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)

        def up():
            try:
                with urllib.request.urlopen(url.format(port=port), timeout=5):
                    return True
            except OSError:
                return "exited" if p.poll() is not None else None
        if wait_for(up, 60, what) is True:
            return p, port
        p.wait()
    raise AssertionError(f"{what} did not start: {p.stderr.read()[-2000:]}")


def test_prometheus_rate_matches_cpu_stat():
    """A real Prometheus server on 127.0.0.1 scrapes node_exporter, which
    serves taskview's text file: the CPU rate of the test's own group, asked
    through Prometheus' HTTP API, is within 10 % of the rate its cpu.stat
    shows over the same window. Laid out as taskview-metrics.service does:
    taskview writes under a strict umask into a directory of its own, the
    collector's directory links to the file, node_exporter runs as another
    user (nobody) and reads it."""
    prom = shutil.which("prometheus")
    ne_exe = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
    if not prom:
        raise Skip("prometheus (Debian package prometheus) is not installed")
    if not ne_exe:
        raise Skip("prometheus-node-exporter is not installed")
    import urllib.parse
    window = 40
    with own_groups() as g, tempfile.TemporaryDirectory() as tmp:
        # a name of its own: same-named groups share one label (docs/metrics.md), and another
        # run of this suite on the host has a "steady" too
        d = g.make(f"steady-{os.getpid()}")
        # long-lived processes: the group's CPU is theirs, whatever the source
        g.start(d, "--burn", "1", "--name", "tvm-burn")
        g.start(d, "--ticker", "500", "--name", "tvm-tick")
        group = os.path.basename(d)
        os.chmod(tmp, 0o755)
        textdir, rundir = os.path.join(tmp, "textfile"), os.path.join(tmp, "run")
        os.mkdir(textdir, 0o755)
        os.mkdir(rundir, 0o755)
        path = os.path.join(rundir, "taskview.prom")
        os.symlink(path, os.path.join(textdir, "taskview.prom"))
        tv = subprocess.Popen([TASKVIEW, "--textfile", path, "-d", "0.5", "-c", os.path.basename(g.base),
                               "--top", "2"],
                              stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.umask(0o077))
        servers = []
        try:
            wait_for(lambda: os.path.exists(path) or tv.poll() is not None, 20, "the text file")
            if tv.poll() is not None:
                raise AssertionError(f"taskview --textfile ended: {tv.stderr.read()}")
            check(os.stat(path).st_mode & 0o777 == 0o644, f"mode {os.stat(path).st_mode:o} under umask 077")
            ne, ne_port = start_server(as_user([ne_exe, "--web.listen-address=127.0.0.1:{port}",
                                                "--collector.disable-defaults", "--collector.textfile",
                                                f"--collector.textfile.directory={textdir}"], NOBODY),
                                       "http://127.0.0.1:{port}/metrics", "node_exporter")
            servers.append(ne)
            conf = os.path.join(tmp, "prometheus.yml")
            with open(conf, "w") as f:
                f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                        "scrape_configs:\n  - job_name: node\n    static_configs:\n"
                        f"      - targets: ['127.0.0.1:{ne_port}']\n")
            pr, pr_port = start_server([prom, f"--config.file={conf}", f"--storage.tsdb.path={tmp}/data",
                                        "--web.listen-address=127.0.0.1:{port}"],
                                       "http://127.0.0.1:{port}/-/ready", "prometheus")
            servers.append(pr)
            api = f"http://127.0.0.1:{pr_port}/api/v1/query?"

            def query(q, at):
                body = http_json(api + urllib.parse.urlencode({"query": q, "time": f"{at:.3f}"}))
                check(body.get("status") == "success", f"{q}: {body}")
                return body["data"]["result"]
            counter = f'taskview_group_cpu_seconds_total{{group="{group}"}}'
            wait_for(lambda: query(counter, time.time()), 60, "the group's counter in Prometheus")
            # a whole window of samples after the first one
            time.sleep(window / 2)
            t0, c0 = time.time(), cpu_usage(d)
            time.sleep(window)
            t1, c1 = time.time(), cpu_usage(d)
            want = (c1 - c0) / (t1 - t0)
            # what Prometheus holds at a moment is taskview's sample of up to
            # one interval before, read at the scrape: asked a moment later
            lag = 0.5
            time.sleep(lag + 1)
            res = query(f"rate({counter}[{window}s])", t1 + lag)
            check(len(res) == 1, f"rate: {res}")
            got = float(res[0]["value"][1])
            print(f"note: Prometheus rate {got:.4f} CPUs, cpu.stat {want:.4f} CPUs over {t1 - t0:.1f} s")
            check(want > 0.05, f"the workload hardly ran: {want}")
            check(abs(got - want) <= 0.10 * want, f"Prometheus rate {got:.4f}, cpu.stat {want:.4f}")
            up = query('up{job="node"}', time.time())
            check(up and up[0]["value"][1] == "1", f"node_exporter scraped: {up}")
            err = query("node_textfile_scrape_error", time.time())
            check(err and err[0]["value"][1] == "0", f"node_exporter (nobody) read the file: {err}")
        finally:
            tv.terminate()
            tv.wait(timeout=60)
            for p in servers:
                p.terminate()
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


# ------------------------------------------------------------------ replay


def test_replay_exports_openmetrics():
    """A recording exported after the fact (-r FILE -b --format openmetrics):
    one exposition per sample, group counters that never fall and equal the
    recorded processes' CPU time (the replay's own JSON of the same samples),
    the picked command present; its text file is clean for promtool."""
    with tempfile.TemporaryDirectory() as tmp, Workload("--burn", "1", "--name", "tvm-rec") as w:
        rec = os.path.join(tmp, "rec.tvr")
        r = run("-w", rec, "-b", "-n", "6", "-d", "0.3", "-p", str(w.pid), "-o", "pid,comm")
        if r.returncode != 0 and "zstd" in r.stderr:
            raise Skip(f"no recorder in this build: {r.stderr.strip()}")
        check(r.returncode == 0, r.stderr)
        r = run("-r", rec, "-b", "--format", "openmetrics", "--top", "1")
        check(r.returncode == 0, r.stderr)
        exps = [parse_om(e) for e in expositions(r.stdout)]
        docs = run_json_replay(rec)
        check(len(exps) == len(docs) and len(exps) >= 4, f"{len(exps)} expositions, {len(docs)} JSON samples")
        prev = None
        for m, doc in zip(exps, docs):
            close(value(m, "taskview_sample_timestamp_seconds"), doc["timestamp"], 0.0011, "timestamp")
            live = [t for t in doc["tasks"] if t["kind"] == "process" and t["pid"] == w.pid]
            check(len(live) == 1, f"the workload in the sample: {live}")
            group = live[0]["unit"]
            cpu = value(m, "taskview_group_cpu_seconds_total", group=group)
            close(cpu, live[0]["time"], 0.005 + 1e-9, "the group's CPU")
            check(value(m, "taskview_command_cpu_seconds_total", group=group, comm="tvm-rec") == cpu,
                  f"the command: {sorted(commands(m))}")
            check(prev is None or cpu >= prev, f"the counter fell: {prev} -> {cpu}")
            prev = cpu
        path = os.path.join(tmp, "taskview.prom")
        r = run("-r", rec, "--textfile", path, "--top", "1")
        check(r.returncode == 0, r.stderr)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        check(value(parse_text(text), "taskview_sample_timestamp_seconds") == value(exps[-1],
              "taskview_sample_timestamp_seconds"), "the text file holds the last sample")
        promtool_clean(text, "replay's text file")


def run_json_replay(rec):
    from tvtest import json_lines
    r = run("-r", rec, "-b", "--format", "json", "-o", "pid,time,comm,unit")
    check(r.returncode == 0, r.stderr)
    return json_lines(r.stdout)


def test_promtool_clean():
    """promtool check metrics finds nothing in the text file of a whole host
    with --top (live). The OpenMetrics form is checked by the strict
    OpenMetrics parser in the tests above: promtool lints the text format
    only, where a counter's HELP names its samples (x_total), not its
    family (x) as OpenMetrics wants."""
    if not shutil.which("promtool"):
        raise Skip("promtool (Debian package prometheus) is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "taskview.prom")
        r = run("--textfile", path, "-n", "2", "-d", "0.3", "--top", "10")
        check(r.returncode == 0, r.stderr)
        with open(path, encoding="utf-8") as f:
            promtool_clean(f.read(), "text file")


# ------------------------------------------------------------------ docs


def test_docs_list_every_metric():
    """docs/metrics.md names every metric the exporter can write, and no other."""
    with open(os.path.join(SOURCE_DIR, "src", "export", "openmetrics.c"), encoding="utf-8") as f:
        families = re.findall(r'"(taskview_[a-z_]+)", (OM_COUNTER|OM_GAUGE)', f.read())
    with open(os.path.join(SOURCE_DIR, "docs", "metrics.md"), encoding="utf-8") as f:
        doc = f.read()
    check(len(families) > 20, f"families found in the source: {families}")
    want = {n + "_total" if t == "OM_COUNTER" else n for n, t in families}
    named = set(re.findall(r"`(taskview_[a-z_]+)`", doc))
    check(want - named == set(), f"not in docs/metrics.md: {sorted(want - named)}")
    check(named - want == set(), f"docs/metrics.md names what does not exist: {sorted(named - want)}")
    check("11 + 33 × G + 25 × N" in doc, "the series bound is stated")
    # the OpenTelemetry recipe drops node_exporter's mtime: its keep rule must pass the staleness signal
    keep = re.search(r'regex: "([^"]+)"\n\s+action: keep', doc)
    check(keep and re.fullmatch(keep.group(1), "taskview_sample_timestamp_seconds"),
          f"the OpenTelemetry keep rule drops taskview_sample_timestamp_seconds: {keep and keep.group(1)}")


if __name__ == "__main__":
    sys.exit(main([
        test_expositions_parse_strictly,
        test_hostile_names_in_labels,
        test_textfile_replaced_whole,
        test_values_equal_json,
        test_group_counters_survive_exits,
        test_node_exporter_serves_textfile,
        test_pcp_reads_textfile,
        test_groups_differing_in_unshowable_bytes,
        test_series_stable_under_churn,
        test_prometheus_rate_matches_cpu_stat,
        test_replay_exports_openmetrics,
        test_promtool_clean,
        test_docs_list_every_metric,
    ]))
