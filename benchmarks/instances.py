"""Verified Re-ARC pairs per second over the screened pool, and the CLI's start-up time.

Usage: python benchmarks/instances.py [--tasks N] [--seeds K]

Prints rates, not pass/fail: run it before and after a change to the data path.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def pairs_per_second(tasks: list[str], seeds: int) -> tuple[float, float, int]:
    from continual_arc.data import rearc

    durations = []
    pairs = 0
    for task in tasks:
        for seed in range(1_000_000, 1_000_000 + seeds):
            start = time.perf_counter()
            test_input = rearc.instance(task, seed)[0]
            rearc.demonstrations(task, seed, 3, test_input)
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
        "print(any(m.startswith('_continual_arc_rearc') for m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return statistics.median(times), loaded.strip().endswith("True")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=0, help="tasks from the screened pool (0: all)")
    parser.add_argument("--seeds", type=int, default=2, help="instances per task")
    args = parser.parse_args()

    from continual_arc.data.pinned import load_rearc
    from continual_arc.data.screen import screened_pool

    start = time.perf_counter()
    load_rearc()
    load_time = time.perf_counter() - start
    pool = list(screened_pool())
    tasks = pool[: args.tasks] if args.tasks else pool
    rate, worst, pairs = pairs_per_second(tasks, args.seeds)
    median, loaded = cli_start(5)
    python = subprocess.run(
        [sys.executable, "-c", "pass"], capture_output=True, check=True
    )  # warm the interpreter cache
    del python
    print(f"Re-ARC load (checks, hashes, 400 generators):  {load_time * 1000:.0f} ms")
    print(f"verified pairs:                                {pairs} over {len(tasks)} tasks")
    print(f"verified pairs per second:                     {rate:.0f}")
    print(f"slowest instance (test pair + 3 demos):        {worst * 1000:.0f} ms")
    print(f"continual-arc --help, median of 5:             {median * 1000:.0f} ms")
    print(f"--help loads the generators:                   {'yes (regression!)' if loaded else 'no'}")


if __name__ == "__main__":
    main()
