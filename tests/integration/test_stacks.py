# SPDX-License-Identifier: GPL-2.0-or-later
"""Thread stacks (stack_size, stack_rss) on a workload whose stack use is known."""
import json
import os
import resource
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from tvtest import TASKVIEW, Workload, check, is_root, main, run_json, Skip  # noqa: E402

DEPTHS = (64, 1024, 4096)  # KiB each stk-N thread touches of its default stack
SMALL = 256                 # KiB of the one pthread_attr_setstacksize stack
IDLE = 200
SLACK = 32                  # KiB above the depth: the thread's first frames, its TLS and descriptor
COLS = "pid,comm,stack_size,stack_rss"


def workload(user=None):
    return Workload("--stacks", ",".join(str(d) for d in DEPTHS) + ",0", "--small-stack", str(SMALL),
                    "--idle", str(IDLE), user=user)


def last_sample(w, *extra, user=None):
    docs = run_json("-H", "-p", str(w.pid), "-d", "0.2", "-o", COLS, *extra, user=user)
    return docs[-1]


def rows(doc, pid):
    procs = [t for t in doc["tasks"] if t["kind"] == "process"]
    threads = [t for t in doc["tasks"] if t["kind"] == "thread"]
    check(len(procs) == 1 and procs[0]["pid"] == pid, f"one process row for {pid}: {procs}")
    return procs[0], threads


def mapping_kib(pid, name):
    """The size of the mapping named name ("[stack]", "[heap]"), read here from maps,
    independently of taskview; None when there is none."""
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            if line.rstrip().endswith(" " + name):
                lo, hi = line.split()[0].split("-")
                return (int(hi, 16) - int(lo, 16)) // 1024
    return None


def main_stack_kib(pid):
    kib = mapping_kib(pid, "[stack]")
    check(kib is not None, "no [stack] mapping")
    return kib


def test_known_stacks():
    """Each thread's reservation exact, its resident pages within a few of what it touched."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
    if soft == resource.RLIM_INFINITY:
        raise Skip("RLIMIT_STACK is unlimited: glibc's default stack size is then its own")
    default = soft // 1024
    with workload() as w:
        # the second sample reads resident pages in mappings found in the first
        for n in ("1", "3"):
            doc = last_sample(w, "-n", n)
            proc, threads = rows(doc, w.pid)
            check(len(threads) == 1 + len(DEPTHS) + 2 + IDLE, f"threads: {len(threads)}")
            tid = {v: k for k, v in w.threads.items()}
            for t in threads:
                size, rss = t["stack_size"], t["stack_rss"]
                name = tid.get(t["pid"], "main" if t["pid"] == w.pid else "stk-idle")
                if name == "main":
                    check(abs(size - main_stack_kib(w.pid)) <= 4, f"main: {size} KiB, maps says "
                          f"{main_stack_kib(w.pid)}")
                    check(0 < rss <= size, f"main: {rss} of {size}")
                    continue
                want_size = SMALL if name == "stk-small" else default
                check(size == want_size, f"{name} ({t['pid']}): reserved {size} KiB, expected {want_size}")
                depth = int(name[4:]) if name[4:].isdigit() else 0
                check(depth <= rss <= depth + SLACK,
                      f"{name} ({t['pid']}): resident {rss} KiB after touching {depth} KiB")
            check(proc["stack_size"] == sum(t["stack_size"] for t in threads),
                  f"process stack_size {proc['stack_size']} is not its threads' sum")
            check(proc["stack_rss"] == sum(t["stack_rss"] for t in threads),
                  f"process stack_rss {proc['stack_rss']} is not its threads' sum")
            check(proc["partial"] == [], f"every thread was read, yet marked: {proc['partial']}")
            # 1,000 idle-like threads reserve ~8 GiB; here: the defaults against what they use
            check(proc["stack_size"] >= (len(DEPTHS) + 1 + IDLE) * default,
                  f"process reserves {proc['stack_size']} KiB")
            check(proc["stack_rss"] < sum(DEPTHS) + (IDLE + 8) * SLACK,
                  f"process resident {proc['stack_rss']} KiB")


def test_sorted_by_stack_not_shown():
    """Sorting by stack_rss reads stacks even when no stack column is shown: the deepest first."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    with workload() as w:
        doc = run_json("-H", "-p", str(w.pid), "-s", "stack_rss", "-o", "pid,comm")[-1]
        order = [t["pid"] for t in doc["tasks"] if t["kind"] == "thread"][:3]
        want = [w.threads[f"stk-{d}"] for d in sorted(DEPTHS, reverse=True)]
        check(order == want, f"threads by stack_rss: {order}, expected {want}")


