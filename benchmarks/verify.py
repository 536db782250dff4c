"""What verification costs: the rerun's wall and CPU time over a plain protocol run of the same learner.

Usage: python benchmarks/verify.py [--config arc1-smoke] [--learner module:Class] [--seed 5]

It plays the whole protocol twice at the same seed, each in a fresh ``continual-arc`` process:
``continual-arc protocol`` (the learner in the runner's process) and ``continual-arc verify``
(the learner in processes of its own: one that saves a fresh learner's state, one for the stream,
a new one for every test instance and every instance of the reset, each in the sandbox, then the
signature over every file it wrote, with a throwaway key made outside the timing). It prints
both times, their ratio, and how many learner processes the rerun started. CPU time is that of the
command and every process it started. Aim: under 2x on arc1-smoke with the model-free program
library. Both commands run with bytecode writing on (``PYTHONDONTWRITEBYTECODE`` removed from their
environment), as Python runs by default: with it off, every sandboxed learner process compiles from
source whatever has no bytecode yet.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from continual_arc.play.remote import log_index
from cpu_clock import children_cpu


def _timed(argv: list[str], data: str) -> tuple[float, float]:
    """Run ``continual-arc argv``; its wall seconds and CPU seconds (its own and its children's).

    Both commands run with an empty data directory of the pair's and the search cache off: a
    sandboxed learner process never reads the cache, so a plain run served from it (warmed by any
    earlier run on this machine) would time a different amount of search.
    """
    before = children_cpu()
    start = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(CONTINUAL_ARC_DATA=data, CONTINUAL_ARC_NO_SEARCH_CACHE="1")
    command = [sys.executable, "-m", "continual_arc.cli", *argv]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    return wall, children_cpu() - before


def _processes(out: Path) -> int:
    """Learner processes the rerun started: each has a line in ``work/logs/index.jsonl``."""
    return len(log_index(out / "work" / "logs"))


def _pair(common: list[str]) -> tuple[tuple[float, float], tuple[float, float], int]:
    """One plain run and one rerun, each from scratch: their (wall, CPU) and the rerun's processes."""
    with tempfile.TemporaryDirectory() as tmp:
        key = f"{tmp}/keys/verifier"  # a throwaway key, outside any repository and result
        subprocess.run([sys.executable, "-m", "continual_arc.cli", "keys", "new", key, "--name", "bench"],
                       check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        plain = _timed(["protocol", *common, "--out", f"{tmp}/plain"], f"{tmp}/data-plain")
        rerun = _timed(
            ["verify", *common, "--out", f"{tmp}/verify", "--sign-with", key], f"{tmp}/data-verify"
        )
        return plain, rerun, _processes(Path(tmp, "verify"))


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--config", default="arc1-smoke")
    parser.add_argument("--learner", default="continual_arc_baselines.library:ProgramLibraryLearner")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="pairs of runs; the medians are printed")
    args = parser.parse_args()
    common = ["--learner", args.learner, "--config", args.config, "--seed", str(args.seed)]
    common += ["--resamples", "200"]
    pairs = [_pair(common) for _ in range(args.repeat)]
    plain = [statistics.median(p[0][i] for p in pairs) for i in (0, 1)]
    rerun = [statistics.median(p[1][i] for p in pairs) for i in (0, 1)]
    ratios = [statistics.median(p[1][i] / p[0][i] for p in pairs) for i in (0, 1)]
    print(f"{args.config}, {args.learner}, seed {args.seed}, median of {args.repeat} pairs")
    print(f"plain protocol run: {plain[0]:.1f} s wall, {plain[1]:.1f} s CPU")
    print(
        f"verify rerun:       {rerun[0]:.1f} s wall, {rerun[1]:.1f} s CPU ({pairs[0][2]} learner processes)"
    )
    print(f"overhead: {ratios[0]:.2f}x wall, {ratios[1]:.2f}x CPU (each the median of the pairs' ratios)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("verify", main)
