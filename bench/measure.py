# SPDX-License-Identifier: GPL-2.0-or-later
"""What both benchmarks measure: the CPU time of one taskview refresh.

taskview runs in batch mode with N and with 1 iteration; (cpu(N) - cpu(1)) /
(N - 1) is the user+system CPU of one refresh with start-up left out. The
best of several repetitions is kept: other load only ever adds time.
"""
import resource
import subprocess


def cpu_of(cmd, env=None):
    """User + system seconds the command used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def per_refresh_ms(base, n, repeat=3, env=None):
    """Milliseconds of CPU per refresh of the taskview command base."""
    best = None
    for _ in range(repeat):
        many = cpu_of(base + ["-n", str(n)], env)
        one = cpu_of(base + ["-n", "1"], env)
        v = (many - one) / (n - 1)
        best = v if best is None else min(best, v)
    return best * 1000.0