def growth_run(w, tid):
    """The stack_rss of thread tid in samples at -d 0.3; the workload (--grow-signal)
    grows its stacks once a sample has found the stack, and the run ends at the first
    sample that shows 2 MiB or more: a busy machine may bring either at any time, so
    no time is assumed (200 samples at most, a guard)."""
    p = subprocess.Popen([TASKVIEW, "-b", "--format", "json", "-H", "-p", str(w.pid), "-d", "0.3", "-n", "200",
                          "-o", COLS], stdout=subprocess.PIPE, text=True)

    def rss_of(doc):
        return next(t["stack_rss"] for t in doc["tasks"] if t["pid"] == tid)

    try:
        # until a sample has found the thread's stack (one found running at each look has none yet)
        docs = []
        for line in p.stdout:
            docs.append(json.loads(line))
            if rss_of(docs[-1]) is not None:
                break
        os.kill(w.pid, signal.SIGUSR1)
        signalled = len(docs)
        for line in p.stdout:
            docs.append(json.loads(line))
            if (rss_of(docs[-1]) or 0) >= 2048:
                break
    finally:
        p.terminate()
        p.wait(timeout=60)
    check(len(docs) > signalled, f"samples after the stack grew: {len(docs)}, {signalled} before")
    rss = [rss_of(d) for d in docs]
    known = [r for r in rss if r is not None]
    check(known and rss[-1] is not None, f"the stack found: {rss}")
    return docs, known


def test_growth_seen():
    """A thread that touches more of its stack is seen to, in the same run: the
    refreshes in between, where nothing ran, read no thread at all."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    with Workload("--stacks", "1024", "--idle", "20", "--grow-signal") as w:
        tid = w.threads["stk-1024"]
        docs, rss = growth_run(w, tid)
        check(1024 <= rss[0] <= 1024 + SLACK, f"before growing: {rss[0]} KiB")
        check(2048 <= rss[-1] <= 2048 + SLACK, f"after growing to 2 MiB: {rss[-1]} KiB (all: {rss})")
        proc = [t for t in docs[-1]["tasks"] if t["kind"] == "process"][0]
        threads = [t for t in docs[-1]["tasks"] if t["kind"] == "thread"]
        check(proc["stack_rss"] == sum(t["stack_rss"] for t in threads), "sum after growth")


def test_growth_seen_while_running():
    """Threads that run all the time, touching no new page, are not counted again, yet a
    thread that grows its stack (a page fault) is seen to in the same run."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    with Workload("--stacks", "1024", "--idle", "20", "--grow-signal", "--wake-ms", "20") as w:
        tid = w.threads["stk-1024"]
        docs, rss = growth_run(w, tid)
        check(1024 <= rss[0] <= 1024 + SLACK, f"before growing: {rss[0]} KiB")
        check(2048 <= rss[-1] <= 2048 + SLACK, f"after growing to 2 MiB: {rss[-1]} KiB (all: {rss})")
        # a thread found running at each look has no stack yet (likelier on a busy machine): the others'
        idle = [t for t in docs[-1]["tasks"] if t["kind"] == "thread" and t["pid"] not in (w.pid, tid)]
        known = [t for t in idle if t["stack_size"] is not None]
        check(len(idle) == 20 and known and all(0 < t["stack_rss"] <= SLACK for t in known),
              f"the idle threads that wake: {[(t['pid'], t['stack_rss']) for t in idle]}")


