"""How many of an honest rule's drawn pairs a public Re-ARC verifier reproduces: the disguise check's margin.

Usage: python benchmarks/pack_disguise.py [--pack packs/demo] [--rule ID]...

For each rule of the pack it takes the pairs ``pack check`` runs the public verifiers over (the
first [`DISGUISE_PAIRS`][continual_arc.data.pack_disguise.DISGUISE_PAIRS] of its check draws), runs every one
of Re-ARC's 400 verifiers on every pair, with no early stop, under the check's time limit per call,
and prints the highest count any verifier reaches, which verifiers reach it, how many calls ran past
the limit, and the CPU seconds taken. The last line is the highest count over the pack, against the
count the check refuses at. About a minute per rule: the check itself stops a verifier early.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from continual_arc.data.pack import load_pack
from continual_arc.data.pack_check import check_draws
from continual_arc.data.pack_disguise import DISGUISE_MATCHES, DISGUISE_PAIRS, public_verifiers, reproduces


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pack", default="packs/demo")
    parser.add_argument("--rule", action="append", help="a rule to measure (default: every rule)")
    args = parser.parse_args()
    pack = load_pack(Path(args.pack))
    verifiers = public_verifiers()
    highest = 0
    print(
        f"rule: the most of its {DISGUISE_PAIRS} pairs a public verifier reproduces (which), time-outs, CPU s"
    )
    for rule in sorted(pack.rules):
        if args.rule and rule not in args.rule:
            continue
        start = time.process_time()
        pairs = list(check_draws(pack, rule).values())[:DISGUISE_PAIRS]
        counts = {task: 0 for task in verifiers}
        timeouts = 0
        for task, verify in verifiers.items():
            for pair in pairs:
                found = reproduces(verify, pair)
                counts[task] += found is True
                timeouts += found is None
        top = max(counts.values(), default=0)
        which = ", ".join(sorted(task for task, n in counts.items() if n == top)) if top else "none"
        took = time.process_time() - start
        print(f"{rule}: {top} of {len(pairs)} ({which}), {timeouts} time-outs, {took:.1f}", flush=True)
        highest = max(highest, top)
    print(f"highest on any rule: {highest} of {DISGUISE_PAIRS}; the check refuses at {DISGUISE_MATCHES}")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("pack_disguise", main)
