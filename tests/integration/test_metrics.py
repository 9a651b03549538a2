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

SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
NOBODY = 65534


def parsers():
    """python3-prometheus-client's OpenMetrics and text-format parsers."""
    try:
        import prometheus_client  # noqa: F401
    except ImportError:
        # Debian's package installs for the system's python3; a python3 first
        # in PATH (pyenv, a virtualenv) does not see it by itself
        sys.path.append("/usr/lib/python3/dist-packages")
    try:
        from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
        from prometheus_client.parser import text_string_to_metric_families as text
    except ImportError:
        raise Skip("python3-prometheus-client is not installed")
    return om, text


def series(families):
    """{(sample name, sorted labels): value}; a series twice is an error."""
    out = {}
    for f in families:
        for s in f.samples:
            check(s.timestamp is None, f"{s.name}: a timestamp (the textfile collector refuses them)")
            key = (s.name, tuple(sorted(s.labels.items())))
            check(key not in out, f"series {key} twice")
            out[key] = s.value
    return out


def parse_om(text):
    om, _ = parsers()
    check(text.endswith("# EOF\n"), "an exposition ends in # EOF")
    return series(list(om(text)))


def parse_text(text):
    _, tp = parsers()
    check("# EOF" not in text and "# UNIT" not in text, "the text format has no # EOF or # UNIT")
    return series(list(tp(text)))


def value(m, name, **labels):
    return m.get((name, tuple(sorted(labels.items()))))


def where(m, name):
    """The series of one name: {labels dict as tuple: value}."""
    return {k[1]: v for k, v in m.items() if k[0] == name}


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
    """docs/metrics.md: at most 10 + 33 G + 24 N series."""
    return 10 + 33 * ngroups + 24 * top


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
            pids = {dict(k[1])["pid"] for k in m if "pid" in dict(k[1])}
            check(len(pids) == 4, f"{user}: --top 4 gives four processes: {pids}")
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
        comms = {dict(k[1]).get("comm") for k in m if k[0] == "taskview_process_threads"}
        check(comms == {'q"\\\ufffd[2J\n\ufffd'}, f"comm label: {comms}")
    finally:
        p.kill()
        p.wait()


# ------------------------------------------------------------------ values


def read_samples(cmd, n, textfile, user=None):
    """Runs taskview with JSON on stdout and a text file; returns
    [(json document, text file content)] of the same samples. taskview
    writes the file before the JSON line; it is stopped while the file is
    read, so the next sample cannot replace it."""
    import json
    proc = subprocess.Popen(as_user(cmd, user), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="surrogateescape")
    out = []
    try:
        for _ in range(n):
            line = proc.stdout.readline()
            if not line:
                proc.wait(timeout=30)
                raise AssertionError(f"taskview ended early (exit {proc.returncode}): {proc.stderr.read()}")
            os.kill(proc.pid, signal.SIGSTOP)
            try:
                with open(textfile, encoding="utf-8") as f:
                    content = f.read()
            finally:
                os.kill(proc.pid, signal.SIGCONT)
            out.append((json.loads(line), content))
        if proc.wait(timeout=120) != 0:
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
    # the processes using the most CPU: their own counters
    top = {dict(k[1])["pid"]: dict(k[1]) for k in m if k[0] == "taskview_process_threads"}
    check(len(top) == min(3, len(procs)), f"--top 3: {sorted(top)}")
    for t in procs:
        pid = str(t["pid"])
        if pid not in top:
            continue
        labels = top[pid]
        check(labels["comm"] == t["comm"] and labels["group"] == (t["unit"] or ""), f"{pid}: labels {labels}")
        close(value(m, "taskview_process_cpu_seconds_total", **labels), t["time"], 0.005 + 1e-9, f"{pid}: cpu")
        check(value(m, "taskview_process_voluntary_context_switches_total", **labels) == t["ctxt_vol"],
              f"{pid}: voluntary switches")
        check(value(m, "taskview_process_involuntary_context_switches_total", **labels) == t["ctxt_invol"],
              f"{pid}: involuntary switches")
        check(value(m, "taskview_process_threads", **labels) == t["threads"], f"{pid}: threads")
        check(value(m, "taskview_process_resident_memory_bytes", **labels) == 1024 * t["vm_rss"], f"{pid}: rss")
        check(value(m, "taskview_process_page_table_bytes", **labels) == 1024 * t["vm_pte"], f"{pid}: pte")
        for cls in ("cpu", "io"):
            secs = value(m, "taskview_process_delay_seconds_total", **labels, **{"class": cls})
            events = value(m, "taskview_process_delay_events_total", **labels, **{"class": cls})
            if secs is None or events is None:
                # unknown (no taskstats for nobody; a class the kernel does not count): left out
                check(secs is None and events is None and t[f"{cls}_delay"] is None,
                      f"{pid}: {cls} delay unknown, yet written ({secs}, {events}) or known in JSON")
                check(cls != "cpu", f"{pid}: the cpu delay counters (taskstats or schedstat)")
                continue
            check(user is None or cls == "cpu", f"{pid}: nobody has no {cls} delay counters")
            if not prev or f"{pid}" not in prev[1]:
                continue
            # the interval's average wait from the counters is the JSON's
            psecs, pevents = prev[1][pid][cls]
            avg = t[f"{cls}_delay_avg"]
            if events > pevents:
                want = (secs - psecs) * 1000 / (events - pevents)
                # JSON rounds to 3 decimals; the model keeps averages as float
                close(avg, want, 0.0006 + 2e-7 * abs(want), f"{pid}: {cls} average wait ms")
            else:
                check(avg is None, f"{pid}: no {cls} wait, no average: {avg}")
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
                       "-p", f"{a.pid},{b.pid}"]
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
                        if k[0] == "taskview_process_delay_seconds_total":
                            d = dict(k[1])
                            ev = value(m, "taskview_process_delay_events_total", **d)
                            delays.setdefault(d["pid"], {})[d["class"]] = (v, ev)
                    prev = (doc, delays)
                check(matched >= 2, f"only {matched} of {len(pairs)} samples read in time")


