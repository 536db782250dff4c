"""What the lookup learner's verifiers cost on a rule pack's grids: why some are left out.

Usage: PYTHONPATH=tests/learners python benchmarks/lookup_verifiers.py [--pack packs/demo] [--rule ID]...

For one input of each rule of the pack (seed 0; ``--rule`` for only some, as the verifiers left
out take minutes on some grids), it runs every Re-ARC verifier, as the lookup learner
(tests/learners/lookup_learner.py) does on a first demonstration, and prints the CPU seconds of
those it keeps and of those it leaves out (``SLOW``), and the slowest verifier. CPU time, so a
loaded machine changes it less than wall time.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from lookup_learner import SLOW, _answer

from continual_arc.core.grids import validate_grid
from continual_arc.data.pack import load_pack
from continual_arc.data.pinned import load_rearc


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pack", default="packs/demo")
    parser.add_argument("--rule", action="append", help="a rule to measure (default: every rule)")
    args = parser.parse_args()
    verifiers = load_rearc().verifiers
    print("rule, grid size: CPU seconds of the kept verifiers / of the left-out ones; the slowest")
    for name, rule in sorted(load_pack(Path(args.pack)).rules.items()):
        if args.rule and name not in args.rule:
            continue
        slowest: dict[str, float] = {}
        grid = validate_grid(rule.generate(random.Random(0), 0.0, 1.0)["input"])
        spent = {True: 0.0, False: 0.0}
        for task, verifier in verifiers.items():
            start = time.process_time()
            _answer(verifier, grid)
            took = time.process_time() - start
            spent[task not in SLOW] += took
            slowest[task] = took
        top = max(slowest, key=lambda t: slowest[t])
        kept = "kept" if top not in SLOW else "left out"
        size = f"{len(grid)}x{len(grid[0])}"
        line = f"{name}, {size}: {spent[True]:.2f} / {spent[False]:.2f}; {top} ({kept}) {slowest[top]:.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("lookup_verifiers", main)
