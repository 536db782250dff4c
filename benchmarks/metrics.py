"""The bootstrap's cost: a 100-task frozen test, and the share learned over a 16-user stream.

Usage: python benchmarks/metrics.py [--resamples 10000]

Records are synthetic (charges drawn at random over the real arc1 schedules), since only their
number and shape matter for the cost.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any


def _records(schedule: Any, rng: random.Random, discount: float) -> list[dict[str, Any]]:
    out = []
    for slot in schedule.slots:
        charge = rng.choice([0, 1, 2, 3, 5, 16])
        if slot.exposure_index > 0 and rng.random() < discount:
            charge = 0
        out.append(
            {
                **slot.to_json(),
                "charge": charge,
                "max_cost": 16,
                "solved": charge < 16,
                "episode_type": "primary",
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--resamples", type=int, default=10_000)
    args = parser.parse_args()

    from continual_arc.measure.compare import share_learned, share_saved
    from continual_arc.stream.schedule import build_schedule, test_schedule
    from continual_arc.stream.users import with_users
    from continual_arc.tracks.registry import get_config

    rng = random.Random(0)
    held = test_schedule(get_config("arc1"), 0, "held-out")
    learner, reset = _records(held, rng, 0.0), _records(held, rng, 0.0)
    start = time.perf_counter()
    result = share_saved([learner], [reset], test="held-out", resamples=args.resamples)
    elapsed = time.perf_counter() - start
    print(
        f"share saved, 100-task test, {args.resamples} resamples: {elapsed * 1000:.0f} ms"
        f"  ({result.share_saved})"
    )

    stream = build_schedule(with_users(get_config("arc1"), 16), 0, epilogue=False)
    learner, reset = _records(stream, rng, 0.6), _records(stream, rng, 0.0)
    start = time.perf_counter()
    learned = share_learned(learner, reset, resamples=args.resamples)
    elapsed = time.perf_counter() - start
    print(
        f"share learned, 16-user stream ({learned.instances} instances, {learned.tasks} tasks), "
        f"{args.resamples} resamples: {elapsed * 1000:.0f} ms  ({learned.share_learned})"
    )


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("metrics", main)