def burner_cpu(m, pid):
    """The CPU seconds a sample shows for process pid, 0 if none."""
    vals = [v for labels, v in where(m, "taskview_process_cpu_seconds_total").items()
            if dict(labels).get("pid") == str(pid)]
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
                    if killed is None and len(history) >= 3 and burner_cpu(m, burner.pid) >= 0.05:
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
            seen = [value(h, "taskview_process_cpu_seconds_total", group=group, comm="tvm-ends",
                          pid=str(burner.pid)) for h in before]
            seen = [v for v in seen if v is not None]
            ended_cpu = seen[-1] if seen else None
            # enough that losing it would show (the machine may be busy: not much more)
            check(ended_cpu is not None and ended_cpu >= 0.05, f"the burner's CPU before it ended: {ended_cpu}")
            end = after[-1]
            check(value(end, "taskview_group_processes", group=group) == 1, "one process left")
            keep_cpu = value(end, "taskview_process_cpu_seconds_total", group=group,
                             comm=os.path.basename(os.environ.get("WORKLOAD", "tv-workload"))[:15], pid=str(keep.pid))
            check(keep_cpu is not None, f"the remaining process in --top: {sorted(k for k in end if 'pid' in str(k))[:4]}")
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
        tv = subprocess.Popen([TASKVIEW, "--textfile", path, "-d", "0.1", "-n", "25", "-p", str(w.pid)],
                              stderr=subprocess.PIPE, text=True)
        reads = changes = 0
        held = None  # the file read last, kept open: its inode cannot be reused meanwhile
        try:
            while tv.poll() is None:
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
                tv.kill()
            tv.wait()
        check(tv.returncode == 0, f"taskview exit {tv.returncode}: {tv.stderr.read()}")
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
            tv.wait(timeout=10)
            with open(path, encoding="utf-8") as f:
                want = parse_text(f.read())
            _, tp = parsers()
            got = {k: v for k, v in series(list(tp(scrape()))).items() if k[0].startswith("taskview_")}
            check(set(got) == set(want), f"series differ: {sorted(set(got) ^ set(want))[:5]}")
            for k, v in want.items():
                check(got[k] == v or (math.isnan(got[k]) and math.isnan(v)), f"{k}: served {got[k]}, file {v}")
            check(any(k[0] == "taskview_process_cpu_seconds_total" and ("pid", str(w.pid)) in k[1] for k in got),
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
        env = dict(os.environ, PCP_RUN_DIR=tmp)
        port = free_port()
        pm = subprocess.Popen([pmcd, "-f", "-A", "-i", "127.0.0.1", "-p", str(port), "-c", f"{tmp}/pmcd.conf",
                               "-n", f"{tmp}/pmns", "-l", f"{tmp}/pmcd.log", "-s", f"{tmp}/pmcd.socket",
                               "-x", f"{tmp}/pmcd.err", "-U", me],
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=env)
        host = f"127.0.0.1:{port}"
        try:
            def ready():
                if pm.poll() is not None:
                    return "exited"
                q = subprocess.run([pminfo, "-h", host, "openmetrics.taskview"], capture_output=True, text=True,
                                   env=env, timeout=30)
                return q.returncode == 0 and "taskview_group_cpu_seconds_total" in q.stdout
            state = wait_for(ready, 90, "pmcd with the openmetrics agent")
            if state == "exited":
                log = ""
                for name in ("pmcd.log", "pmcd.err"):
                    p = os.path.join(tmp, name)
                    if os.path.exists(p):
                        with open(p, errors="replace") as f:
                            log += f.read()
                raise Skip(f"pmcd cannot run here (exit {pm.returncode}): {log.strip()[-500:]}")
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
            check(any(f"pid:{w.pid}" in k for k in got["openmetrics.taskview.taskview_process_threads"]["values"]),
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
    check("10 + 33 × G + 24 × N" in doc, "the series bound is stated")


if __name__ == "__main__":
    sys.exit(main([
        test_expositions_parse_strictly,
        test_hostile_names_in_labels,
        test_textfile_replaced_whole,
        test_values_equal_json,
        test_group_counters_survive_exits,
        test_node_exporter_serves_textfile,
        test_pcp_reads_textfile,
        test_docs_list_every_metric,
    ]))