def test_growth_seen_rss_even():
    """A thread that frees as much anonymous memory as its stack grows leaves RssAnon the
    same: the page faults of the growth show it."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    with Workload("--stacks", "1024", "--idle", "20", "--grow-signal", "--grow-even") as w:
        tid = w.threads["stk-1024"]
        docs, rss = growth_run(w, tid)
        check(1024 <= rss[0] <= 1024 + SLACK, f"before growing: {rss[0]} KiB")
        check(2048 <= rss[-1] <= 2048 + SLACK, f"after growing to 2 MiB: {rss[-1]} KiB (all: {rss})")


def test_unknown_without_permission():
    """As nobody, another user's stacks are unknown (null), never 0, and not marked."""
    if not is_root():
        raise Skip("needs root to switch to nobody")
    with workload() as w:
        doc = last_sample(w, user=65534)
        proc, threads = rows(doc, w.pid)
        check(len(threads) == 1 + len(DEPTHS) + 2 + IDLE, f"threads: {len(threads)}")
        for t in [proc, *threads]:
            check(t["stack_size"] is None and t["stack_rss"] is None, f"as nobody: {t}")
        check(proc["partial"] == [], f"unknown is not a lower bound: {proc['partial']}")
        # text output: "-"
        from tvtest import run
        r = run("-b", "-p", str(w.pid), "-o", "pid,stack_size,stack_rss", user=65534)
        line = [ln for ln in r.stdout.splitlines() if ln.split()[:1] == [str(w.pid)]]
        check(line and line[0].split()[1:] == ["-", "-"], f"text as nobody: {r.stdout}")


def test_own_process_as_user():
    """A user reads the stacks of its own process (same uid, no ptrace restriction here)."""
    if not is_root():
        raise Skip("needs root to switch to nobody")
    with workload(user=65534) as w:
        doc = last_sample(w, user=65534)
        proc, threads = rows(doc, w.pid)
        small = [t for t in threads if t["pid"] == w.threads["stk-small"]]
        check(small and small[0]["stack_size"] == SMALL, f"stk-small as its owner: {small}")
        check(proc["stack_size"] is not None, f"process as its owner: {proc}")


def smaps_ranges(pid):
    """[(lo, hi, Rss KiB)] of every mapping, from smaps: the kernel's own count of resident pages."""
    out = []
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            head = line.split()[0]
            if "-" in head and not head.endswith(":"):
                lo, hi = (int(x, 16) for x in head.split("-"))
                out.append([lo, hi, None])
            elif head == "Rss:" and out:
                out[-1][2] = int(line.split()[1])
    return out


