"""Flags on the reset reference: a reset that gives up, is worse at first sight, or plays below the floor.

Every measure reads a learner against itself reset, so a learner that plays badly only as its own
reset (it can tell from its state, which says it has played nothing) looks as if it learned. No
sandbox stops that; these flags put it beside the score:

* **the reset gives up** ([`GaveUp`][continual_arc.measure.reset_flags.GaveUp], one per reset play: the
  stream's, each test's): the reset solved none of the play's instances (every charge ``max_cost``: it played
  no better than giving up at once), while the learner solved at least one instance of the same tasks *at
  first sight*, knowing of them what its reset knew: on its first exposures of those tasks in the stream
  (the stream's and the seen test's reset), or on the held-out test itself (every held-out task is
  new to the learner too). A learner that solves nothing at first sight is not flagged: its reset
  giving up says nothing then.
* **first sight** ([`FirstSightGap`][continual_arc.measure.reset_flags.FirstSightGap]): on the stream's first
  exposures the learner knows of the task what its reset knows, so what it saves there,
  ``T_first = U(reset) - U(learner)`` over those instances, can only come from what it learnt in general; the
  held-out test's ``T`` reads that general learning on tasks it never met. The flag fires when the 95 %
  bootstrap interval of ``T_first - T(held-out)`` (tasks of each resampled apart, in the same draw) lies
  wholly above [`FIRST_SIGHT_MARGIN`][continual_arc.measure.reset_flags.FIRST_SIGHT_MARGIN] points.
* **below the floor** ([BelowFloor][continual_arc.measure.reset_flags.BelowFloor], one per test):
  the track's floor is what any learner's reset should reach on the test's instances: the bare
  model of the learner's student for a model learner, the track's stateless floor (the default
  learner's search keeping nothing between instances) for a model-free one. The flag fires when
  the reset spends more than the floor on the same instances, ``U(reset) - U(floor)`` per instance
  paired, with the 95 % bootstrap interval over tasks wholly above zero. Unlike the two above, it
  needs nothing of the learner: no first-sight solve to compare with, so a reset that gives up
  everywhere, or fails on purpose on part of the test, cannot hide behind a learner that never
  solves at first sight.

docs/METRICS.md defines the three with worked examples; docs/VERIFY.md says what each means.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..core.jsonable import as_json, fields_json
from ..core.records import JSONObject, Phase
from .bootstrap import RESAMPLES, Estimate, estimate_rng, ratio_estimate
from .budget import Record, budget_used, instance_charge, primary, share_solved
from .compare import MismatchError

__all__ = [
    "FIRST_SIGHT_MARGIN",
    "BelowFloor",
    "FirstSightGap",
    "FloorPlay",
    "GaveUp",
    "ResetFlags",
    "below_floor",
    "first_sight_gap",
    "flag_messages",
    "floor_notes",
    "reset_flags",
]

FIRST_SIGHT_MARGIN = 10.0
"""Points by which the first-sight gap must exceed the held-out test's ``T`` (at the interval's
lower end) to be flagged. The held-out tasks are not the stream's (ARC-AGI-1 evaluation against
training tasks), so an honest learner's general gain may be somewhat larger on the stream's kind
of task; 10 points of the budget is a gap no such shift explains at the sizes the tracks use."""

Play = Sequence[Record]
Key = tuple[str, int]


@dataclass(frozen=True)
class GaveUp:
    """Whether one reset play gave up everywhere while the learner solved the same tasks at first sight.

    Attributes:
        play: ``stream``, ``held-out`` or ``seen`` (the reset play read).
        reset_instances: the reset's instances in the play; reset_solved: how many it solved.
        learner_instances: the learner's instances at first sight of the same tasks (its stream
            first exposures of them, or its held-out test); learner_solved: how many it solved.
        flagged: ``reset_solved == 0 < learner_solved`` (and the reset played something).
    """

    play: str
    reset_instances: int
    reset_solved: int
    learner_instances: int
    learner_solved: int
    flagged: bool

    def to_json(self) -> JSONObject:
        """The entry as JSON (every field, by [`fields_json`][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


@dataclass(frozen=True)
class FirstSightGap:
    """The learner against its reset on the stream's first exposures, against the held-out test's T.

    Attributes:
        first: ``T_first``, in points, over the learner's first exposures, with its interval.
        held_out: the held-out test's ``T``, in points, with its interval.
        gap: ``T_first - T(held-out)`` with the interval of the joint bootstrap.
        margin: the margin the gap's lower end must exceed.
        flagged: whether it does.
        instances, tasks: the first exposures read, and their tasks.
    """

    first: Estimate
    held_out: Estimate
    gap: Estimate
    margin: float
    flagged: bool
    instances: int
    tasks: int

    def to_json(self) -> JSONObject:
        """The gap as JSON (every field, by [`fields_json`][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


@dataclass(frozen=True)
class FloorPlay:
    """The floor of one test, as the flag reads it: what plays it, and its records.

    Attributes:
        name: what the floor is, as the flag's line names it (the bare model, or the stateless
            floor's learner).
        records: its play of the test's instances, one at a time (the reset's schedule).
    """

    name: str
    records: Play


@dataclass(frozen=True)
class BelowFloor:
    """Whether one test's reset plays below the track's floor by more than its interval.

    Attributes:
        test: ``held-out`` or ``seen``.
        floor: what the floor is (``None``: the floor was not played beside this result, and
            nothing is read).
        reset_used, floor_used: ``U`` of the reset and of the floor on the test's instances.
        reset_solved, floor_solved: ``P`` of each.
        excess: ``U(reset) - U(floor)`` in points, each instance's charges paired, with the 95 %
            bootstrap interval over tasks.
        flagged: the interval lies wholly above zero.
    """

    test: str
    floor: str | None
    reset_used: float | None
    floor_used: float | None
    reset_solved: float | None
    floor_solved: float | None
    excess: Estimate
    flagged: bool

    def to_json(self) -> JSONObject:
        """The entry as JSON (every field, by [fields_json][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


@dataclass(frozen=True)
class ResetFlags:
    """The flags on the reset reference of a protocol.

    Attributes:
        gave_up: one entry per reset play read.
        first_sight: the first-sight gap (``None`` without the stream and its reset).
        below_floor: one entry per test, against its floor (an entry whose ``floor`` is ``None``
            says the floor was not played).
    """

    gave_up: list[GaveUp]
    first_sight: FirstSightGap | None
    below_floor: list[BelowFloor] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        """Whether any flag fires."""
        return (
            any(g.flagged for g in self.gave_up)
            or bool(self.first_sight and self.first_sight.flagged)
            or any(b.flagged for b in self.below_floor)
        )

    def messages(self) -> list[str]:
        """One line per flag that fires, as ``check``, ``verify`` and the viewer print it."""
        return flag_messages(self)

    def to_json(self) -> JSONObject:
        """The flags as JSON (every field, and ``messages``: the lines that fire)."""
        return {**fields_json(self), "messages": as_json(flag_messages(self))}


def flag_messages(flags: ResetFlags) -> list[str]:
    """The lines of the flags that fire."""
    lines = [
        f"FLAG: the {g.play} reset plays no better than giving up at once (it solved 0 of "
        f"{g.reset_instances}, the learner {g.learner_solved} of {g.learner_instances} "
        "at first sight of the same tasks)"
        for g in flags.gave_up
        if g.flagged
    ]
    first = flags.first_sight
    if first and first.flagged:
        gap = first.gap
        lines.append(
            f"FLAG: first sight: the reset spends {first.first.value:.1f} points more than the "
            f"learner on the stream's first exposures, the held-out test only "
            f"{first.held_out.value:.1f} "
            f"(gap {gap.value:.1f} [{gap.low:.1f}, {gap.high:.1f}], above the "
            f"{first.margin:.0f}-point margin)"
        )
    for b in flags.below_floor:
        excess = b.excess
        if b.flagged and excess.value is not None:
            lines.append(
                f"FLAG: the {b.test} reset plays below the floor ({b.floor}): U {b.reset_used:.1f} "
                f"against {b.floor_used:.1f}, {excess.value:.1f} points more "
                f"[{excess.low:.1f}, {excess.high:.1f}]"
            )
    return lines


def floor_notes(flags: ResetFlags) -> list[str]:
    """What the floor flag could not read, in one line (never a flag): the floor was not played.

    Both tests without a floor give ``floor not played``; one test alone names it.
    """
    missing = [b.test for b in flags.below_floor if b.floor is None]
    if missing and len(missing) == len(flags.below_floor):
        return ["floor not played"]
    return [f"floor not played on the {test} test" for test in missing]


def _by_key(play: Play, phase: str) -> dict[Key, Record]:
    return {(r["task_id"], int(r["seed"])): r for r in primary(play) if r["phase"] == phase}


def _first_exposures(stream: Play) -> dict[Key, Record]:
    return {k: r for k, r in _by_key(stream, Phase.STREAM).items() if r.get("exposure_index") == 0}


def _gave_up(play: str, reset: Mapping[Key, Record], learner: Mapping[Key, Record]) -> GaveUp:
    reset_solved = sum(bool(r["solved"]) for r in reset.values())
    learner_solved = sum(bool(r["solved"]) for r in learner.values())
    return GaveUp(
        play=play,
        reset_instances=len(reset),
        reset_solved=reset_solved,
        learner_instances=len(learner),
        learner_solved=learner_solved,
        flagged=bool(reset) and reset_solved == 0 and learner_solved > 0,
    )


def _of_tasks(records: Mapping[Key, Record], tasks: set[str]) -> dict[Key, Record]:
    return {k: r for k, r in records.items() if k[0] in tasks}


def _totals(saved: Mapping[Key, float]) -> tuple[npt.NDArray[np.float64], ...]:
    """Per task (sorted), the summed saving and the instance count."""
    sums: dict[str, list[float]] = {}
    for (task, _), value in saved.items():
        entry = sums.setdefault(task, [0.0, 0.0])
        entry[0] += value
        entry[1] += 1.0
    tasks = sorted(sums)
    return np.array([sums[t][0] for t in tasks]), np.array([sums[t][1] for t in tasks])


def _first_saved(stream: Play, stream_reset: Play) -> dict[Key, float]:
    """Per first exposure, the reset's charge minus the learner's (points).

    An exposure the reset never met (another user's) is read against the reset's mean on the task,
    as the share learned reads it.
    """
    reset = _by_key(stream_reset, Phase.STREAM)
    by_task: dict[str, list[float]] = {}
    for (task, _), r in reset.items():
        by_task.setdefault(task, []).append(instance_charge(r))
    out: dict[Key, float] = {}
    for key, r in _first_exposures(stream).items():
        if key in reset:
            ref = instance_charge(reset[key])
        elif key[0] in by_task:
            ref = sum(by_task[key[0]]) / len(by_task[key[0]])
        else:
            raise MismatchError(f"the reset's stream never met task {key[0]}, first met by the learner")
        out[key] = ref - instance_charge(r)
    return out


def _held_saved(held_out: Play, held_out_reset: Play) -> dict[Key, float]:
    learner, reset = _by_key(held_out, Phase.HELD_OUT), _by_key(held_out_reset, Phase.HELD_OUT)
    if set(learner) != set(reset):
        raise MismatchError(
            "the learner's and the reset's held-out tests were not played on the same instances"
        )
    return {k: instance_charge(reset[k]) - instance_charge(learner[k]) for k in learner}


def first_sight_gap(
    first: Mapping[Key, float],
    held: Mapping[Key, float],
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
    margin: float = FIRST_SIGHT_MARGIN,
) -> FirstSightGap:
    """The first-sight gap from each instance's saving (reset minus learner, in points).

    Each resample draws the first exposures' tasks and the held-out tasks with replacement, each
    set apart (they share no task), and reads ``T_first - T(held-out)`` on the draw; the interval
    is its 2.5th to 97.5th percentile. With fewer than two tasks on a side there is no interval,
    and nothing is flagged.
    """
    first_num, first_den = _totals(first)
    held_num, held_den = _totals(held)
    t_first = ratio_estimate(first_num, first_den, estimate_rng(seed, "T_first", first), resamples=resamples)
    t_held = ratio_estimate(held_num, held_den, estimate_rng(seed, "T/held-out", held), resamples=resamples)
    if t_first.value is None or t_held.value is None:
        gap = Estimate(None, note="no first exposures or no held-out test")
    elif len(first_num) < 2 or len(held_num) < 2:
        gap = Estimate(t_first.value - t_held.value, note="fewer than two tasks on a side: no interval")
    else:
        rng = estimate_rng(seed, "first_sight_gap", [*first, *held])
        a = rng.integers(0, len(first_num), size=(resamples, len(first_num)))
        b = rng.integers(0, len(held_num), size=(resamples, len(held_num)))
        draws = first_num[a].sum(1) / first_den[a].sum(1) - held_num[b].sum(1) / held_den[b].sum(1)
        low, high = np.percentile(draws, [2.5, 97.5])
        gap = Estimate(t_first.value - t_held.value, float(low), float(high))
    return FirstSightGap(
        first=t_first,
        held_out=t_held,
        gap=gap,
        margin=margin,
        flagged=gap.low is not None and gap.low > margin,
        instances=len(first),
        tasks=len(first_num),
    )


def below_floor(
    test: str,
    reset: Play,
    floor: FloorPlay | None,
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
) -> BelowFloor:
    """The floor flag of one test: its reset's play against the floor's, instance by instance.

    Each instance's excess is the reset's charge minus the floor's (points); the estimate is their
    mean, with a bootstrap over tasks (each task's instances kept together) on the explicit seeded
    stream of ``below_floor/<test>``. With fewer than two tasks there is no interval, and nothing
    is flagged.

    Raises:
        MismatchError: the reset and the floor were not played on the same instances.
    """
    resets = _by_key(reset, test)
    reset_used, reset_solved = _used_solved(resets)
    if floor is None:
        return BelowFloor(
            test, None, reset_used, None, reset_solved, None, Estimate(None, note="floor not played"), False
        )
    floors = _by_key(floor.records, test)
    if set(floors) != set(resets):
        raise MismatchError(
            f"the {test} test's reset and its floor ({floor.name}) were not played on the same instances"
        )
    excess = {k: instance_charge(resets[k]) - instance_charge(floors[k]) for k in resets}
    num, den = _totals(excess)
    estimate = ratio_estimate(
        num, den, estimate_rng(seed, f"below_floor/{test}", excess), resamples=resamples
    )
    floor_used, floor_solved = _used_solved(floors)
    return BelowFloor(
        test=test,
        floor=floor.name,
        reset_used=reset_used,
        floor_used=floor_used,
        reset_solved=reset_solved,
        floor_solved=floor_solved,
        excess=estimate,
        flagged=estimate.low is not None and estimate.low > 0.0,
    )


def _used_solved(records: Mapping[Key, Record]) -> tuple[float | None, float | None]:
    """``U`` and ``P`` of the records (``None`` without any)."""
    plays = list(records.values())
    return budget_used(plays), share_solved(plays)


def reset_flags(
    *,
    held_out: Play,
    held_out_reset: Play,
    seen_reset: Play,
    stream: Play | None = None,
    stream_reset: Play | None = None,
    floors: Mapping[str, FloorPlay | None] | None = None,
    seed: int = 0,
    resamples: int = RESAMPLES,
    margin: float = FIRST_SIGHT_MARGIN,
) -> ResetFlags:
    """The flags on a protocol's reset reference, from its plays' records.

    Args:
        held_out: the learner's held-out test (records).
        held_out_reset: its reset's held-out test.
        seen_reset: the seen test's reset (the learner's side is its stream's first exposures).
        stream: the learner's stream (``None``: the stream's flag and the first-sight gap are not
            read, and the seen reset is read against nothing, so never flagged).
        stream_reset: its reset's stream (``None``: as for ``stream``).
        floors: each test's floor (``held-out``, ``seen``), ``None`` for a test whose floor was
            not played (the entry says so); ``None`` altogether: the floor flag is not read.
        seed: the bootstrap seed.
        resamples: bootstrap resamples.
        margin: [`FIRST_SIGHT_MARGIN`][continual_arc.measure.reset_flags.FIRST_SIGHT_MARGIN] by default.

    Raises:
        MismatchError: the held-out plays were not on the same instances, the reset's stream
            never met a task the learner's did, or a test's floor was played on other instances.
    """
    firsts = _first_exposures(stream) if stream is not None else {}
    gave_up: list[GaveUp] = []
    if stream is not None and stream_reset is not None:
        reset = _by_key(stream_reset, Phase.STREAM)
        gave_up.append(_gave_up(Phase.STREAM, reset, _of_tasks(firsts, {k[0] for k in reset})))
    held_reset, held = _by_key(held_out_reset, Phase.HELD_OUT), _by_key(held_out, Phase.HELD_OUT)
    gave_up.append(_gave_up(Phase.HELD_OUT, held_reset, held))
    seen = _by_key(seen_reset, Phase.SEEN)
    gave_up.append(_gave_up(Phase.SEEN, seen, _of_tasks(firsts, {k[0] for k in seen})))
    gap = None
    if stream is not None and stream_reset is not None:
        gap = first_sight_gap(
            _first_saved(stream, stream_reset),
            _held_saved(held_out, held_out_reset),
            seed=seed,
            resamples=resamples,
            margin=margin,
        )
    floored = []
    if floors is not None:
        resets = {Phase.HELD_OUT: held_out_reset, Phase.SEEN: seen_reset}
        floored = [
            below_floor(test, resets[test], floors.get(test), seed=seed, resamples=resamples)
            for test in (Phase.HELD_OUT, Phase.SEEN)
        ]
    return ResetFlags(gave_up, gap, floored)
