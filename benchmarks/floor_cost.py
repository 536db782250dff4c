"""What the track's floor adds to a protocol: the CPU of its two plays beside the protocol's own.

Usage: python benchmarks/floor_cost.py [--config arc1] [--learner module:Class] [--seed 0] [--jobs 1]

In a fresh, empty data directory (so neither the floor nor any search is cached; the grid tracks'
tasks come from the installed packages), it plays the protocol without its floor
(``continual-arc protocol --no-floor``), then the floor of both tests as ``protocol`` plays it at
its end (``continual_arc.protocol.floor.stream_floors``, into the same data directory, whose search
cache the protocol's resets filled), then the floor once more (a cache hit: what every later
protocol, ``check`` or ``verify`` at the same configuration and seed pays), then the floor in
another empty data directory (a checker's machine, where no search is cached either: the most a
``check`` pays for it, once). Each step runs in a fresh process; CPU time is that of the step and
every process it started.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpu_clock import children_cpu

_FLOORS = """
import sys
from pathlib import Path
from continual_arc.play.rundir import read_meta
from continual_arc.protocol.floor import stream_floors
floors = stream_floors(read_meta(Path(sys.argv[1]) / "stream"))
print(" ".join(f"{test}: {floor.run.name[:12] if floor else None}" for test, floor in floors.items()))
"""


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Run ``command``; its wall seconds, CPU seconds (its own and its children's) and what it printed."""
    before = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True, env=env)
    return time.perf_counter() - start, children_cpu() - before, done.stdout


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--config", default="arc1")
    parser.add_argument("--learner", default="continual_arc_baselines.library:ProgramLibraryLearner")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "CONTINUAL_ARC_DATA": f"{tmp}/data"}
        out = f"{tmp}/protocol"
        argv = ["protocol", "--learner", args.learner, "--config", args.config, "--seed", str(args.seed)]
        argv += ["--jobs", str(args.jobs), "--resamples", "200", "--no-plots", "--no-floor", "--out", out]
        plain = _timed([sys.executable, "-m", "continual_arc.cli", *argv], env)
        floor = _timed([sys.executable, "-c", _FLOORS, out], env)
        again = _timed([sys.executable, "-c", _FLOORS, out], env)
        cached = sorted(p.name[:12] for p in Path(tmp, "data", "floors").iterdir())
        cold = _timed([sys.executable, "-c", _FLOORS, out], {**env, "CONTINUAL_ARC_DATA": f"{tmp}/checker"})
    print(f"{args.config}, {args.learner}, seed {args.seed}, --jobs {args.jobs}")
    print(f"protocol without its floor: {plain[0]:.1f} s wall, {plain[1]:.1f} s CPU")
    print(f"the floor of both tests:    {floor[0]:.1f} s wall, {floor[1]:.1f} s CPU ({floor[2].strip()})")
    print(f"the floor again, cached:    {again[0]:.1f} s wall, {again[1]:.1f} s CPU")
    print(f"the floor on a fresh machine: {cold[0]:.1f} s wall, {cold[1]:.1f} s CPU ({cold[2].strip()})")
    print(f"extra CPU of the floor: {floor[1] / plain[1]:.1%} of the protocol's (floors cached: {cached})")
    print(f"on a fresh machine: {cold[1] / plain[1]:.1%} of the protocol's")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("floor_cost", main)
