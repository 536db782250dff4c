"""Runner throughput and overhead on the arc1 stream with a trivial learner.

Usage: python benchmarks/runner.py [--users 1 16] [--rounds R]

For each number of users it plays the arc1 stream (seed 0, no epilogue) with a learner that buys
three demonstrations and gives up, and prints instances per second and how the wall time splits:
drawing instances and demonstrations, calling the learner, and the runner itself (everything
else: the environment, records, trajectories, fsyncs). Aim: the runner under 10 %.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from typing import Any

from continual_arc.env import Action, GiveUp, LearnerObservation, RequestDemos
from continual_arc.learner import BaseLearner


class Timer:
    def __init__(self) -> None:
        self.seconds = 0.0

    def wrap(self, fn: Any) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        return timed


class ThreeDemos(BaseLearner):
    stateless = True

    def act(self, obs: LearnerObservation) -> Action:
        return RequestDemos() if obs.demos_used < 3 else GiveUp()


class TimedSource:
    """A task source whose instance draws and demonstration draws are timed."""

    def __init__(self, source: Any, timer: Timer) -> None:
        self.source, self.timer = source, timer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.source, name)

    def instance(self, task_id: str, seed: int) -> Any:
        import dataclasses

        inst = self.timer.wrap(self.source.instance)(task_id, seed)
        return dataclasses.replace(inst, _supply=self.timer.wrap(inst._supply))


def measure(users: int, rounds: int | None) -> dict[str, float]:
    import continual_arc.runner as runner_module
    from continual_arc.stream.schedule import build_schedule
    from continual_arc.stream.users import with_users
    from continual_arc.tracks.registry import get_config
    from continual_arc.tracks.track import Track

    schedule = build_schedule(with_users(get_config("arc1"), users), 0, epilogue=False, rounds=rounds)
    generation, learner_time = Timer(), Timer()
    learner = ThreeDemos()
    for name in ("act", "observe", "begin_round", "end_round", "reset", "resources"):
        setattr(learner, name, learner_time.wrap(getattr(learner, name)))
    original = Track.source_for
    Track.source_for = lambda self, phase: TimedSource(original(self, phase), generation)  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            runner_module.run(learner, schedule, f"{tmp}/run")
            wall = time.perf_counter() - start
    finally:
        Track.source_for = original  # type: ignore[method-assign]
    overhead = wall - generation.seconds - learner_time.seconds
    return {
        "instances": len(schedule.slots),
        "wall": wall,
        "generation": generation.seconds,
        "learner": learner_time.seconds,
        "overhead": overhead,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--users", type=int, nargs="+", default=[1, 16])
    parser.add_argument("--rounds", type=int, help="cut the stream (default: all 200 rounds)")
    args = parser.parse_args()
    from continual_arc.data.pinned import load_rearc

    load_rearc()
    print("users  instances  inst/s   wall s  drawing s  learner s  runner s  runner share")
    for users in args.users:
        m = measure(users, args.rounds)
        rate, share = m["instances"] / m["wall"], m["overhead"] / m["wall"]
        print(
            f"{users:>5} {m['instances']:>10} {rate:>7.1f} {m['wall']:>8.2f} "
            f"{m['generation']:>10.2f} {m['learner']:>10.3f} {m['overhead']:>9.2f} {share:>12.1%}"
        )


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("runner", main)
