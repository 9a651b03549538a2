#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the seed corpus of the fuzz harnesses (tests/fuzz/corpus/TARGET/)
from this machine's real /proc files and taskstats replies, plus a few
hostile samples. Run it again to refresh the seeds; the harnesses' input
formats (a prefix of option bytes, then the data) are described in each
harness.

Usage: seeds.py [OUTDIR]   (default: corpus/ next to this script; taskstats
seeds need CAP_NET_ADMIN and are left as they are without it)
"""
import os
import socket
import struct
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def kernel_thread():
    """A kernel thread's pid (no cmdline, no Vm* lines)."""
    for pid in sorted(int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            if read(f"/proc/{pid}/cmdline") == b"" and pid != os.getpid():
                return pid
        except OSError:
            continue
    return 2


HOSTILE = [
    b"a\x1b[2J) R (\n\xe9",
    "x\u00ad\u0600\u0378\u202etxt\u2028\u0085".encode(),
    b"\xf0\x9f\x98\x80\xe6\x97\xa5\xcc\x81\xff\xc0\xaf\xed\xa0\x80",
    b"\\n\\x07\x7f\xc2\x9b2J",
]


def proc_seeds():
    import subprocess
    kt = kernel_thread()
    # a plain process: its files say nothing about this machine
    p = subprocess.Popen(["sleep", "30"])
    try:
        proc_files(p.pid, kt)
    finally:
        p.kill()
        p.wait()


def proc_files(pid, kt):
    put("proc_stat", "sleep", read(f"/proc/{pid}/stat"))
    put("proc_stat", "kthread", read(f"/proc/{kt}/stat"))
    put("proc_stat", "hostile", b"4321 (a) R (\n) x) S 1 1 1 0 -1 4194304 99 0 0 0 12345 678 0 0 -51 -20 17 0 "
                                b"18446744073709551615 3133440 406 0\n")
    put("maps", "sleep", read(f"/proc/{pid}/maps"))
    put("maps", "hostile", b"7f3e7bfff000-7f3e7c000000 ---p 00000000 00:00 0\n"
                           b"7f3e7c000000-7f3e7c800000 rw-p 00000000 00:00 0 [anon:\x1b[31m\xff]\n"
                           b"ffffffffffffffff-0 rw-p 0 0 0\n7f3e74000000-7f3e74021000 rw-p 0 00:00 0\n"
                           b"7f3e74021000-7f3e78000000 ---p 0 00:00 0\n0-ffffffffffffffff ---p 0 00:00 18446744073709551615\n")
    put("proc_status", "sleep", read(f"/proc/{pid}/status"))
    put("proc_status", "kthread", read(f"/proc/{kt}/status"))
    put("proc_status", "extremes", b"Name:\ta\\nb\\\\\nVmSize:\t9223372036854775807 kB\n"
                                   b"VmRSS:\t-9223372036854775808 kB\nVmPTE:\t18446744073709551616 kB\n")
    put("proc_cmdline", "sleep", b"\xff\x01" + read(f"/proc/{pid}/cmdline"))
    put("proc_cmdline", "small", b"\x08\x00sh\0-c\0\0echo \xe2\x82\xac\0\0")
    put("system", "stat", b"\x00" + read("/proc/stat"))
    put("system", "meminfo", b"\x01" + read("/proc/meminfo"))
    put("system", "loadavg", b"\x02" + read("/proc/loadavg"))
    put("system", "uptime", b"\x03" + read("/proc/uptime"))
    # strtod took these: an infinite or huge uptime or load average
    put("system", "uptime-exponent-inf", b"\x031e999 1\n")
    put("system", "uptime-huge", b"\x039e300 0\n")
    put("system", "loadavg-hex-inf", b"\x020x1p99999 0.1 0.2 1/2 3\n")


def text_seeds():
    for i, h in enumerate(HOSTILE):
        put("text", f"hostile{i}", b"\x10\x01" + h)
        put("text", f"ascii{i}", b"\xff\x00" + h)
        put("json_string", f"hostile{i}", h)
        put("om_label", f"hostile{i}", h)
    put("text", "own", b"\x20\x03\\, F4\x1b[2J")


def settings_seeds():
    put("settings", "good", b"# comment\nversion=1\ncolumns = pid, user,cpu ,command\nsort=vm_rss\n"
                            b"reverse=1\ndelay=2.5\r\nthreads=false\n")
    put("settings", "newer", b"version=7\ncolumns=pid,future_col\nsort=cpu\ndelay=fast\nfuture=a=b\n")
    put("settings", "broken", b"garbage\n=\nversion=x\ncolumns=\x01\n\x00binary\ndelay=-1\n")


def option_seeds():
    put("options", "pids", b"\x001,2,3,4194304,2")
    put("options", "columns", b"\x01pid, cpu ,command,vm_pte")
    put("options", "number", b"\x020.5")
    put("options", "filter", b"\x03BaSh -c bash")


def format_seeds():
    for i, (t, w, flags, v) in enumerate([(0, 7, 1, struct.pack("<q", 2**63 - 1)),
                                          (1, 6, 1, struct.pack("<q", 812)),
                                          (3, 5, 2, struct.pack("<d", 123456.7)),
                                          (5, 9, 0, struct.pack("<d", 4.25)),
                                          (7, 6, 0, struct.pack("<d", 1e300))]):
        put("format", f"v{i}", bytes([t, w, flags]) + v)


def nl_attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, kind) + payload + b"\0" * ((4 - n % 4) % 4)


