"""The stream process: which of a user's tasks is served at each step.

New tasks arrive by a Poisson process into a queue of ready tasks; at most ``max_active`` tasks are
in a spell at once, filled from the queue in order of readiness; each step serves a task chosen
uniformly among those in a spell; a spell lasts a geometric (discrete exponential) number of
instances; a task whose spell ends rests a log-normal number of steps before it is ready again; a
task leaves once its supply is served; and when no task is in a spell, the earliest resting one
starts early (or, before any rests, the next arrival comes forward). The orders ``sequential`` and
``random`` rearrange the same visits (one task at a time, or shuffled).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.config import ProcessParams, ScheduleError

__all__ = ["ORDERS", "ProcessTrace", "reorder", "stream_process", "trace_statistics"]

ORDERS = ("workstreams", "sequential", "random", "fresh")
"""The orders a schedule may be built in (``workstreams`` is the benchmark's)."""


@dataclass
class ProcessTrace:
    """What the stream process did: the visits it served and the draws behind them.

    Attributes:
        visits: the task served at each step.
        spells: the length of every spell started, in instances.
        rests: the length of every rest drawn, in steps.
        active: the number of tasks in a spell at each step.
    """

    visits: list[str] = field(default_factory=list)
    spells: list[int] = field(default_factory=list)
    rests: list[int] = field(default_factory=list)
    active: list[int] = field(default_factory=list)


def _geometric(rng: random.Random, mean: float) -> int:
    """A geometric draw (support 1, 2, ...) with the given mean, by inversion."""
    if mean <= 1:
        return 1
    p = 1.0 / mean
    return 1 + int(math.log(1.0 - rng.random()) / math.log(1.0 - p))


class _Process:
    """The state of one run of the stream process."""

    def __init__(self, tasks: Sequence[str], supply: int, params: ProcessParams, rng: random.Random) -> None:
        self.params, self.rng = params, rng
        order = sorted(tasks)
        rng.shuffle(order)
        self.arrivals: list[tuple[float, str]] = []
        clock = 0.0
        for i, task in enumerate(order):
            clock += rng.expovariate(params.arrival_rate) if i else 0.0
            self.arrivals.append((clock, task))
        self.left = dict.fromkeys(order, supply)
        self.ready: list[tuple[float, int, str]] = []
        self.resting: dict[str, int] = {}
        self.active: list[list[Any]] = []  # [task, instances left in the spell]
        self.trace = ProcessTrace()
        self._seq = 0

    def _make_ready(self, when: float, task: str) -> None:
        self.ready.append((when, self._seq, task))
        self._seq += 1

    def _start(self, task: str) -> None:
        length = min(_geometric(self.rng, self.params.spell_mean), self.left[task])
        self.active.append([task, length])
        self.trace.spells.append(length)

    def _fill(self, step: int) -> None:
        while self.arrivals and self.arrivals[0][0] <= step:
            self._make_ready(*self.arrivals.pop(0))
        for task, when in sorted(self.resting.items(), key=lambda item: (item[1], item[0])):
            if when <= step:
                del self.resting[task]
                self._make_ready(when, task)
        self.ready.sort()
        while len(self.active) < self.params.max_active and self.ready:
            self._start(self.ready.pop(0)[2])
        if not self.active:
            if self.resting:
                task = min(self.resting, key=lambda t: (self.resting[t], t))
                del self.resting[task]
            else:
                task = self.arrivals.pop(0)[1]
            self._start(task)

    def step(self, step: int) -> str:
        self._fill(step)
        self.trace.active.append(len(self.active))
        index = self.rng.randrange(len(self.active))
        task = self.active[index][0]
        self.left[task] -= 1
        self.active[index][1] -= 1
        if self.left[task] == 0:
            self.active.pop(index)
        elif self.active[index][1] == 0:
            self.active.pop(index)
            p = self.params
            rest = max(1, round(math.exp(self.rng.gauss(math.log(p.rest_median), p.rest_sigma))))
            self.resting[task] = step + 1 + rest
            self.trace.rests.append(rest)
        self.trace.visits.append(task)
        return str(task)


def stream_process(
    tasks: Sequence[str], supply: int, params: ProcessParams, rng: random.Random
) -> ProcessTrace:
    """Run the stream process over one user's tasks; every task is served exactly ``supply`` times.

    Args:
        tasks: the user's task ids (their order does not matter: they are sorted, then shuffled).
        supply: instances of each task.
        params: the process parameters.
        rng: the process's random stream (consumed).
    """
    if supply < 1 or not tasks:
        raise ScheduleError("a stream needs at least one task and a supply of at least one")
    process = _Process(tasks, supply, params, rng)
    for step in range(supply * len(tasks)):
        process.step(step)
    return process.trace


def reorder(visits: Sequence[str], order: str, rng: random.Random) -> list[str]:
    """The same visits in another order.

    ``workstreams`` keeps them as served, ``sequential`` serves one task at a time (tasks in the
    order they were first served), ``random`` shuffles them.
    """
    if order == "workstreams":
        return list(visits)
    if order == "sequential":
        first = {task: i for i, task in reversed(list(enumerate(visits)))}
        return sorted(visits, key=lambda task: first[task])
    if order == "random":
        shuffled = list(visits)
        rng.shuffle(shuffled)
        return shuffled
    raise ScheduleError(f"order {order!r} has no visits to rearrange; known: {', '.join(ORDERS)}")


def trace_statistics(trace: ProcessTrace) -> dict[str, float]:
    """The statistics the leaderboard describes a stream by, from one run of the process.

    Returns:
        ``median_gap`` and ``max_gap`` (steps between consecutive instances of a task),
        ``mean_active`` (tasks in a spell per step), ``mean_spell`` (instances per spell),
        ``median_rest`` (steps), ``last_new`` (the step of the last task's first instance) and
        ``min_supply``/``max_supply`` (instances per task).
    """
    last: dict[str, int] = {}
    first: dict[str, int] = {}
    gaps: list[int] = []
    for step, task in enumerate(trace.visits):
        if task in last:
            gaps.append(step - last[task])
        else:
            first[task] = step
        last[task] = step
    counts = [trace.visits.count(task) for task in first]
    return {
        "median_gap": float(statistics.median(gaps)) if gaps else 0.0,
        "max_gap": float(max(gaps, default=0)),
        "mean_active": statistics.fmean(trace.active),
        "mean_spell": statistics.fmean(trace.spells),
        "median_rest": float(statistics.median(trace.rests)) if trace.rests else 0.0,
        "last_new": float(max(first.values())),
        "min_supply": float(min(counts)),
        "max_supply": float(max(counts)),
    }
