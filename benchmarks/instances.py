"""Pairs per second over a track's screened pool, the CLI's start-up time, and a trivial learner's
arc1 protocol with the instance cache cold and warm (``instance_cache``).

Usage: python benchmarks/instances.py [--track arc1|arc2] [--tasks N] [--seeds K] [--no-protocol]

With ``--track arc2`` it measures ARC-GEN's pairs (checked by the redraw rule; ARC-GEN has no
verifiers) and, beside them, Re-ARC's verified pairs on the same number of tasks. Prints rates,
not pass/fail: run it before and after a change to the data path.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from types import ModuleType

import instance_cache


def pairs_per_second(source: ModuleType, tasks: list[str], seeds: int) -> tuple[float, float, int]:
    durations = []
    pairs = 0
    for task in tasks:
        for seed in range(1_000_000, 1_000_000 + seeds):
            start = time.perf_counter()
            test_input = source.instance(task, seed)[0]
            source.demonstrations(task, seed, 3, test_input)
            durations.append(time.perf_counter() - start)
            pairs += 4
    total = sum(durations)
    return pairs / total, max(durations), pairs


def cli_start(repeats: int) -> tuple[float, bool]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "continual_arc.cli", "--help"], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    probe = (
        "import sys\nfrom continual_arc import cli\ntry:\n cli.main(['--help'])\nexcept SystemExit:\n pass\n"
        "print(any(m.startswith(('_continual_arc_rearc', '_continual_arc_arcgen')) for m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return statistics.median(times), loaded.strip().endswith("True")


def measure(track: str, count: int, seeds: int) -> None:
    from continual_arc.data import arcgen, rearc
    from continual_arc.data.pinned import load_rearc
    from continual_arc.data.screen import screened_pool

    source, load, label = (
        (arcgen, arcgen.load_arcgen, "ARC-GEN") if track == "arc2" else (rearc, load_rearc, "Re-ARC")
    )
    start = time.perf_counter()
    load()
    load_time = time.perf_counter() - start
    pool = list(screened_pool(track))
    tasks = pool[:count] if count else pool
    rate, worst, pairs = pairs_per_second(source, tasks, seeds)
    kind = "accepted" if track == "arc2" else "verified"
    print(f"{track}: {label} load (checks, hashes, generators):   {load_time * 1000:.0f} ms")
    print(f"{track}: {kind} pairs:                                {pairs} over {len(tasks)} tasks")
    print(f"{track}: {kind} pairs per second:                     {rate:.0f}")
    print(f"{track}: slowest instance (test pair + 3 demos):      {worst * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--track", default="arc1", choices=["arc1", "arc2"])
    parser.add_argument("--tasks", type=int, default=0, help="tasks from the screened pool (0: all)")
    parser.add_argument("--seeds", type=int, default=2, help="instances per task")
    parser.add_argument("--no-protocol", action="store_true", help="skip the cold and warm protocols")
    args = parser.parse_args()

    if args.track == "arc2":
        measure("arc2", args.tasks, args.seeds)
        from continual_arc.data.screen import screened_pool

        measure("arc1", args.tasks or len(screened_pool("arc2")), args.seeds)  # beside it, as many tasks
    else:
        measure("arc1", args.tasks, args.seeds)
    median, loaded = cli_start(5)
    print(f"continual-arc --help, median of 5:             {median * 1000:.0f} ms")
    print(f"--help loads the generators:                   {'yes (regression!)' if loaded else 'no'}")
    if not args.no_protocol:
        instance_cache.measure(with_off=False)


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("instances", main)