def test_every_stack_matches_smaps():
    """Each thread's STACK and STKRES are the Size and Rss smaps gives the mapping that holds its
    stack pointer: every byte counted once, for each of the threads (a resident figure once
    counted a thread's 64 KiB twice)."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    with workload() as w:
        tids = [int(t) for t in os.listdir(f"/proc/{w.pid}/task")]
        sps = {}
        for tid in tids:
            with open(f"/proc/{w.pid}/task/{tid}/syscall") as f:
                fields = f.read().split()
            if len(fields) > 2:
                sps[tid] = int(fields[-2], 16)
        before = smaps_ranges(w.pid)
        proc, threads = rows(last_sample(w, "-n", "3"), w.pid)
        after = smaps_ranges(w.pid)
        compared = 0
        for t in threads:
            sp = sps.get(t["pid"])
            held = [(a, b) for a, b in zip(before, after) if sp is not None and a[0] <= sp < a[1]]
            if not held or held[0][0] != held[0][1]:
                continue  # running when read, or its stack changed meanwhile
            lo, hi, rss = held[0][0]
            check(t["stack_size"] == (hi - lo) // 1024 and t["stack_rss"] == rss,
                  f"{t['comm']} {t['pid']}: {t['stack_size']}/{t['stack_rss']} KiB, smaps {(hi - lo) // 1024}/{rss}")
            compared += 1
        check(compared >= len(threads) - 2, f"threads compared with smaps: {compared} of {len(threads)}")


def test_moved_stack_seen():
    """A thread that moves to another stack (here a signal stack it stays on, as a thread stays on
    a coroutine's) is seen on it in the same run: its STACK and STKRES become the new mapping's
    Size and Rss in smaps (they kept the old stack's for the rest of the run)."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    with Workload("--move-stack") as w:
        tid = w.threads["stk-move"]
        docs, rss = growth_run(w, tid)
        check(rss[0] <= SLACK, f"before moving: {rss[0]} KiB on its own stack")
        with open(f"/proc/{w.pid}/task/{tid}/syscall") as f:
            sp = int(f.read().split()[-2], 16)
        held = [m for m in smaps_ranges(w.pid) if m[0] <= sp < m[1]]
        check(len(held) == 1, f"the mapping of its stack pointer {sp:#x}: {held}")
        lo, hi, smaps_rss = held[0]
        row = next(t for t in docs[-1]["tasks"] if t["pid"] == tid)
        check(row["stack_size"] == (hi - lo) // 1024 and row["stack_size"] >= 64 * 1024,
              f"after moving: STACK {row['stack_size']} KiB, the 64 MiB mapping is {(hi - lo) // 1024} KiB")
        check(4096 <= row["stack_rss"] <= 4096 + SLACK and abs(row["stack_rss"] - smaps_rss) <= 8,
              f"after moving: STKRES {row['stack_rss']} KiB, 4096 touched, smaps {smaps_rss}")


def test_shared_mapping_counted_once():
    """Four stacks carved from one mapping (as a runtime carves them) are split at their threads'
    stack pointers: each byte once, so the threads' STACK and STKRES add up to the mapping's Size
    and Rss in smaps (each thread showed the whole mapping), and each keeps the pages it touched."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    with Workload("--shared-stacks", "4") as w:
        tids = [w.threads[f"stk-sh-{i}"] for i in range(1, 5)]
        sps = []
        for tid in tids:
            # "running" while the thread runs (a busy machine may catch it at it): read again
            end = time.monotonic() + 30
            while True:
                with open(f"/proc/{w.pid}/task/{tid}/syscall") as f:
                    fields = f.read().split()
                if len(fields) >= 2 or time.monotonic() > end:
                    break
                time.sleep(0.01)
            sps.append(int(fields[-2], 16))
        for n in ("1", "3"):
            before = smaps_ranges(w.pid)
            proc, threads = rows(last_sample(w, "-n", n), w.pid)
            after = smaps_ranges(w.pid)
            held = [m for m in before if m[0] <= min(sps) and max(sps) < m[1]]
            check(held and held == [m for m in after if m[0] <= min(sps) and max(sps) < m[1]],
                  f"one mapping holds the four stacks, the same before and after: {held}")
            lo, hi, rss = held[0]
            mine = [t for t in threads if t["pid"] in tids]
            check(len(mine) == 4 and all(t["stack_size"] is not None for t in mine), f"the four: {mine}")
            check(sum(t["stack_size"] for t in mine) == (hi - lo) // 1024 and sum(t["stack_rss"] for t in mine) == rss,
                  f"the four add up to the mapping ({(hi - lo) // 1024} KiB, {rss} resident): {mine}")
            check(all(t["stack_rss"] >= 16 for t in mine), f"each has the 16 KiB it touched: {mine}")
            check(proc["stack_size"] == sum(t["stack_size"] for t in threads), f"the process: {proc}")


def test_stacks_after_execve():
    """A process that runs execve keeps its PID and start time and gets a new address space: the
    stacks are found again in it (the pagemap kept open was the old one's, and every later
    refresh showed -)."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    with Workload("--stacks", "64", "--exec-ms", "1000") as w:
        tv = subprocess.Popen([TASKVIEW, "-b", "--format", "json", "-H", "-p", str(w.pid), "-d", "0.3", "-n", "1000",
                               "-o", COLS], stdout=subprocess.PIPE, text=True)
        try:
            again = json.loads(w.proc.stdout.readline())  # the new image's ready line
            ran_again = time.time()
            docs = []
            while len([d for d in docs if d["timestamp"] > ran_again]) < 3:
                line = tv.stdout.readline()
                check(line, "taskview ended early")
                docs.append(json.loads(line))
        finally:
            tv.terminate()
            tv.wait(timeout=60)
        check(again["pid"] == w.pid, f"the same process: {again}")
        for d in [d for d in docs if d["timestamp"] > ran_again][1:]:
            proc, threads = rows(d, w.pid)
            mine = [t for t in threads if t["pid"] == again["threads"]["stk-64"]]
            check(proc["stack_size"] is not None and mine and mine[0]["stack_size"] is not None
                  and mine[0]["stack_rss"] >= 64, f"after execve: {proc}, {mine}")


def test_heap_is_no_stack():
    """A thread on a stack the program allocated in its heap (as a coroutine's is) has no stack
    figures: unknown, never the heap's size, and the process's sum is marked as a lower bound."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    with Workload("--stacks", "64", "--heap-stack") as w:
        tid = w.threads["stk-heap"]
        with open(f"/proc/{w.pid}/task/{tid}/syscall") as f:
            sp = int(f.read().split()[-2], 16)
        check(mapping_kib(w.pid, "[heap]") is not None, "the workload has a heap")
        for n in ("1", "3"):
            proc, threads = rows(last_sample(w, "-n", n), w.pid)
            heap = [t for t in threads if t["pid"] == tid]
            heap_kib = mapping_kib(w.pid, "[heap]")
            check(heap and heap[0]["stack_size"] is None and heap[0]["stack_rss"] is None,
                  f"the thread on the heap (stack pointer {sp:#x}, heap {heap_kib} KiB): {heap}")
            known = [t for t in threads if t["pid"] != tid]
            check(all(t["stack_size"] is not None for t in known), f"the others: {known}")
            check(proc["stack_size"] == sum(t["stack_size"] for t in known) and "stack_size" in proc["partial"],
                  f"the process: the others' sum, a lower bound: {proc}")


def test_recorded_and_replayed():
    """A recording keeps the stacks; a file written before them replays them unknown."""
    if not is_root():
        raise Skip("reading another user's task/TID/syscall needs ptrace permission; the tests run as root")
    import tempfile
    with workload() as w, tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "stacks.tvr")
        live = run_json("-H", "-p", str(w.pid), "-o", COLS, "-n", "1", "-w", path)[-1]
        replay = run_json("-r", path, "-H", "-o", COLS)[-1]
        key = lambda doc: sorted((t["kind"], t["pid"], t["stack_size"], t["stack_rss"]) for t in doc["tasks"])  # noqa: E731
        check(key(live) == key(replay), "replayed stacks differ from the live sample")
        check(all(t["stack_size"] for t in replay["tasks"]), "a stack missing from the replay")
    old = os.path.join(os.environ["SOURCE_DIR"], "tests", "data", "recording-v1.tvr")
    doc = run_json("-r", old, "-o", COLS)[0]
    check(doc["tasks"] and all(t["stack_size"] is None and t["stack_rss"] is None for t in doc["tasks"]),
          "a recording made before the stack columns must replay them unknown")


if __name__ == "__main__":
    sys.exit(main([
        test_known_stacks,
        test_sorted_by_stack_not_shown,
        test_growth_seen,
        test_growth_seen_while_running,
        test_growth_seen_rss_even,
        test_unknown_without_permission,
        test_own_process_as_user,
        test_heap_is_no_stack,
        test_every_stack_matches_smaps,
        test_moved_stack_seen,
        test_shared_mapping_counted_once,
        test_stacks_after_execve,
        test_recorded_and_replayed,
    ]))
