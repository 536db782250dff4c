"""Time to build every canonical arc1 schedule, and the stream's statistics over seeds 0-9.

Usage: python benchmarks/schedules.py [--record]

``--record`` also writes what it prints to benchmarks/results/schedules.md, with the machine and its
load, for the Benchmarks page to include (benchmarks/record.py).
"""

from __future__ import annotations

import statistics
import time


def main() -> None:
    from continual_arc.core.config import CANONICAL_USERS
    from continual_arc.stream.process import trace_statistics
    from continual_arc.stream.rows import stream_trace
    from continual_arc.stream.schedule import build_schedule, test_schedule
    from continual_arc.stream.users import with_users
    from continual_arc.tracks.registry import get_config

    arc1 = get_config("arc1")
    build_schedule(arc1, 0)  # load the task pools once, outside the timings
    print("schedule (arc1, seed 0)                     slots   seconds")
    total = 0.0
    for users in CANONICAL_USERS:
        config = with_users(arc1, users)
        for label, make in (
            ("stream", lambda c=config: build_schedule(c, 0, epilogue=False)),
            ("stream + epilogue", lambda c=config: build_schedule(c, 0)),
            ("reset stream", lambda c=config: build_schedule(c, 0, epilogue=False, reset_each=True)),
            ("held-out test", lambda c=config: test_schedule(c, 0, "held-out")),
            ("seen test", lambda c=config: test_schedule(c, 0, "seen")),
        ):
            start = time.perf_counter()
            schedule = make()
            elapsed = time.perf_counter() - start
            total += elapsed
            print(f"{users:>2} users, {label:31} {len(schedule.slots):>6} {elapsed:9.3f}")
    print(f"all {5 * len(CANONICAL_USERS)} canonical schedules: {total:.2f} s")

    print("\nstream statistics, arc1, user 0 (the individual stream)")
    names = ("median_gap", "max_gap", "mean_active", "mean_spell", "median_rest", "last_new")
    print("seed " + " ".join(f"{n:>11}" for n in names))
    rows = []
    for seed in range(10):
        stats = trace_statistics(stream_trace(arc1, seed))
        rows.append(stats)
        print(f"{seed:>4} " + " ".join(f"{stats[n]:>11.2f}" for n in names))
    print("mean " + " ".join(f"{statistics.fmean(r[n] for r in rows):>11.2f}" for n in names))
    print("med. " + " ".join(f"{statistics.median(r[n] for r in rows):>11.2f}" for n in names))
    print(
        "the leaderboard describes about 4 active, spells of about 3, rests of about 30, a median gap of"
        " about 5 (this process gives 4: docs/DESIGN.md says why) and a maximum around 140, new tasks"
        " arriving throughout"
    )


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("schedules", main)
