"""How fast each command starts: its wall time against a bare ``python -c pass``, as a ratio.

Usage: python benchmarks/startup.py [--repeat 7]

Each command runs ``--repeat`` times in a fresh process; the median is printed beside its budget
(``--help`` 100 ms; ``schedule make``, ``schedule show``, ``data status`` and ``report`` 150 ms on
two idle cores), judged on the CPU time the command used, which on an idle machine is its wall time
for a start-up that runs on one thread, and which other processes do not inflate; the ratio to a
bare ``python -c pass`` is printed beside it.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUDGETS_MS = {
    "--help": 100,
    "schedule make": 150,
    "schedule show": 150,
    "data status": 150,
    "report": 150,
}


# Start-up as a user meets it: with the modules' bytecode cached (a shell that sets
# PYTHONDONTWRITEBYTECODE would time the compiler instead).
_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _median_ms(argv: list[str], repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of a command (CPU time is steadier on a loaded machine)."""
    walls, cpus = [], []
    subprocess.run(argv, check=True, capture_output=True, env=_ENV)  # writes the bytecode caches
    for _ in range(repeat):
        start, cpu = time.perf_counter(), _cpu_s()
        subprocess.run(argv, check=True, capture_output=True, env=_ENV)
        walls.append(1000 * (time.perf_counter() - start))
        cpus.append(1000 * (_cpu_s() - cpu))
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    cli = [sys.executable, "-m", "continual_arc.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        schedule, run_dir = Path(tmp) / "s.json", Path(tmp) / "run"
        subprocess.run(
            [*cli, "schedule", "make", "--config", "toy-smoke", "--out", str(schedule)],
            check=True,
            capture_output=True,
        )
        learner = ["run", "--learner", "continual_arc.testing:GiveUpLearner"]
        subprocess.run(
            [*cli, *learner, "--schedule", str(schedule), "--out", str(run_dir)],
            check=True,
            capture_output=True,
        )
        commands = {
            "--help": ["--help"],
            "schedule make": ["schedule", "make", "--out", str(Path(tmp) / "arc1.json")],
            "schedule show": ["schedule", "show", str(schedule), "--head", "3"],
            "data status": ["data", "status"],
            "report": ["report", str(run_dir)],
        }
        bare, bare_cpu = _median_ms([sys.executable, "-c", "pass"], args.repeat)
        print(f"python -c pass: {bare:.0f} ms wall, {bare_cpu:.0f} ms CPU (median of {args.repeat})")
        print(f"{'command':15} {'wall ms':>8} {'CPU ms':>7} {'budget':>7} {'x bare':>7}")
        for name, argv in commands.items():
            wall, cpu = _median_ms([*cli, *argv], args.repeat)
            # Judged on CPU time: on an idle machine a single-threaded start-up's wall time equals
            # it, and on a loaded one the wall time measures the other processes too.
            flag = "" if cpu <= BUDGETS_MS[name] else "  over budget"
            print(f"{name:15} {wall:8.0f} {cpu:7.0f} {BUDGETS_MS[name]:7d} {cpu / bare_cpu:7.1f}{flag}")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("startup", main)
