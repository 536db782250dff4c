"""What a whole protocol costs: ``continual-arc protocol``'s wall and CPU time, per configuration and learner.

Usage: python benchmarks/protocols.py [--run CONFIG[:LEARNER] ...] [--jobs N] [--users N]

Each ``--run`` (default: the main job, arc1 with the program library) plays the protocol at seed 0
in a fresh ``continual-arc`` process, into a fresh folder, with a fresh (empty) data directory, so
no search or instance is served from an earlier run's cache (arc2's sources are fetched into it
first, outside the timing: from ``$CONTINUAL_ARC_ARCGEN``'s archive when it is set). It prints the
wall time, the CPU time of the command and every process it started (user and system), and the
command's exit code.
``LEARNER`` is ``module:Class`` (default: the program library), or the configuration's own
default when the configuration is arc3's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from cpu_clock import children_cpu

LIBRARY = "continual_arc_baselines.library:ProgramLibraryLearner"


def timed(config: str, learner: str | None, jobs: int, users: int) -> tuple[float, float, int]:
    """Play one protocol from nothing: its wall seconds, CPU seconds and exit code."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "CONTINUAL_ARC_DATA": f"{tmp}/data"}
        argv = [
            "protocol",
            "--config",
            config,
            "--jobs",
            str(jobs),
            "--users",
            str(users),
            "--out",
            f"{tmp}/run",
        ]
        if learner:
            argv += ["--learner", learner]
        if config.startswith("arc2"):  # its sources, fetched outside the timing, as once on a machine
            fetch = ["data", "fetch", "--track", "arc2"]
            archive = os.environ.get("CONTINUAL_ARC_ARCGEN")
            fetch += ["--from", archive] if archive else []
            subprocess.run(
                [sys.executable, "-m", "continual_arc.cli", *fetch], env=env, check=True, capture_output=True
            )
        before, start = children_cpu(), time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "continual_arc.cli", *argv], env=env, capture_output=True
        )
        return time.perf_counter() - start, children_cpu() - before, done.returncode


def main() -> None:
    """Play each protocol asked for and print its times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--run", action="append", help="CONFIG or CONFIG:module:Class (default: arc1)")
    parser.add_argument("--jobs", type=int, default=2, help="protocol --jobs (2)")
    parser.add_argument("--users", type=int, default=1, help="protocol --users (1)")
    args = parser.parse_args()
    print(f"continual-arc protocol, seed 0, --jobs {args.jobs}, --users {args.users}, empty data")
    print(f"{'configuration':14} {'learner':32} {'wall s':>8} {'CPU s':>8}  exit")
    for run in args.run or ["arc1"]:
        config, _, learner = run.partition(":")
        chosen = learner or (None if config.startswith("arc3") else LIBRARY)
        wall, cpu, code = timed(config, chosen, args.jobs, args.users)
        print(f"{config:14} {(chosen or 'its default').rsplit('.', 1)[-1]:32} {wall:8.1f} {cpu:8.1f}  {code}")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("protocols", main)
