#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Several hosts through real OpenSSH (--host, --hosts-file, --stream).

Each "host" is an sshd that this test starts on a 127.0.0.1 port, in its own
PID, UTS and mount namespaces (its own /proc and host name), with a host key
and an authorized key made in a temporary directory. taskview reaches them
through the ssh command TASKVIEW_SSH names (ssh -F with the test's own
configuration), and runs the build's binary there (TASKVIEW_REMOTE).

Checked: every task comes with its host, and the tasks are that host's
(its namespace's PID 1 is its sshd); a remote process's figures against the
same process read from outside its namespace; the selection travels; a host
with the wrong key, without taskview, one that sends garbage and one that is
stopped each say why, on their own line, while the others print. Needs
root (namespaces, sshd); skipped without sshd or unshare.
"""
import os
import json
import pwd
import random
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import TASKVIEW, WORKLOAD, Skip, check, children, is_root, json_lines, main, reachable  # noqa: E402

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Fleet:
    """sshds in namespaces, and the ssh configuration that names them."""

    def __init__(self):
        if not is_root():
            raise Skip("needs root: namespaces and sshd")
        for tool in ("unshare", "ssh", "ssh-keygen"):
            if not shutil.which(tool):
                raise Skip(f"{tool} is not installed")
        if not os.access(SSHD, os.X_OK):
            raise Skip("sshd is not installed")
        self.dir = tempfile.mkdtemp(prefix="tv-hosts-")
        os.chmod(self.dir, 0o700)
        self.key = self.path("client")
        self.other_key = self.path("stranger")
        for k in (self.path("hostkey"), self.key, self.other_key):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", k], check=True)
        shutil.copy(self.key + ".pub", self.path("authorized_keys"))
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege separation directory
        self.hosts = {}   # alias -> (port, unshare process)
        self.aliases = []  # lines of the ssh configuration

    def path(self, name):
        return os.path.join(self.dir, name)

    def start(self, name, force_command=None, before=None, port=None):
        """An sshd in namespaces of its own, host name name; before: shell
        commands run there first (processes for it to hold); port: the one
        of a host started again."""
        port = port or free_port()
        cfg = self.path(f"sshd_{name}")
        with open(cfg, "w") as f:
            f.write(f"Port {port}\nListenAddress 127.0.0.1\nHostKey {self.path('hostkey')}\n"
                    f"AuthorizedKeysFile {self.path('authorized_keys')}\nPermitRootLogin prohibit-password\n"
                    "PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
                    "PidFile none\nLogLevel ERROR\n")
            if force_command:
                f.write(f"ForceCommand {force_command}\n")
        # a host of its own: an empty home for root there, so the machine's shell start-up
        # files (bash reads ~/.bashrc for a command over ssh) take no part and no lock
        home = self.path(f"home_{name}")
        os.makedirs(home, mode=0o700, exist_ok=True)
        p = subprocess.Popen(["unshare", "--pid", "--uts", "--mount", "--fork", "--mount-proc", "sh", "-c",
                              f"hostname {name} && mount --bind {home} {pwd.getpwuid(0).pw_dir} || exit 1\n"
                              f"{before or ':'}\nexec {SSHD} -D -e -f {cfg}"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.hosts[name] = (port, p)
        self.alias(name, port, self.key)
        # ready when it answers with its banner
        end = time.monotonic() + 120
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                    if s.recv(4).startswith(b"SSH-"):
                        break
            except OSError:
                pass
            check(p.poll() is None, f"sshd of {name} ended: {p.returncode}")
            check(time.monotonic() < end, f"sshd of {name} never answered")
            time.sleep(0.1)
        return port

    def alias(self, name, port, key):
        self.aliases.append(f"Host {name}\n  HostName 127.0.0.1\n  Port {port}\n  User root\n"
                            f"  IdentityFile {key}\n  IdentitiesOnly yes\n  StrictHostKeyChecking no\n"
                            "  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n  ConnectTimeout 60\n")
        with open(self.path("ssh_config"), "w") as f:
            f.write("".join(self.aliases))

    def sshd_pid(self, name):
        """The host's PID 1 (its sshd), as the initial namespace numbers it."""
        kids = children(self.hosts[name][1].pid)
        check(len(kids) == 1, f"unshare of {name} has children {kids}")
        return kids[0]

    def env(self):
        return {**os.environ, "TASKVIEW_SSH": f"ssh -F {self.path('ssh_config')}",
                "TASKVIEW_REMOTE": os.path.abspath(TASKVIEW), "LC_ALL": "C"}

    def run(self, *args, timeout=300):
        return subprocess.run([TASKVIEW, *args], capture_output=True, text=True, env=self.env(), timeout=timeout,
                              stdin=subprocess.DEVNULL)

    def stop(self):
        for _, p in self.hosts.values():
            try:
                os.killpg(p.pid, signal.SIGCONT)
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


FLEET = None


def fleet():
    global FLEET
    if FLEET is None:
        f = Fleet()
        # web1 runs a process with threads of its own
        f.start("web1", before=f"{shlex.quote(os.path.abspath(WORKLOAD))} --name tvhw --sleepers 2 "
                               "--seconds 3600 >/dev/null &")
        for name in ("web2", "db1"):
            f.start(name)
        FLEET = f
    return FLEET


def status_kib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return None


def test_every_task_with_its_host():
    """JSON: each host's samples, each task named with its host, the tasks
    that host's own (its PID 1 is its sshd); PID 1's memory as read from
    outside the namespace."""
    f = fleet()
    outside = {h: f.sshd_pid(h) for h in ("web1", "web2")}
    before = {h: status_kib(p, "VmRSS") for h, p in outside.items()}
    r = f.run("-b", "--host", "web1,web2", "--format", "json", "-n", "2", "-d", "0.5")
    after = {h: status_kib(p, "VmRSS") for h, p in outside.items()}
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    docs = json_lines(r.stdout)
    hosts = [d["host"] for d in docs]
    check(sorted(hosts) == ["web1", "web1", "web2", "web2"], f"two samples of each host: {hosts}")
    with open("/proc/sys/kernel/random/boot_id") as bf:
        boot = bf.read().strip()
    version = subprocess.run([TASKVIEW, "--version"], capture_output=True, text=True).stdout.split()[1]
    for d in docs:
        check(d["interval"] > 0.3, f"{d['host']}: interval {d['interval']}")
        # what the host says of itself: here, its namespace's name and this machine's
        rem = d["remote"]
        check(rem["hostname"] == d["host"] and rem["kernel"] == os.uname().release and rem["boot_id"] == boot
              and rem["cpus"] == os.sysconf("SC_NPROCESSORS_ONLN") and rem["taskview"] == version,
              f"{d['host']}: remote {rem}")
        # the same clock: a sample's time is before its arrival
        check(-60 < rem["clock_offset"] <= 0.001, f"{d['host']}: clock offset {rem['clock_offset']}")
        tasks = d["tasks"]
        check(all(t["host"] == d["host"] for t in tasks), f"a task of another host in {d['host']}'s sample")
        live = [t for t in tasks if not t.get("exited")]
        # the namespace's own processes: its sshd, the session and the remote taskview
        check(len(live) < 20, f"{d['host']}: {len(live)} processes: not its namespace's")
        one = [t for t in live if t["pid"] == 1]
        check(one and "sshd" in (one[0]["command"] or ""), f"{d['host']}: PID 1 is not its sshd: {one}")
        check(any("--stream" in (t["command"] or "") for t in live), f"{d['host']}: no remote taskview")
        rss = one[0]["vm_rss"]
        host = d["host"]
        check(rss in (before[host], after[host]),
              f"{host}: sshd's RSS {rss} KiB, read from outside {before[host]} and {after[host]} KiB")


def meminfo_kib(key):
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return None


def busy_ticks():
    """This machine's CPU time but idle, iowait and steal, in clock ticks (/proc/stat's cpu line)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return v[0] + v[1] + v[2] + v[5] + v[6]


class MachinePoll:
    """MemAvailable and /proc/loadavg read here every few ms while a host streams: the
    hosts share this machine's kernel, so what a host says is among what was read."""

    def __init__(self):
        self.avail, self.loads = [], set()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)

    def run(self):
        while not self.stop.is_set():
            self.avail.append(meminfo_kib("MemAvailable"))
            with open("/proc/loadavg") as f:
                self.loads.add(tuple(float(x) for x in f.read().split()[:3]))
            time.sleep(0.005)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def test_machine_of_each_host():
    """JSON: each host's machine: its CPU time (the counter and its rate), memory and load, against
    this machine's, read here before, during and after the stream (the hosts share its kernel)."""
    f = fleet()
    hz = os.sysconf("SC_CLK_TCK")
    ncpu = os.sysconf("SC_NPROCESSORS_ONLN")
    before = busy_ticks()
    with MachinePoll() as poll:
        r = f.run("-b", "--host", "web1", "-p", "1", "--format", "json", "-n", "2", "-d", "0.5")
    after = busy_ticks()
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    docs = json_lines(r.stdout)
    check(len(docs) == 2, f"two samples: {r.stdout}")
    last = None
    for d in docs:
        m = d["machine"]
        mem = m["memory"]
        check(mem["total"] == meminfo_kib("MemTotal") * 1024 and mem["swap_total"] == meminfo_kib("SwapTotal") * 1024,
              f"the host's memory and swap: {m}")
        # a gauge, among what was read here meanwhile: 1 GiB either side, as a compiler beside may take
        # that between two reads of a poller it starves (a unit off by 1024 is far outside)
        avail = mem["available"] // 1024
        check(max(min(poll.avail) - 1048576, min(poll.avail) // 2) <= avail <= max(poll.avail) + 1048576,
              f"available {avail} KiB, read here {min(poll.avail)} to {max(poll.avail)} KiB")
        check(tuple(m["load"]) in poll.loads, f"load {m['load']}, read here {sorted(poll.loads)}")
        # the counter was read between the reads here; its rate is over the host's interval
        busy = m["cpu_usec"] * hz / 1e6
        check(before <= busy <= after, f"CPU time {busy} ticks, read here {before} and {after}")
        check(last is None or m["cpu_usec"] >= last, f"CPU time went back: {last} then {m['cpu_usec']}")
        # the second sample's rate is over the counter's step from the first (counted in ticks: a quiet
        # half second may have none); its time is the host's read of the counter, a little off the
        # interval, by the time the refresh took to reach it each time
        if last is not None:
            step = (m["cpu_usec"] - last) / 1e6
            if step == 0:
                check(m["cpu"] == 0, f"no CPU time in the interval, and CPU {m['cpu']} %")
            else:
                check(0.5 <= step / (m["cpu"] / 100 * d["interval"]) <= 2,
                      f"CPU {m['cpu']} % over {d['interval']} s, and the counter stepped {step} s")
        last = m["cpu_usec"]


def test_text_and_selection_travel():
    """Text: a header per sample naming its host; -p, -F and -H reach the remote."""
    f = fleet()
    r = f.run("-b", "--host", "web1", "--host", "web2", "-p", "1", "-n", "1", "-d", "0.5")
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    heads = [line for line in r.stdout.splitlines() if line.startswith("taskview ")]
    check(sorted(h.rsplit("; host ", 1)[-1] for h in heads) == ["web1", "web2"], f"headers: {heads}")
    rows = [line for line in r.stdout.splitlines() if line and not line.startswith(("taskview ", "    PID"))]
    check(rows and all(line.split()[0] == "1" for line in rows), f"only PID 1 of each host: {rows}")
    # web1's workload, with its threads
    r = f.run("-b", "--host", "web1", "-F", "tvhw", "-H", "--format", "json", "-d", "0.5")
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    tasks = [t for d in json_lines(r.stdout) for t in d["tasks"] if not t.get("exited")]
    procs = [t for t in tasks if t["kind"] == "process"]
    check(len(procs) == 1 and "tvhw" in procs[0]["command"], f"-F: the workload alone: {procs}")
    check(any(t["kind"] == "thread" and t["tgid"] == procs[0]["pid"] for t in tasks), f"-H: its threads: {tasks}")


def ns_processes(pid):
    """(PID here, command line) of each process in pid's PID namespace, read from outside it
    (a command line's words joined by blanks)."""
    ns = os.readlink(f"/proc/{pid}/ns/pid")
    out = []
    for d in os.listdir("/proc"):
        try:
            if d.isdigit() and os.readlink(f"/proc/{d}/ns/pid") == ns:
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    out.append((int(d), f.read().replace(b"\0", b" ").decode(errors="replace")))
        except OSError:
            pass
    return out


def ns_processes_pids(pid, name):
    """The PIDs (here) of the processes in pid's PID namespace whose command line holds name."""
    return [p for p, cmd in ns_processes(pid) if name in cmd]


def test_thirty_two_hosts():
    """32 hosts at once (a test of its own, in suite measure: 32 sshds and remote taskviews
    starting together): two samples of each host's PID 1, its sshd, each named with its own
    host name, and nothing said; recorded into one file, the replay prints the same."""
    f = fleet()
    names = ["web1", "web2", "db1"] + [f"many{i}" for i in range(29)]
    for n in names:
        if n not in f.hosts:
            f.start(n)
    path = os.path.join(f.dir, "many.tvr")
    r = f.run("-b", "--host", ",".join(names), "--format", "json", "-p", "1", "-n", "2", "-d", "0.5", "-w", path)
    got = by_host(json_lines(r.stdout))
    check(r.returncode == 0 and not r.stderr.strip(), f"exit {r.returncode}, said: {r.stderr}")
    pids = {h: [[t["pid"] for t in d["tasks"] if not t.get("exited")] for d in v] for h, v in got.items()}
    wrong = {h: v for h, v in pids.items() if v != [[1], [1]]}
    check(sorted(got) == sorted(names) and not wrong,
          f"two samples of PID 1 of each host: {wrong}, missing {sorted(set(names) - set(got))}")
    check(all(d["remote"]["hostname"] == h for h, v in got.items() for d in v), "each with its own host name")
    rep = f.run("-r", path, "-b", "--format", "json")
    check(rep.returncode == 0 and rep.stdout == r.stdout, f"the replay of the 32: {rep.returncode} {rep.stderr}")


def stop_namespace(f, name, sig):
    """sig to every process of host name's PID namespace (an ssh session is a process group of its own)."""
    for pid, _ in ns_processes(f.sshd_pid(name)):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def test_metrics_with_their_host():
    """OpenMetrics: each host's samples as expositions of their own, which the
    prometheus_client parser reads, every series labelled with its host; a
    host's processes, summed over its groups, are the processes its PID
    namespace holds, counted from outside while the stream runs."""
    from exposition import parse_om, where
    f = fleet()
    sshd = f.sshd_pid("web1")
    p = subprocess.Popen([TASKVIEW, "-b", "--host", "web1,web2", "--format", "openmetrics", "-n", "4", "-d", "0.5"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=f.env(),
                         stdin=subprocess.DEVNULL)
    counts = set()
    while p.poll() is None:
        procs = [cmd for _, cmd in ns_processes(sshd)]
        if any("--stream" in c for c in procs):
            counts.add(len(procs))
        time.sleep(0.05)
    out, err = p.communicate(timeout=60)
    check(p.returncode == 0, f"exit {p.returncode}: {err}")
    # while it streams: its sshd, the session, the remote taskview, its workload (fewer while
    # a session ends, as web1's does when it gave its samples and web2 still streams)
    check(counts, "web1 never seen streaming")
    parts = [x + "# EOF\n" for x in out.split("# EOF\n") if x.strip()]
    check(len(parts) == 8, f"4 expositions of each host, got {len(parts)}")
    got = {"web1": [], "web2": []}
    for text in parts:
        m = parse_om(text)
        hosts = {dict(labels).get("host") for (_, labels) in m}
        check(len(hosts) == 1 and hosts <= set(got), f"every series of an exposition with its host: {hosts}")
        got[hosts.pop()].append(m)
    check([len(v) for v in got.values()] == [4, 4], f"expositions per host: {[len(v) for v in got.values()]}")
    for m in got["web1"]:
        procs = sum(where(m, "taskview_group_processes").values())
        check(procs in counts, f"web1's processes: {procs} summed over its groups, {counts} in its namespace")


def test_textfile_of_every_host():
    """--textfile: one file for node_exporter's collector with every host's series, each family
    once (its parser refuses a TYPE line after the family's samples), rewritten as samples come;
    web1's processes there are those its PID namespace holds."""
    from exposition import parse_text, where
    f = fleet()
    sshd = f.sshd_pid("web1")
    path = f.path("fleet.prom")
    p = subprocess.Popen([TASKVIEW, "--host", "web1,web2", "--textfile", path, "-d", "0.5", "--top", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=f.env(),
                         stdin=subprocess.DEVNULL)
    try:
        stamps, counts, m = set(), set(), {}
        end = time.monotonic() + 120
        while time.monotonic() < end and p.poll() is None and len(stamps) < 4:
            procs = [cmd for _, cmd in ns_processes(sshd)]
            if any("--stream" in c for c in procs):
                counts.add(len(procs))
            try:
                with open(path) as fh:
                    text = fh.read()
            except FileNotFoundError:
                time.sleep(0.1)
                continue
            m = parse_text(text)
            ts = where(m, "taskview_sample_timestamp_seconds")
            if sorted(dict(k)["host"] for k in ts) == ["web1", "web2"]:
                stamps.add(tuple(sorted(ts.values())))
            time.sleep(0.1)
        if p.poll() is not None:
            check(False, f"taskview ended: {p.returncode}: {p.stderr.read()}")
        check(len(stamps) >= 4, f"the file with both hosts' samples, rewritten: {stamps}")
        check(os.stat(path).st_mode & 0o777 == 0o644, f"mode {os.stat(path).st_mode:o}")
        types = re.findall(r"^# TYPE (\S+)", text, re.M)
        check(len(types) == len(set(types)), f"a family twice: {sorted(t for t in types if types.count(t) > 1)}")
        hosts = {dict(k).get("host") for (_, k) in m}
        check(hosts == {"web1", "web2"}, f"every series with its host: {hosts}")
        procs = sum(v for k, v in where(m, "taskview_group_processes").items() if dict(k)["host"] == "web1")
        check(procs in counts, f"web1's processes: {procs} summed over its groups, {counts} in its namespace")
        check(any(dict(k)["host"] == "web2" for k in where(m, "taskview_command_cpu_seconds_total")),
              "--top: web2's commands")
    finally:
        p.terminate()
        p.wait(timeout=60)
    # -n: a sample of each, the last host's in the file too
    os.unlink(path)
    r = f.run("--host", "web1,web2", "--textfile", path, "-n", "1", "-d", "0.5")
    check(r.returncode == 0, f"-n 1: exit {r.returncode}: {r.stderr}")
    with open(path) as fh:
        ts = where(parse_text(fh.read()), "taskview_sample_timestamp_seconds")
    check(sorted(dict(k)["host"] for k in ts) == ["web1", "web2"], f"-n 1: the hosts in the file: {ts}")


def test_hosts_file():
    """--hosts-file: one a line, comments and blanks skipped."""
    f = fleet()
    path = f.path("hosts")
    with open(path, "w") as out:
        out.write("# the fleet\n\nweb1   # first\n  web2\n")
    r = f.run("-b", "--hosts-file", path, "--format", "json", "-p", "1", "-d", "0.5")
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    check(sorted(d["host"] for d in json_lines(r.stdout)) == ["web1", "web2"], r.stdout[:300])


def test_failing_hosts_say_why():
    """The wrong key, no taskview, garbage: each host says why on stderr and
    the others print; the run does not wait for the garbage's sender."""
    f = fleet()
    if "tvnotv" not in f.hosts:
        f.start("tvnotv", force_command="taskview-not-installed-here --stream")
        f.start("tvjunk", force_command="echo this is not what a taskview stream starts with; exec sleep 600")
        f.alias("tvbadkey", f.hosts["web1"][0], f.other_key)
    r = f.run("-b", "--host", "web1,tvbadkey,tvnotv,tvjunk", "--format", "json", "-p", "1", "-d", "0.5",
              timeout=500)
    check(r.returncode == 1, f"exit {r.returncode}: {r.stderr}")
    check([d["host"] for d in json_lines(r.stdout)] == ["web1"], f"web1's sample: {r.stdout[:300]}")
    said = {line.split(":")[1].strip(): line for line in r.stderr.splitlines() if line.startswith("taskview: ")}
    check("Permission denied" in said.get("tvbadkey", ""), f"the wrong key: {r.stderr}")
    check("not found" in said.get("tvnotv", ""), f"no taskview: {r.stderr}")
    check("not a taskview stream" in said.get("tvjunk", ""), f"garbage: {r.stderr}")
    check("web1" not in said, f"web1 failed: {r.stderr}")


def test_stopped_host_is_given_up():
    """A host stopped with SIGSTOP (its sshd and everything under it) never
    answers: the others print, and it is given up, said."""
    f = fleet()
    if "tvstop" not in f.hosts:
        f.start("tvstop")
    p = f.hosts["tvstop"][1]
    os.killpg(p.pid, signal.SIGSTOP)
    try:
        r = f.run("-b", "--host", "tvstop,web2", "--format", "json", "-p", "1", "-d", "0.5")
    finally:
        os.killpg(p.pid, signal.SIGCONT)
    check(r.returncode == 1, f"exit {r.returncode}: {r.stderr}")
    check([d["host"] for d in json_lines(r.stdout)] == ["web2"], f"web2's sample: {r.stdout[:300]}")
    check("tvstop: no sample for" in r.stderr, f"the stopped host: {r.stderr}")


def test_host_lost_mid_stream_comes_back():
    """A host killed while it streams (every process of it, its sshd too) is
    said to have ended and is tried again; started again, it gives the rest
    of its samples, and the other host all of its own meanwhile."""
    f = fleet()
    f.start("tvkill")
    p = subprocess.Popen([TASKVIEW, "-b", "--host", "tvkill,web2", "--format", "json", "-p", "1", "-d", "0.3",
                          "-n", "12"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=f.env(),
                         stdin=subprocess.DEVNULL)
    err = []
    said = threading.Thread(target=lambda: err.extend(p.stderr), daemon=True)
    said.start()
    try:
        seen = []
        for line in p.stdout:  # until tvkill has sent a sample
            seen.append(json.loads(line)["host"])
            if seen[-1] == "tvkill":
                break
        port = f.hosts["tvkill"][0]
        os.killpg(f.hosts["tvkill"][1].pid, signal.SIGKILL)
        f.hosts["tvkill"][1].wait()
        end = time.monotonic() + 120
        while not any("tvkill: " in line for line in err):  # its end said, then it is back
            check(time.monotonic() < end and p.poll() is None, f"tvkill's end not said: {err}")
            time.sleep(0.1)
        f.start("tvkill", port=port)
        out = p.stdout.read()
        p.wait(timeout=300)
        said.join(timeout=10)
    finally:
        p.kill()
    seen += [json.loads(line)["host"] for line in out.splitlines()]
    err = "".join(err)
    check(p.returncode == 0, f"exit {p.returncode}: {err}")
    check(seen.count("web2") == 12 and seen.count("tvkill") == 12, f"the samples: {seen}")
    check(re.search(r"^taskview: tvkill: .*\(tried again in \d+ s\)$", err, re.M), f"tvkill's end: {err}")
    print(f"     {err.strip()}")


def test_stream_of_an_older_version():
    """A host whose taskview is 0.1.0 (its stream is the first version of the
    recording format, tests/data/recording-v1.tvr, as it wrote it): every
    sample is read, and each task's figures are those -r prints of the same
    recording; what 0.1.0 did not describe of its host is null. Plugin
    columns are not read from a remote (it runs without plugins): -r's
    recorded ones are left out of the comparison."""
    f = fleet()
    rec = os.path.join(os.environ["SOURCE_DIR"], "tests", "data", "recording-v1.tvr")
    if "tvold" not in f.hosts:
        f.start("tvold", force_command=f"cat {shlex.quote(rec)}; exec sleep 600")
    args = ["-b", "--format", "json", "-H", "-o", "all"]
    r = f.run("-r", rec, *args)
    check(r.returncode == 0, f"-r: {r.returncode}: {r.stderr}")
    want = json_lines(r.stdout)
    r = f.run("--host", "tvold", "-n", str(len(want)), *args)
    check(r.returncode == 0, f"--host: {r.returncode}: {r.stderr}")
    got = json_lines(r.stdout)
    check([d["timestamp"] for d in got] == [d["timestamp"] for d in want],
          f"the samples: {[d['timestamp'] for d in got]}, -r: {[d['timestamp'] for d in want]}")
    for g, w in zip(got, want):
        remote = g["remote"]
        check(remote["boot_id"] is None and remote["cpus"] is None, f"not said by 0.1.0: {remote}")
        check(len(g["tasks"]) == len(w["tasks"]), f"{g['timestamp']}: {len(g['tasks'])} tasks, -r {len(w['tasks'])}")
        for gt, wt in zip(g["tasks"], w["tasks"]):
            check(gt.pop("host") == "tvold", f"its host: {gt}")
            plugins = {k for k in wt if "." in k}
            check(set(wt) - set(gt) == plugins, f"the columns: {sorted(set(wt) ^ set(gt))}")
            wt = {k: v for k, v in wt.items() if k not in plugins}
            check(gt == wt, f"{g['timestamp']}: {gt} != -r's {wt}")


SCREEN = None


def screen():
    """The tmux driver (tests/tui/tmuxlib.py) of this run, or Skip without tmux."""
    global SCREEN
    if not shutil.which("tmux"):
        raise Skip("tmux is not installed: the hosts' screen is not checked")
    if SCREEN is None:
        sys.path.insert(0, os.path.join(os.environ["SOURCE_DIR"], "tests", "tui"))
        from tmuxlib import Tmux
        home = FLEET.path("screen-home")
        os.makedirs(home, exist_ok=True)
        SCREEN = Tmux(home)
        # the server outlives each test's session (it would exit with its last one)
        SCREEN.cmd("new-session", "-d", "-s", "keep", "sleep 3600")
    return SCREEN


def rows_of(text, host):
    """The table rows whose HOST is host, a PID after it: their words (the
    header's lines that name a host not live are no rows)."""
    return [w for w in (line.split() for line in text.splitlines()) if w[:1] == [host] and w[1:2] and w[1].isdigit()]


def test_screen_merges_the_hosts():
    """taskview --host without -b: one table of every host's tasks, each row
    with its host first; sort, search and filter work across the hosts; a
    host that fails is named in the header with why, and the others stay."""
    f = fleet()
    if "tvnotv" not in f.hosts:
        f.start("tvnotv", force_command="taskview-not-installed-here --stream")
    tm = screen()
    env = {k: v for k, v in f.env().items() if k.startswith("TASKVIEW_")}
    s = tm.start(["--host", "web1,web2,tvnotv", "-d", "0.5", "-H"], env=env)
    try:
        text = tm.wait(s, lambda t: rows_of(t, "web1") and rows_of(t, "web2"), "rows of web1 and web2")
        head = text.splitlines()
        check(any(line.split()[:2] == ["HOST", "PID"] for line in head), f"HOST before PID:\n{text}")
        # each host's PID 1 is its sshd: the PIDs are the hosts' own
        for host in ("web1", "web2"):
            tm.wait(s, lambda t, h=host: any(r[1] == "1" for r in rows_of(t, h)), f"{host}'s PID 1")
        # offline with why (tried again, it is connecting for a moment: "last: command not found")
        tm.wait(s, lambda t: re.search(r"tvnotv offline, again in \d+ s: .*not found", t), "tvnotv offline, with why")
        # web1's workload and its threads, unfolded by -H, under its host
        text = tm.wait(s, lambda t: any("tvhw" in " ".join(r) for r in rows_of(t, "web1")), "web1's tvhw")
        check(not any("tvhw" in " ".join(r) for r in rows_of(text, "web2")), f"tvhw on web2:\n{text}")
        # the filter: only web1's workload is left, from one host
        tm.keys(s, "\\", "tvhw", "Enter")
        text = tm.wait(s, lambda t: not rows_of(t, "web2") and rows_of(t, "web1"), "the filter across hosts")
        left = rows_of(text, "web1")
        check(len(left) == 4 and any("tvhw" in r for r in left), f"what the filter left: tvhw and its threads:\n{text}")
        # the detail panel of the selected process names its PID there and its host
        tm.keys(s, "Home", "i")
        tm.wait(s, lambda t: re.search(r"Process \d{1,3}: \S+ on web1 ", t), "the panel of web1's process")
        tm.keys(s, "Escape")
        tm.wait(s, lambda t: not re.search(r"Process \d+: \S+ on web1", t), "the panel closed")
        # the CPU affinity is refused, and says why (k and F7, F8: test_screen_kill_on_a_host)
        tm.keys(s, "a")
        tm.wait_for(s, "only a signal (k) and nice (F7, F8)")
    finally:
        tm.quit(s)


def test_screen_columns_with_host():
    """-o and -s name HOST, the screen's own column: the remotes are asked for
    the others (a remote knows no HOST), and the table is sorted by host."""
    f = fleet()
    tm = screen()
    env = {k: v for k, v in f.env().items() if k.startswith("TASKVIEW_")}
    s = tm.start(["--host", "web2,web1", "-d", "0.5", "-o", "host,pid,comm", "-s", "host"], env=env)
    try:
        text = tm.wait(s, lambda t: rows_of(t, "web1") and rows_of(t, "web2"), "rows of web1 and web2")
        check(re.search(r"^HOST\W*\s+PID\s+NAME\s*$", text, re.M), f"the columns asked for:\n{text}")
        hosts = [line.split()[0] for line in text.splitlines() if line.split()[:1] in (["web1"], ["web2"])]
        check(hosts == sorted(hosts) or hosts == sorted(hosts, reverse=True), f"sorted by host: {hosts}")
    finally:
        tm.quit(s)


def test_screen_host_rows():
    """g on the hosts' screen: a row per host above its processes, their sum
    (threads here: exact, from the same sample), folded and unfolded as groups
    are; HOST names the host on its own row too."""
    f = fleet()
    tm = screen()
    env = {k: v for k, v in f.env().items() if k.startswith("TASKVIEW_")}
    # sorted by host: the first row stays web1's between the screen read and the keys (by CPU, the
    # hosts traded places once in between, and the other host was folded)
    s = tm.start(["--host", "web1,web2", "-d", "0.5", "-o", "host,pid,threads,comm", "-s", "host"], env=env)

    def host_rows(text):
        """The hosts' own rows: HOST, no PID, the host's name."""
        return {w[0]: w for w in (line.split() for line in text.splitlines())
                if len(w) >= 4 and w[0] in ("web1", "web2") and w[1] == "-" and w[-1] == w[0]}
    try:
        tm.wait(s, lambda t: rows_of(t, "web1") and rows_of(t, "web2"), "rows of web1 and web2")
        tm.keys(s, "g")
        text = tm.wait(s, lambda t: len(host_rows(t)) == 2 and rows_of(t, "web1") and rows_of(t, "web2"),
                       "a row per host, with its processes")
        for host, row in host_rows(text).items():
            procs = rows_of(text, host)
            check(int(row[2]) == sum(int(r[2]) for r in procs), f"{host}'s threads, the sum of its processes':\n{text}")
        # the first row's host folded: its processes go, both hosts' rows stay
        first, other = "web1", "web2"
        check(next(w for w in (line.split() for line in text.splitlines()) if w[:1] in ([first], [other])) ==
              host_rows(text)[first], f"{first}'s row first:\n{text}")
        tm.keys(s, "Home", "-")
        text = tm.wait(s, lambda t: not rows_of(t, first) and rows_of(t, other) and len(host_rows(t)) == 2,
                       f"{first} folded")
        tm.keys(s, "+")
        tm.wait(s, lambda t: rows_of(t, first) and rows_of(t, other), f"{first} unfolded")
    finally:
        tm.quit(s)


def test_screen_host_machine():
    """A host's row (g) carries its machine: CPUs and load in COMMAND, its memory in use in RSS; the
    detail panel of the row gives its memory; each as this machine's kernel has them (read here)."""
    f = fleet()
    tm = screen()
    env = {k: v for k, v in f.env().items() if k.startswith("TASKVIEW_")}
    ncpu = os.sysconf("SC_NPROCESSORS_ONLN")
    # HOST, PID (none), RES, then the fold mark and COMMAND
    row = re.compile(r"^web1\s+-\s+(\S+)\s+[-+]?\s*web1, (\d+) CPUs?, load ([\d.]+) ([\d.]+) ([\d.]+)\s*$", re.M)
    with MachinePoll() as poll:
        s = tm.start(["--host", "web1", "-d", "0.5", "-o", "host,pid,vm_rss,command"], env=env)
        try:
            tm.wait(s, lambda t: rows_of(t, "web1"), "rows of web1")
            tm.keys(s, "g")
            text = tm.wait(s, lambda t: row.search(t), "web1's row with its CPUs and load")
            m = row.search(text)
            check(int(m.group(2)) == ncpu, f"web1's CPUs {m.group(2)}, {ncpu} here:\n{text}")
            check(tuple(float(x) for x in m.group(3, 4, 5)) in poll.loads,
                  f"web1's load {m.group(3, 4, 5)}, read here {sorted(poll.loads)}")
            check(m.group(1) != "-", f"web1's memory in use is known:\n{text}")
            tm.keys(s, "Home", "i")
            text = tm.wait(s, lambda t: "Memory of the host" in t, "the panel of web1's row")
            check(re.search(r"CPUs online\s+%d\b" % ncpu, text) and re.search(r"In use \(total less available\)\s+\d", text),
                  f"the panel of the host, its memory in use known:\n{text}")
            tm.keys(s, "Escape")
            tm.wait(s, lambda t: "Memory of the host" not in t, "the panel closed")
        finally:
            tm.quit(s)


def test_screen_random_keys():
    """Random keys on the hosts' screen for 30 s (tests/tui/test_soak.py's:
    every bound key, prompts answered with text and garbage, window sizes, the
    mouse; the host view with each host's control groups, folds, filters and
    the detail panel among them),
    two live hosts and one that fails, then for 8 s over a recording of
    hosts: taskview ends only by a quit, with status 0, and a sanitizer,
    where it is built with one, reports nothing."""
    f = fleet()
    if "tvnotv" not in f.hosts:
        f.start("tvnotv", force_command="taskview-not-installed-here --stream")
    tm = screen()
    import test_soak  # noqa: E402 - tests/tui, on the path since screen()
    hosts_env = {k: v for k, v in f.env().items() if k.startswith("TASKVIEW_")}

    class HostsSoak(test_soak.Soak):
        def env(self, cfg):
            return {**super().env(cfg), **hosts_env}

    home = f.path("soak-home")
    os.makedirs(home, exist_ok=True)
    soak = HostsSoak(tm, home, random.Random(test_soak.SEED), (), False)
    args = ["--host", "web1,web2,tvnotv", "-d", "0.5"]
    soak.phase("hosts", args, [], 15, True)
    # in the host view from the start, each host's control groups nested under its row
    soak.phase("hosts-g", args + ["--group", "cgroup"], [], 15, True)
    # a recording of hosts, its screen: the keys move in time, and act on nothing
    path = f.path("soak.tvr")
    if not os.path.exists(path):
        r = f.run("-b", "--host", "web1,web2", "-n", "6", "-d", "0.5", "-w", path)
        check(r.returncode == 0, f"the recording: {r.returncode} {r.stderr}")
    soak.phase("hosts-r", ["-r", path], [], 8, False)
    print(f"     seed {test_soak.SEED}; keys sent {sum(soak.counts.values())}, g {soak.counts['g']} times")


def test_screen_keeps_a_lost_host():
    """A host killed while on the screen: its rows stay, dim, and the header
    says it is offline and why; it is tried again, and says why again, and
    while a try waits, why the last one ended."""
    f = fleet()
    f.start("tvgone")
    tm = screen()
    env = {k: v for k, v in f.env().items() if k.startswith("TASKVIEW_")}
    # columns saved by this machine's screen: HOST comes first all the same
    cfg = os.path.join(tm.home, "cfg", "taskview")
    os.makedirs(cfg, exist_ok=True)
    with open(os.path.join(cfg, "taskviewrc"), "w") as out:
        out.write("columns=pid,cpu,command\n")
    s = tm.start(["--host", "tvgone,web2", "-d", "0.5"], env=env)
    mute = socket.socket()
    mute.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        text = tm.wait(s, lambda t: rows_of(t, "tvgone") and rows_of(t, "web2"), "rows of tvgone and web2")
        check(any(line.split()[:2] == ["HOST", "PID"] and line.split()[2].startswith("CPU%")
                  for line in text.splitlines()),
              f"HOST, then the saved columns:\n{text}")
        os.killpg(f.hosts["tvgone"][1].pid, signal.SIGKILL)
        text = tm.wait(s, lambda t: re.search(r"tvgone offline, again in \d+ s: .*closed", t), "tvgone offline")
        check(rows_of(text, "tvgone") and rows_of(text, "web2"), f"both hosts' rows:\n{text}")
        # its next try finds no sshd: said as ssh says it
        tm.wait(s, lambda t: re.search(r"tvgone offline, again in \d+ s: .*Connection refused", t),
                "tvgone tried again", timeout=120)
        # a port that takes the connection and never answers: connecting, and why the last one ended
        end = time.monotonic() + 60
        while True:  # a connection going out may hold the port as its own for a moment
            try:
                mute.bind(("127.0.0.1", f.hosts["tvgone"][0]))
                break
            except OSError as e:
                check(time.monotonic() < end, f"tvgone's port: {e}")
                time.sleep(0.2)
        mute.listen()
        tm.wait(s, lambda t: re.search(r"tvgone connecting \d+ s, last: .*Connection refused", t),
                "tvgone connecting, with why the last try ended", timeout=120)
        # dim: SGR 2 (alone or among others) on the lines of tvgone's rows, on none of web2's
        sgr_dim = re.compile(r"\x1b\[(?:[0-9;]*;)?2(?:;[0-9;]*)?m")

        def dim_rows(text, host):
            return [line for line in text.splitlines() if host in line and sgr_dim.search(line)]
        end = time.monotonic() + 60
        while True:
            esc = tm.text(s, escapes=True)
            if dim_rows(esc, "tvgone") and not dim_rows(esc, "web2"):
                break
            check(time.monotonic() < end, f"tvgone's rows dim, web2's not:\n{esc!r}")
            time.sleep(0.2)
        check(rows_of(tm.text(s), "tvgone"), f"tvgone's rows stay:\n{tm.text(s)}")
    finally:
        tm.quit(s)
        mute.close()
        os.remove(os.path.join(cfg, "taskviewrc"))


def readme_lines():
    with open(os.path.join(os.environ["SOURCE_DIR"], "README.md")) as f:
        text = f.read()
    part = text[text.index("## Several hosts"):]
    block = re.search(r"```sh\n(.*?)```", part, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_readme_lines():
    """The README's lines for several hosts, exactly as written (web1, web2
    and db1 are this test's hosts, ~/fleet lists them)."""
    f = fleet()
    home = f.path("home")
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, "fleet"), "w") as out:
        out.write("# web servers\nweb1\nweb2\ndb1   # the database\n")
    env = {**f.env(), "HOME": home, "PATH": f"{os.path.dirname(os.path.abspath(TASKVIEW))}:{os.environ['PATH']}"}
    lines = readme_lines()
    check(len(lines) == 7, f"the README's lines: {lines}")
    for line in lines:
        if " -w " in line and " -b " not in line:
            # a recorder without -b: until stopped, once it holds two samples of each host
            path = os.path.join(home, line.split(" -w ")[1].split()[0])
            p = subprocess.Popen(["bash", "-c", "exec " + line], env=env, cwd=home, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                end = time.monotonic() + 120
                while True:
                    names = [fr[4] for fr in frames_of(path, growing=True)] if os.path.exists(path) else []
                    if all(names.count(h) >= 3 for h in ("web1", "web2", "db1")):
                        break
                    check(time.monotonic() < end and p.poll() is None, f"{line}: recorded so far: {names}")
                    time.sleep(0.2)
            finally:
                p.send_signal(signal.SIGTERM)
                out, err = p.communicate(timeout=60)
            check(out == "" and err == "", f"{line}: printed {out[:200]} {err[:300]}")
            continue
        if " -b " not in line:
            # the screen: as typed in a terminal (tmux), until each host's rows are there
            tm = screen()
            cmd = line.split("#")[0].split()
            check(cmd[0] == "taskview", f"{line}: runs taskview")
            s = tm.start(cmd[1:], env={**{k: v for k, v in env.items() if k.startswith("TASKVIEW_")}, "PATH": env["PATH"]},
                         cwd=home)
            try:
                def each(t):
                    return all(rows_of(t, h) for h in ("web1", "web2", "db1"))
                if " -r " in line:
                    # the recording from its first moment: f until each host's first pair was taken
                    text = tm.wait(s, lambda t: "Time:" in t, f"{line}: the first moment")
                    for _ in range(60):
                        if each(text):
                            break
                        tm.keys(s, "f")
                        text = tm.wait(s, lambda t, was=text: t != was or "end of the recording" in t,
                                       f"{line}: a step")
                    check(each(text), f"{line}: each host's rows:\n{text}")
                else:
                    # three handshakes and two samples each: a guard, not a measure, on a busy machine
                    tm.wait(s, each, f"{line}: each host's rows", timeout=120)
            finally:
                tm.quit(s)
            continue
        # pipefail: taskview's status, not jq's
        r = subprocess.run(["bash", "-o", "pipefail", "-c", line], capture_output=True, text=True, env=env,
                           timeout=300, stdin=subprocess.DEVNULL, cwd=home)
        check(r.returncode == 0, f"{line}: exit {r.returncode}: {r.stderr}")
        if "-p 1 -H" in line or line.startswith("taskview -r "):
            heads = [x.rsplit("; host ", 1)[-1] for x in r.stdout.splitlines() if x.startswith("taskview ")]
            check(sorted(heads) == ["db1", "web1", "web2"], f"{line}: a sample of each host: {heads}")
        elif "| jq" in line:
            rows = [x.split("\t") for x in r.stdout.splitlines()]
            check({x[0] for x in rows} == {"web1", "web2", "db1"} and all("sshd" in x[2] for x in rows),
                  f"{line}: host, PID and command of each sshd: {rows}")
        elif "openmetrics" in line:
            parts = [x for x in r.stdout.split("# EOF\n") if x.strip()]
            hosts = [set(re.findall(r'host="([^"]*)"', x)) for x in parts]
            check(sorted(map(sorted, hosts)) == [["db1"], ["web1"]], f"{line}: an exposition of each host: {hosts}")
            check(all(re.search(r'^taskview_group_cpu_seconds_total\{host="\w+",group=', x, re.M) for x in parts),
                  f"{line}: each host's groups' CPU:\n{r.stdout}")
        else:
            check(False, f"no check for the README line {line!r}: add one to test_hosts.py")


def test_bad_host_names():
    """A host that ssh would take for an option, or a second word, is refused."""
    for bad in ("-oProxyCommand=touch /tmp/x", "a b", "web1,,-x", "x\x1b[2J"):
        r = subprocess.run([TASKVIEW, "-b", "--host", bad], capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
        check(r.returncode == 2 and "not a host name" in r.stderr and "\x1b" not in r.stderr,
              f"--host {bad!r}: exit {r.returncode}: {r.stderr!r}")


def start_ticks(pid):
    """A process's start time in clock ticks since boot (/proc/PID/stat's 22nd field)."""
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[19])


def until_exec(pid, comm):
    """Waits until the process runs the program named comm (its wrapper has done its work)."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        with open(f"/proc/{pid}/comm") as f:
            if f.read().strip() == comm:
                return
        time.sleep(0.01)
    raise AssertionError(f"{pid} did not run {comm}")


NOBODY_WRAP = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def nices(pid):
    """The nice value of each thread of pid (/proc/PID/task/TID/stat's 19th field)."""
    out = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/stat") as f:
            out.append(int(f.read().rsplit(")", 1)[1].split()[16]))
    return out


def test_act_renices_every_thread():
    """taskview --act renice: every thread of the process steps from its own value, only while the
    PID is the process that started at the time given; at the limit, or as a user who may not, the
    reason, and nothing changes."""
    w = subprocess.Popen([os.path.abspath(WORKLOAD), "--name", "tvnice", "--sleepers", "2", "--seconds", "600"],
                         stdout=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 60
        while len(nices(w.pid)) < 3 and time.monotonic() < end:
            time.sleep(0.05)
        was = nices(w.pid)
        check(len(was) == 3, f"the workload's threads: {was}")
        start = start_ticks(w.pid)
        r = subprocess.run([TASKVIEW, "--act", f"renice:2:{w.pid}:{start + 1}"], capture_output=True, text=True,
                           timeout=60)
        check(r.returncode == 1 and "has exited" in r.stderr and nices(w.pid) == was,
              f"another start time: {r.returncode} {r.stderr!r} {nices(w.pid)}")
        # two up, or as far as the limit lets a suite run under nice
        up = min(2, 19 - max(was))
        if up:
            r = subprocess.run([TASKVIEW, "--act", f"renice:{up}:{w.pid}:{start}"], capture_output=True, text=True,
                               timeout=60)
            check(r.returncode == 0 and sorted(nices(w.pid)) == sorted(n + up for n in was),
                  f"every thread {up} up: {r.returncode} {r.stderr!r} {was} -> {nices(w.pid)}")
        else:
            print(f"     the suite runs at nice {max(was)}: no step up to check")
        # the main thread (listed first) at the limit, the others below it: the one at the limit is named
        tids = sorted(int(t) for t in os.listdir(f"/proc/{w.pid}/task"))
        os.setpriority(os.PRIO_PROCESS, tids[0], 19)
        r = subprocess.run([TASKVIEW, "--act", f"renice:1:{w.pid}:{start}"], capture_output=True, text=True, timeout=60)
        check(r.returncode == 1 and "at nice 19 already" in r.stderr, f"at the limit: {r.returncode} {r.stderr!r}")
        at = nices(w.pid)
        if is_root() and shutil.which("setpriv"):
            tv = reachable(os.path.abspath(TASKVIEW), user=65534)
            r = subprocess.run([*NOBODY_WRAP, tv, "--act", f"renice:-1:{w.pid}:{start}"], capture_output=True,
                               text=True, timeout=60)
            check(r.returncode == 1 and "another user" in r.stderr and nices(w.pid) == at,
                  f"as nobody: {r.returncode} {r.stderr!r} {nices(w.pid)}")
            # nobody's own process, one down: not without CAP_SYS_NICE (RLIMIT_NICE 0)
            own = subprocess.Popen([*NOBODY_WRAP, "sleep", "600"])
            try:
                # setpriv changes the user before it runs sleep: until then the PID is still root's
                until_exec(own.pid, "sleep")
                r = subprocess.run([*NOBODY_WRAP, tv, "--act", f"renice:-1:{own.pid}:{start_ticks(own.pid)}"],
                                   capture_output=True, text=True, timeout=60)
                check(r.returncode == 1 and "cannot lower the nice value" in r.stderr,
                      f"nobody lowers its own: {r.returncode} {r.stderr!r}")
            finally:
                own.kill()
                own.wait()
    finally:
        w.kill()
        w.wait()


def test_act_checks_the_process():
    """taskview --act (what k on the hosts' screen runs on a host): the signal reaches the process
    only while its PID is the process that started at the time given; refused with the reason when
    the PID is another process's by then, or when the user may not signal it."""
    victim = subprocess.Popen(["sleep", "600"])
    try:
        start = start_ticks(victim.pid)
        r = subprocess.run([TASKVIEW, "--act", f"signal:15:{victim.pid}:{start + 1}"], capture_output=True,
                           text=True, timeout=60)
        check(r.returncode == 1 and f"process {victim.pid} has exited" in r.stderr,
              f"another start time: {r.returncode} {r.stderr!r}")
        time.sleep(0.2)
        check(victim.poll() is None, "a process of another start time got the signal")
        if is_root() and shutil.which("setpriv"):
            tv = reachable(os.path.abspath(TASKVIEW), user=65534)
            r = subprocess.run([*NOBODY_WRAP, tv, "--act", f"signal:15:{victim.pid}:{start}"],
                               capture_output=True, text=True, timeout=60)
            check(r.returncode == 1 and "Operation not permitted" in r.stderr, f"as nobody: {r.returncode} {r.stderr!r}")
            time.sleep(0.2)
            check(victim.poll() is None, "nobody's signal reached root's process")
        r = subprocess.run([TASKVIEW, "--act", f"signal:15:{victim.pid}:{start}"], capture_output=True, text=True,
                           timeout=60)
        check(r.returncode == 0 and r.stderr == "", f"the process itself: {r.returncode} {r.stderr!r}")
        check(victim.wait(timeout=60) == -signal.SIGTERM, f"the process ended with {victim.returncode}")
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait()
    for bad in (["--act", "signal:15:abc:1"], ["--act", "kill:15:1:1"], ["--act", "signal:15:1"],
                ["--act", "signal:15:1:1:1"], ["--act", "signal:99:1:1"], ["--act", "signal:15:1:1", "-b"]):
        r = subprocess.run([TASKVIEW, *bad], capture_output=True, text=True, timeout=60)
        check(r.returncode == 2 and r.stderr.startswith("taskview: "), f"{bad}: {r.returncode} {r.stderr!r}")


def ns_child(p):
    """The child nsenter (Popen p) started: its PID here, and in its PID namespace."""
    end = time.monotonic() + 60
    while not children(p.pid):
        check(p.poll() is None, f"nsenter ended: {p.returncode}")
        check(time.monotonic() < end, f"nsenter ({p.pid}) started no child")
        time.sleep(0.02)
    kid = children(p.pid)[0]
    with open(f"/proc/{kid}/status") as f:
        nspid = [line.split()[1:] for line in f if line.startswith("NSpid:")]
    check(nspid, "no NSpid in /proc/PID/status (Linux 4.1 has it)")
    return kid, int(nspid[0][-1])


def older_taskview(f):
    """A taskview of a version before --act, as a remote runs it (the build's, but for --act)."""
    older = f.path("older-taskview")
    with open(older, "w") as o:
        o.write("#!/bin/sh\ncase \" $* \" in *\" --act \"*)\n"
                "  echo \"taskview: unknown option '--act'\" >&2\n"
                "  echo \"Try 'taskview --help' for more information.\" >&2; exit 2;;\nesac\n"
                f"exec {shlex.quote(os.path.abspath(TASKVIEW))} \"$@\"\n")
    os.chmod(older, 0o755)
    return older


def smaps_sizes(pid):
    """The Size (KiB) of each mapping of /proc/PID/smaps but [vsyscall] (which VmSize leaves out)."""
    out, name = [], ""
    with open(f"/proc/{pid}/smaps") as fh:
        for line in fh:
            words = line.split()
            if re.match(r"[0-9a-f]+-[0-9a-f]+ ", line):
                name = words[5] if len(words) > 5 else ""
            elif words[0] == "Size:" and name != "[vsyscall]":
                out.append(int(words[1]))
    return out


def test_screen_detail_of_a_host_process():
    """i on a host's process: the panel's address space is read there (taskview --act
    anatomy:PID:START over ssh): all it maps, what smaps says here of the same process, and a
    stack for each of its three threads; a remote user who may not read it gets the host's
    reason, a remote taskview without the action its own words."""
    f = fleet()
    tm = screen()
    sshd = f.sshd_pid("web1")
    procs = [p for p, cmd in ns_processes(sshd) if "--name tvhw" in cmd]
    check(len(procs) == 1, f"web1's tvhw: {procs}")
    outside = procs[0]
    with open(f"/proc/{outside}/status") as fh:
        pid = int(next(line for line in fh if line.startswith("NSpid:")).split()[-1])
    env = {k: v for k, v in f.env().items() if k.startswith("TASKVIEW_")}
    cases = [(env, None), ({**env, "TASKVIEW_REMOTE": older_taskview(f)},
                           "The address space by kind is unknown: taskview: unknown option '--act'.")]
    if shutil.which("setpriv"):
        tv = reachable(os.path.abspath(TASKVIEW), user=65534)
        cases.append(({**env, "TASKVIEW_REMOTE": " ".join(NOBODY_WRAP + [tv])},
                      "reading the process's mappings needs permission to trace it"))
    for case_env, refused in cases:
        s = tm.start(["--host", "web1", "-d", "0.5", "-F", "tvhw", "-o", "host,pid,command"], env=case_env, height=60)
        try:
            tm.wait(s, lambda t: [r[1] for r in rows_of(t, "web1")] == [str(pid)], f"web1's tvhw ({pid})")
            tm.keys(s, "Home", "i")
            tm.wait_for(s, "Process ID")
            tm.keys(s, "End")

            def words(t):
                return " ".join(x.strip("\u2502 ") for x in t.splitlines())
            if refused:
                text = tm.wait(s, lambda t: refused in words(t), "the host's reason")
                check("Mapped (maps)" not in text, f"figures though refused:\n{text}")
            else:
                # the host reads it again every 5 s while the panel is open: it comes to what smaps says
                text = tm.wait(s, lambda t: (m := re.search(r"Mapped \(maps\) +\S+ \((\d+) KiB\)", t)) and
                               int(m.group(1)) == sum(smaps_sizes(outside)), "the mapped total of smaps")
                check("stacks (3)" in text and "A fork copies" in words(text), f"a stack of each thread:\n{text}")
            tm.keys(s, "i")
            tm.wait_gone(s, "Process ID")
        finally:
            tm.quit(s)


def test_screen_kill_on_a_host():
    """k on the hosts' screen: the confirmation names the host, the host's own process gets the
    signal (it ends, seen from outside its namespace), and the answer comes on the status line; a
    remote user who may not signal it gets the remote's reason there."""
    f = fleet()
    tm = screen()
    sshd = f.sshd_pid("web1")
    env = {k: v for k, v in f.env().items() if k.startswith("TASKVIEW_")}
    # a taskview there of a version before --act: its own line is the reason, not its hint after it
    older = older_taskview(f)
    cases = [(env, "sent SIGTERM to {pid} \\(tvkill\\)", True),
             ({**env, "TASKVIEW_REMOTE": older}, "SIGTERM to {pid} \\(tvkill\\): taskview: unknown option '--act'$", False)]
    if shutil.which("setpriv"):
        tv = reachable(os.path.abspath(TASKVIEW), user=65534)
        cases.append(({**env, "TASKVIEW_REMOTE": " ".join(NOBODY_WRAP + [tv])}, "Operation not permitted", False))
    for case_env, answer, ends in cases:
        # a process of web1's own, started in its namespaces (nsenter waits for it, and reaps it)
        victim = subprocess.Popen(["nsenter", "-t", str(sshd), "-p", "-m", "-u", "--", os.path.abspath(WORKLOAD),
                                   "--name", "tvkill", "--seconds", "600"], stdout=subprocess.DEVNULL)
        victim_fd = s = None
        try:
            outside, pid = ns_child(victim)
            # signalled through a pidfd: once nsenter reaps it, its PID may be another process's
            victim_fd = os.pidfd_open(outside)
            s = tm.start(["--host", "web1", "-d", "0.5", "-F", "tvkill", "-o", "host,pid,command"], env=case_env)
            # its row, the only one: the process of a case before is gone (reaped)
            text = tm.wait(s, lambda t: [r[1] for r in rows_of(t, "web1")] == [str(pid)], f"web1's tvkill ({pid})")
            was = nices(outside)
            if ends and not (was and max(was) < 19):
                print(f"     F8 not checked: tvkill's nice {was} (the suite's)")
            if ends and was and max(was) < 19:
                # F8: nice one up from the value it started with (the suite may run under nice), every
                # thread of it, read from outside its namespace
                tm.keys(s, "Home", "F8")
                tm.wait(s, lambda t: re.search(f"web1: set nice \\+1 for {pid} \\(tvkill\\)", t), "the host's answer to F8")
                check(nices(outside) == [n + 1 for n in was], f"tvkill's nice: {was} -> {nices(outside)}")
            tm.keys(s, "Home", "k")
            tm.wait_for(s, "Send signal")
            tm.keys(s, "Enter")  # SIGTERM, the menu's default
            tm.wait(s, lambda t: f"Send SIGTERM to process {pid} (tvkill) on web1?" in t, "the confirmation")
            tm.keys(s, "y")
            text = tm.wait(s, lambda t: re.search("(?m)web1: .*" + answer.format(pid=pid), t), "the host's answer")
            if ends:
                victim.wait(timeout=60)  # nsenter ends with its child
                check(not ns_processes_pids(sshd, "--name tvkill"), f"tvkill still runs on web1:\n{text}")
            else:
                time.sleep(0.5)
                check(ns_processes_pids(sshd, "--name tvkill"), f"tvkill ended though refused:\n{text}")
        finally:
            if s:
                tm.quit(s)
            # the process first: nsenter reaps it and ends (killed first, nsenter left it to web1's
            # sshd to reap, and its zombie was a row of the next case)
            end_nsenter(victim, victim_fd)


def in_group_on(sshd, group_dir, name):
    """A workload of the host whose PID 1 is sshd (its namespaces), in the control group group_dir."""
    procs = os.path.join(group_dir, "cgroup.procs")

    def enter():
        with open(procs, "w") as f:
            f.write(str(os.getpid()))
    return subprocess.Popen(["nsenter", "-t", str(sshd), "-p", "-m", "-u", "--", os.path.abspath(WORKLOAD),
                             "--name", name, "--sleepers", "2", "--seconds", "600"],
                            stdout=subprocess.DEVNULL, preexec_fn=enter)


def end_nsenter(p, pidfd):
    """Its child first (through a pidfd; None: nsenter itself), then nsenter, which reaps it."""
    if pidfd is None:
        p.kill()
    else:
        try:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.close(pidfd)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def test_groups_of_each_host():
    """--host with --group cgroup: each host sends the control groups of its processes, each group
    with its host, its processes by their PIDs there and its own cpu.stat (read here before and
    after); a host with no process in a group sends no row of it."""
    f = fleet()
    from test_groups import Groups, cpu_usage, group_rows, need_root_mount
    mount = need_root_mount()
    sshd = f.sshd_pid("web1")
    with Groups(mount) as g:
        grp = g.make("app")
        victim = in_group_on(sshd, grp, "tvgrp")
        fd = None
        try:
            outside, pid = ns_child(victim)
            fd = os.pidfd_open(outside)
            before = cpu_usage(grp)
            r = f.run("-b", "--host", "web1,web2", "--group", "cgroup", "--format", "json", "-n", "2", "-d", "0.5")
            after = cpu_usage(grp)
        finally:
            end_nsenter(victim, fd)
    check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
    docs = json_lines(r.stdout)
    check(sorted(d["host"] for d in docs) == ["web1", "web1", "web2", "web2"], f"the hosts: {r.stdout[:300]}")
    rel = g.rel(grp)
    for d in docs:
        rows = group_rows(d)
        if d["host"] == "web2":
            check(rel not in rows, f"web2 has no process in {rel}: {sorted(rows)}")
            continue
        row = rows.get(rel)
        check(row and row["pids"] == [pid], f"web1's {rel} with tvgrp ({pid}): {row}")
        used = row["cpu_stat"]["usage_usec"]
        check(before is not None and before <= used <= after, f"its cpu.stat: {before} <= {used} <= {after}")


def test_screen_groups_of_a_host():
    """--host with --group cgroup on the screen: under a host's row its control groups, nested as
    there, and under each its processes; HOST names the host on every one of them."""
    f = fleet()
    tm = screen()
    from test_groups import Groups, need_root_mount
    mount = need_root_mount()
    sshd = f.sshd_pid("web1")
    env = {k: v for k, v in f.env().items() if k.startswith("TASKVIEW_")}
    with Groups(mount) as g:
        grp = g.make("app")
        victim = in_group_on(sshd, grp, "tvgrp")
        fd = s = None
        try:
            outside, pid = ns_child(victim)
            fd = os.pidfd_open(outside)
            top = os.path.basename(g.base)
            s = tm.start(["--host", "web1", "--group", "cgroup", "-F", "tvgrp", "-d", "0.5", "-o",
                          "host,pid,command"], env=env)
            # the host, its group, the nested one, its process, in this order: HOST web1 on each
            want = [r"^web1\s+-\s+[-+]?\s*(web1), \d+ CPU", rf"^web1\s+-\s+.*?({re.escape(top)})\s*$",
                    r"^web1\s+-\s+.*?\b(app)\s*$", rf"^web1\s+{pid}\s+.*?(/\S*tv-workload) --name tvgrp"]

            def rows(text):
                lines = [line for line in text.splitlines() if line.startswith("web1")]
                found = [re.search(w, line) for w, line in zip(want, lines)]
                return found if len(lines) == len(want) and all(found) else None
            text = tm.wait(s, rows, "web1, its groups and tvgrp under them")
            # nested: each one's COMMAND further right than its parent's
            at = [m.start(1) for m in rows(text)]
            check(at[0] < at[1] < at[2] < at[3], f"nested under web1's row ({at}):\n{text}")
        finally:
            if s:
                tm.quit(s)
            end_nsenter(victim, fd)


def frames_of(path, growing=False):
    """The frames of a recording: (offset, type, header length, payload length, host name or None);
    growing: the file is being written, and its last frame may be so far in part only."""
    with open(path, "rb") as fh:
        data = fh.read()
    out, off = [], 0
    while off + 36 <= len(data):
        check(data[off:off + 4] == b"\x89TVR", f"no frame at offset {off}")
        kind, hlen, plen = data[off + 4], int.from_bytes(data[off + 6:off + 8], "little"), \
            int.from_bytes(data[off + 8:off + 12], "little")
        if growing and off + hlen + plen > len(data):
            return out
        name = None
        if kind == 3:
            n = data[off + hlen]  # a name shorter than 128 bytes: one byte of length
            name = data[off + hlen + 1:off + hlen + 1 + n].decode()
        out.append((off, kind, hlen, plen, name))
        off += hlen + plen
    check(growing or off == len(data), f"the frames end at {off}, the file at {len(data)}")
    return out


def by_host(docs):
    out = {}
    for d in docs:
        out.setdefault(d["host"], []).append(d)
    return out


def test_record_replays_as_live():
    """-w with --host: every host's frames in one file; -r prints exactly
    what the live run printed (JSON, value for value, with each host's clock
    against this one's), text names each host, and -n counts each host's
    samples as live."""
    f = fleet()
    path = os.path.join(f.dir, "two.tvr")
    live = f.run("-b", "--host", "web1,web2", "--format", "json", "-n", "3", "-d", "0.5", "-w", path)
    check(live.returncode == 0, f"exit {live.returncode}: {live.stderr}")
    check(os.stat(path).st_mode & 0o777 == 0o640, f"mode {oct(os.stat(path).st_mode)}")
    frames = frames_of(path)
    check({fr[1] for fr in frames} == {3} and {fr[4] for fr in frames} == {"web1", "web2"},
          f"host frames of web1 and web2 only: {[(fr[1], fr[4]) for fr in frames]}")
    rep = f.run("-r", path, "-b", "--format", "json")
    check(rep.returncode == 0, f"replay: exit {rep.returncode}: {rep.stderr}")
    check(rep.stdout == live.stdout, f"the replay differs from the live run:\n{live.stdout[:400]}\n{rep.stdout[:400]}")
    check(sorted(by_host(json_lines(rep.stdout))) == ["web1", "web2"], "both hosts replayed")
    one = f.run("-r", path, "-b", "--format", "json", "-n", "1")
    # each host's first sample of the live run, in the order they came (one host may have
    # given two before the other's first, on a busy machine)
    firsts = list(dict.fromkeys(d["host"] for d in json_lines(live.stdout)))
    check(json_lines(one.stdout) == [next(d for d in json_lines(live.stdout) if d["host"] == h) for h in firsts],
          f"-n 1: the first sample of each host, as taken: {firsts} {one.stdout[:300]} {one.stderr}")
    text = f.run("-r", path, "-b", "-p", "1")
    heads = [line for line in text.stdout.splitlines() if line.startswith("taskview ")]
    check(text.returncode == 0 and len(heads) == 6 and {h.rsplit(" ", 1)[1] for h in heads} == {"web1", "web2"},
          f"text: {text.returncode} {text.stderr} {heads}")
    check(all(len([ln for ln in block.splitlines() if ln.strip()]) == 3 for block in text.stdout.split("\n\n")),
          f"-p 1 applies: each sample's header, column names and PID 1:\n{text.stdout[:600]}")


def test_remote_figures_as_the_host_shows_them():
    """A remote task's figures are what the same taskview shows on that host
    from the same samples: web1's frames, taken out of the viewer's recording
    as the file of one machine, replayed there (-r FILE -b, which prints what
    a live run printed), equal the viewer's JSON counter by counter."""
    f = fleet()
    path = os.path.join(f.dir, "figures.tvr")
    live = f.run("-b", "--host", "web1,web2", "--format", "json", "-o", "all", "-H", "-n", "3", "-d", "0.5",
                 "-w", path)
    check(live.returncode == 0, f"exit {live.returncode}: {live.stderr}")
    with open(path, "rb") as fh:
        data = fh.read()
    own = os.path.join(f.dir, "web1-own.tvr")
    with open(own, "wb") as out:
        for off, kind, hlen, plen, name in frames_of(path):
            if name == "web1":
                out.write(data[off + hlen + 1 + len(name):off + hlen + plen])  # the frame web1 sent
    there = f.run("-r", own, "-b", "--format", "json", "-o", "all", "-H")
    check(there.returncode == 0, f"web1's own replay: {there.returncode} {there.stderr}")
    want = json_lines(there.stdout)
    got = [d for d in json_lines(live.stdout) if d["host"] == "web1"]
    check(len(got) == len(want) == 3, f"three samples of web1: {len(got)} live, {len(want)} there")
    compared = 0
    for g, w in zip(got, want):
        check((g["timestamp"], g["interval"]) == (w["timestamp"], w["interval"]),
              f"the same samples: {g['timestamp']} {g['interval']}, there {w['timestamp']} {w['interval']}")
        tasks = [{k: v for k, v in t.items() if k != "host"} for t in g["tasks"]]
        check(tasks == w["tasks"], f"web1's tasks differ from what it shows:\n{tasks[:2]}\n{w['tasks'][:2]}")
        compared += sum(len(t) for t in tasks)
    print(f"     {compared} figures of web1's tasks, equal")


def test_record_damage_stays_with_its_host():
    """A damaged frame of one host loses that host's samples written against
    it, says so with the host's name, and leaves the other host's whole."""
    f = fleet()
    path = os.path.join(f.dir, "damaged.tvr")
    live = f.run("-b", "--host", "web1,web2", "--format", "json", "-n", "4", "-d", "0.5", "-w", path)
    check(live.returncode == 0, f"exit {live.returncode}: {live.stderr}")
    frames = frames_of(path)
    want = by_host(json_lines(live.stdout))

    def flip(at, copy):
        """A copy of the recording with the byte at `at` flipped, replayed."""
        damaged = os.path.join(f.dir, copy)
        shutil.copyfile(path, damaged)
        with open(damaged, "r+b") as fh:
            fh.seek(at)
            b = fh.read(1)
            fh.seek(at)
            fh.write(bytes([b[0] ^ 0xFF]))
        rep = f.run("-r", damaged, "-b", "--format", "json")
        check(rep.returncode == 0, f"replay: exit {rep.returncode}: {rep.stderr}")
        return by_host(json_lines(rep.stdout)), rep.stderr

    # each host's frames: its description, then samples 0 to 4 (4 pairs printed)
    # web1's third sample: the last byte of its payload (the frame web1 sent is damaged inside)
    off, _, hlen, plen, _ = [fr for fr in frames if fr[4] == "web1"][3]
    got, err = flip(off + hlen + plen - 1, "payload.tvr")
    check(got["web2"] == want["web2"], "web2's samples are all there, as live")
    # sample 2 is damaged, 3 and 4 are written against it: only sample 1 with 0 is left
    check(got["web1"] == want["web1"][:1], f"web1: {len(got['web1'])} samples, the first one of live")
    check(re.search(r"^taskview: web1: .*damaged", err, re.M) and "web2" not in err,
          f"the damage said, with web1's name only: {err}")
    # web2's fourth sample: a byte of the header around it (whose frame it is cannot be read)
    off = [fr for fr in frames if fr[4] == "web2"][4][0]
    got, err = flip(off + 10, "header.tvr")
    check(got["web1"] == want["web1"], "web1's samples are all there, as live")
    check(got["web2"] == want["web2"][:2], f"web2: {len(got['web2'])} samples, the first two of live")
    check(re.search(r"^taskview: web2: .*damaged", err, re.M) and "web1" not in err,
          f"the damage said, with web2's name only: {err}")


def test_record_without_b_until_stopped():
    """--host ... -w without -b: records until stopped, prints nothing, and
    a host that cannot be reached is said and tried again, not given up. A
    hang-up ignored when it started (nohup) stays ignored; SIGTERM ends it
    with whole frames in the file."""
    f = fleet()
    path = os.path.join(f.dir, "until.tvr")
    f.alias("tvclosed", free_port(), f.key)  # nothing listens there: refused at once
    errpath = os.path.join(f.dir, "until.err")
    with open(errpath, "w") as errf:
        p = subprocess.Popen([TASKVIEW, "--host", "web1,tvclosed,web2", "-d", "0.3", "-w", path],
                             stdout=subprocess.PIPE, stderr=errf, text=True, env=f.env(), stdin=subprocess.DEVNULL,
                             preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))

    def tried():
        with open(errpath) as fh:
            return re.findall(r"^taskview: tvclosed: .*\(tried again in \d+ s\)$", fh.read(), re.M)
    try:
        end = time.monotonic() + 120
        while True:  # two samples of each live host recorded, and tvclosed tried again twice
            names = [fr[4] for fr in frames_of(path, growing=True)] if os.path.exists(path) else []
            if names.count("web1") >= 4 and names.count("web2") >= 4 and len(tried()) >= 2:
                break
            check(time.monotonic() < end and p.poll() is None, f"recorded so far: {names}; said: {tried()}")
            time.sleep(0.2)
        p.send_signal(signal.SIGHUP)
        more = names.count("web1") + 2
        while [fr[4] for fr in frames_of(path, growing=True)].count("web1") < more:
            check(time.monotonic() < end and p.poll() is None, f"after SIGHUP, which it ignored: {p.poll()}")
            time.sleep(0.2)
    finally:
        p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=60)
    with open(errpath) as fh:
        err = fh.read()
    check(p.returncode == -signal.SIGTERM, f"ends as SIGTERM asks, its file synced and closed: {p.returncode} {err}")
    check(out == "", f"printed without -b: {out[:300]}")
    check(len(tried()) >= 2, f"tvclosed said and tried again: {err}")
    frames_of(path)  # whole frames only: what was written is complete
    rep = f.run("-r", path, "-b", "--format", "json", "-p", "1")
    got = by_host(json_lines(rep.stdout))
    check(sorted(got) == ["web1", "web2"] and all(len(v) >= 2 for v in got.values()),
          f"the replay: {rep.returncode} {rep.stderr} { {h: len(v) for h, v in got.items()} }")


def test_screen_over_a_recording():
    """-r FILE without -b of a recording of hosts: the hosts' screen at a
    moment of the recorder's clock. A host stopped while recording is stale
    at the end, its age growing, its rows kept; b steps back, d sets the
    step, J jumps; nothing is sent to the hosts."""
    f = fleet()
    f.start("tvpause")
    path = os.path.join(f.dir, "screen.tvr")
    p = subprocess.Popen([TASKVIEW, "--host", "web1,tvpause", "-d", "0.5", "-w", path], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=f.env(), stdin=subprocess.DEVNULL)
    pause = f.hosts["tvpause"][1].pid

    def count(host):
        return [fr[4] for fr in frames_of(path, growing=True)].count(host) if os.path.exists(path) else 0

    def until(pred, what):
        end = time.monotonic() + 120
        while not pred():
            check(time.monotonic() < end and p.poll() is None, f"recording: {what}")
            time.sleep(0.2)
    try:
        until(lambda: count("web1") >= 4 and count("tvpause") >= 4, "two samples of each host")
        # every process of its namespace (an ssh session is a process group of its own): it sends nothing more
        stop_namespace(f, "tvpause", signal.SIGSTOP)
        stopped, since = count("web1"), time.monotonic()
        until(lambda: count("web1") >= stopped + 8 and time.monotonic() - since >= 5, "web1 goes on for five seconds")
    finally:
        p.send_signal(signal.SIGTERM)
        rc = p.wait(timeout=60)
        stop_namespace(f, "tvpause", signal.SIGKILL)
        os.killpg(pause, signal.SIGKILL)
    check(rc == -signal.SIGTERM, f"the recorder ends as SIGTERM asks, its file closed: {rc}")
    tm = screen()
    s = tm.start(["-r", path], env={"LC_ALL": "C"})
    try:
        # the first moment a host has a pair: its rows (the other's may come a step later)
        text = tm.wait(s, lambda t: (rows_of(t, "web1") or rows_of(t, "tvpause")) and "Time:" in t,
                       "a host's rows at the first moment")
        first = re.search(r"Time:\s*(\S+ \S+)", text).group(1)
        # far past the end: the last moment, at which tvpause has sent nothing for four seconds
        tm.keys(s, "J", "2099-01-01 00:00", "Enter")

        def age(t):
            m = re.search(r"tvpause stale (\d+) s", t)
            return int(m.group(1)) if m else None
        # at least the four seconds web1 went on for, less a second of rounding and of the way
        text = tm.wait(s, lambda t: (age(t) or 0) >= 3 and rows_of(t, "tvpause"), "tvpause stale at the end, its rows kept")
        check(rows_of(text, "web1") and re.search(r"Hosts:\s*2: 1 live, 1 stale", text), f"web1 live:\n{text}")
        last = re.search(r"Time:\s*(\S+ \S+)", text).group(1)
        check(last > first, f"the end ({last}) after the start ({first})")
        tm.keys(s, "f")
        tm.wait_for(s, "this is the end of the recording")
        # b, twice: a second back or more (to the last moment before the pairs on screen came), its age less
        was = age(text)
        tm.keys(s, "b", "b")
        tm.wait(s, lambda t: (age(t) or was) < was and "stepping 0.5 s" in t, f"back from stale {was} s")
        # a replay acts on no host
        tm.keys(s, "k")
        tm.wait_for(s, "a replay cannot send signals")
        tm.keys(s, "J", first, "Enter")
        tm.wait(s, lambda t: re.search(r"Time:\s*" + re.escape(first), t), "back at the first moment")
        tm.keys(s, "b")
        tm.wait_for(s, "this is the start of the recording")
        # a step of 2 s: each host's rates over four of its samples, the first moment later
        tm.keys(s, "d")
        tm.wait_for(s, "Step in seconds:")
        tm.keys(s, "BSpace", "BSpace", "BSpace", "2", "Enter")
        tm.wait(s, lambda t: "stepping 2 s" in t and re.search(r"Step:\s*2 s", t), "a step of 2 s")
    finally:
        tm.quit(s)


def test_record_refusals():
    """What -w and -r with --host refuse, and why."""
    f = fleet()
    r = f.run("-b", "--host", "web1", "-w", f.dir)
    check(r.returncode == 1 and "is a directory: the hosts are recorded into one file" in r.stderr,
          f"-w DIR: {r.returncode} {r.stderr}")
    r = f.run("--host", "web1", "-r", os.path.join(f.dir, "two.tvr"))
    check(r.returncode == 2 and "a recording of hosts replays them all" in r.stderr, f"-r: {r.returncode} {r.stderr}")


def test_stream_ends_with_its_input():
    """--stream writes a recording until its standard input closes."""
    p = subprocess.Popen([TASKVIEW, "--stream", "-d", "0.2", "-p", str(os.getpid())], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = p.stdout.read(4)
    p.stdin.close()
    try:
        rc = p.wait(timeout=60)
    finally:
        p.kill()
    check(head == b"\x89TVR", f"the stream starts with a frame: {head!r}")
    check(rc == 0, f"exit {rc}: {p.stderr.read()!r}")
    r = subprocess.run([TASKVIEW, "--stream", "-b"], capture_output=True, text=True, timeout=60)
    check(r.returncode == 2 and "--stream" in r.stderr, f"--stream -b: {r.returncode} {r.stderr}")


if __name__ == "__main__":
    try:
        sys.exit(main([test_bad_host_names, test_stream_ends_with_its_input, test_every_task_with_its_host,
                       test_machine_of_each_host,
                       test_text_and_selection_travel, test_metrics_with_their_host, test_textfile_of_every_host,
                       test_hosts_file,
                       test_failing_hosts_say_why, test_stopped_host_is_given_up, test_thirty_two_hosts,
                       test_host_lost_mid_stream_comes_back, test_stream_of_an_older_version,
                       test_screen_merges_the_hosts, test_screen_columns_with_host, test_screen_host_rows,
                       test_screen_host_machine, test_act_checks_the_process, test_act_renices_every_thread,
                       test_screen_kill_on_a_host, test_screen_detail_of_a_host_process, test_groups_of_each_host,
                       test_screen_groups_of_a_host,
                       test_record_replays_as_live, test_remote_figures_as_the_host_shows_them,
                       test_record_damage_stays_with_its_host,
                       test_record_without_b_until_stopped, test_record_refusals, test_screen_over_a_recording,
                       test_screen_random_keys, test_screen_keeps_a_lost_host, test_readme_lines]))
    finally:
        if SCREEN:
            SCREEN.kill_server()
        if FLEET:
            FLEET.stop()