def nl_request(sock, kind, flags, seq, cmd, attrs):
    body = struct.pack("=BBH", cmd, 1, 0) + attrs
    sock.send(struct.pack("=IHHII", 16 + len(body), kind, flags, seq, 0) + body)
    return sock.recv(65536)


def taskstats_seeds():
    try:
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)  # NETLINK_GENERIC
        s.bind((0, 0))
        # CTRL_CMD_GETFAMILY for "TASKSTATS" from the generic netlink controller (0x10)
        r = nl_request(s, 0x10, 1, 1, 3, nl_attr(2, b"TASKSTATS\0"))
        family = None
        off = 20
        while off + 4 <= len(r):
            n, kind = struct.unpack_from("=HH", r, off)
            if kind == 1 and n >= 6:  # CTRL_ATTR_FAMILY_ID
                family = struct.unpack_from("=H", r, off + 4)[0]
            if n < 4:
                break
            off += (n + 3) & ~3
        if family is None:
            raise OSError("no TASKSTATS family")
        fam = struct.pack("<H", family)
        pid = os.getpid()
        # TASKSTATS_CMD_GET with a PID, a TGID, and a PID that does not exist
        put("taskstats", "pid", fam + nl_request(s, family, 1, 2, 1, nl_attr(1, struct.pack("=I", pid))))
        put("taskstats", "tgid", fam + nl_request(s, family, 1, 3, 1, nl_attr(2, struct.pack("=I", pid))))
        put("taskstats", "error", fam + nl_request(s, family, 1, 4, 1, nl_attr(1, struct.pack("=I", 2**31 - 1))))
    except OSError as e:
        print(f"taskstats seeds not refreshed: {e}", file=sys.stderr)


def zstd_prefix_outputs(chunks):
    """What `zstd -d` gives for each prefix of a block's chunks: each chunk
    was flushed, so a prefix decodes to the samples it holds."""
    import subprocess
    outs = []
    for i in range(1, len(chunks) + 1):
        r = subprocess.run(["zstd", "-d", "-c", "-q"], input=b"".join(chunks[:i]), capture_output=True)
        outs.append(r.stdout)
    return outs


def record_seeds():
    """From the recording kept in tests/data: its schema and the first
    samples of its block, decompressed (with the zstd tool)."""
    rec = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "recording-v1.tvr")
    try:
        data = read(rec)
        off, schema, chunks = 0, None, []
        while off + 36 <= len(data):
            kind, hlen, length = data[off + 4], struct.unpack_from("<H", data, off + 6)[0], \
                struct.unpack_from("<I", data, off + 8)[0]
            payload = data[off + hlen: off + hlen + length]
            if kind == 1 and schema is None:
                schema = payload
            elif kind == 2 and len(chunks) < 3:
                chunks.append(payload)
            off += hlen + length
        outs = zstd_prefix_outputs(chunks)
        samples = [outs[0]] + [outs[i][len(outs[i - 1]):] for i in range(1, len(outs))]
        if not schema or len(samples) < 3 or not all(samples):
            raise OSError("no schema or samples")
        head = struct.pack("<I", len(schema)) + schema
        put("record", "first_two", head + struct.pack("<I", len(samples[0])) + samples[0] + samples[1])
        put("record", "whole_only", head + struct.pack("<I", len(samples[0])) + samples[0])
        put("record", "later_pair", head + struct.pack("<I", len(samples[0])) + samples[0] + samples[2])
    except (OSError, FileNotFoundError) as e:
        print(f"record seeds not refreshed: {e}", file=sys.stderr)


def main():
    record_seeds()
    proc_seeds()
    text_seeds()
    settings_seeds()
    option_seeds()
    format_seeds()
    taskstats_seeds()


if __name__ == "__main__":
    main()
