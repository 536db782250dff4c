"""The CPU clock the benchmarks share: what finished child processes have used."""

from __future__ import annotations

import resource


def children_cpu() -> float:
    """CPU seconds (user and system) of every finished child process of this one, and theirs."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
