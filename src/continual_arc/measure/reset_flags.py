"""Flags on the reset reference: a reset that gives up, and a reset worse than the learner at first sight.

Every measure reads a learner against itself reset, so a learner that plays badly only as its own
reset (it can tell from its state, which says it has played nothing) looks as if it learned. No
sandbox stops that; these flags put it beside the score:

* **the reset gives up** (:class:`GaveUp`, one per reset play: the stream's, each test's): the
  reset solved none of the play's instances (every charge ``max_cost``: it played no better than
  giving up at once), while the learner solved at least one instance of the same tasks *at first
  sight*, knowing of them what its reset knew: on its first exposures of those tasks in the stream
  (the stream's and the seen test's reset), or on the held-out test itself (every held-out task is
  new to the learner too). A learner that solves nothing at first sight is not flagged: its reset
  giving up says nothing then.
* **first sight** (:class:`FirstSightGap`): on the stream's first exposures the learner knows of
  the task what its reset knows, so what it saves there, ``T_first = U(reset) - U(learner)`` over
  those instances, can only come from what it learnt in general; the held-out test's ``T`` reads
  that general learning on tasks it never met. The flag fires when the 95 % bootstrap interval of
  ``T_first - T(held-out)`` (tasks of each resampled apart, in the same draw) lies wholly above
  :data:`FIRST_SIGHT_MARGIN` points.

docs/METRICS.md defines both with worked examples; docs/VERIFY.md says what each means.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict, cast

import numpy as np
import numpy.typing as npt

from ..core.jsonable import fields_json
from ..core.records import Phase
from .bootstrap import RESAMPLES, Estimate, EstimateJSON, estimate_rng, ratio_estimate
from .budget import Record, instance_charge, primary
from .compare import MismatchError

__all__ = [
    "FIRST_SIGHT_MARGIN",
    "FirstSightGap",
    "FirstSightJSON",
    "FlagsJSON",
    "GaveUp",
    "GaveUpJSON",
    "ResetFlags",
    "ResetFlagsJSON",
    "first_sight_gap",
    "flag_messages",
    "reset_flags",
]

FIRST_SIGHT_MARGIN = 10.0
"""Points by which the first-sight gap must exceed the held-out test's ``T`` (at the interval's
lower end) to be flagged. The held-out tasks are not the stream's (ARC-AGI-1 evaluation against
training tasks), so an honest learner's general gain may be somewhat larger on the stream's kind
of task; 10 points of the budget is a gap no such shift explains at the sizes the tracks use."""

Play = Sequence[Record]
Key = tuple[str, int]


class GaveUpJSON(TypedDict):
    """A :class:`GaveUp` as JSON."""

    play: str
    reset_instances: int
    reset_solved: int
    learner_instances: int
    learner_solved: int
    flagged: bool


class FirstSightJSON(TypedDict):
    """A :class:`FirstSightGap` as JSON (the estimates as :class:`EstimateJSON`)."""

    first: EstimateJSON
    held_out: EstimateJSON
    gap: EstimateJSON
    margin: float
    flagged: bool
    instances: int
    tasks: int


class FlagsJSON(TypedDict):
    """The flags themselves, as :func:`flag_messages` reads them."""

    gave_up: list[GaveUpJSON]
    first_sight: FirstSightJSON | None


class ResetFlagsJSON(FlagsJSON):
    """:class:`ResetFlags` as JSON: the flags and the lines of those that fire."""

    messages: list[str]


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

    def to_json(self) -> GaveUpJSON:
        """The entry as JSON (every field, by :func:`~continual_arc.core.jsonable.fields_json`)."""
        return cast(GaveUpJSON, fields_json(self))


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

    def to_json(self) -> FirstSightJSON:
        """The gap as JSON (every field, by :func:`~continual_arc.core.jsonable.fields_json`)."""
        return cast(FirstSightJSON, fields_json(self))


@dataclass(frozen=True)
class ResetFlags:
    """Both flags on the reset reference of a protocol.

    Attributes:
        gave_up: one entry per reset play read.
        first_sight: the first-sight gap (``None`` without the stream and its reset).
    """

    gave_up: list[GaveUp]
    first_sight: FirstSightGap | None

    @property
    def flagged(self) -> bool:
        """Whether any flag fires."""
        return any(g.flagged for g in self.gave_up) or bool(self.first_sight and self.first_sight.flagged)

    def messages(self) -> list[str]:
        """One line per flag that fires, as ``check``, ``verify`` and the viewer print it."""
        return flag_messages(self.to_json())

    def to_json(self) -> ResetFlagsJSON:
        """The flags as JSON (with ``messages``, the lines that fire)."""
        flags: FlagsJSON = {
            "gave_up": [g.to_json() for g in self.gave_up],
            "first_sight": None if self.first_sight is None else self.first_sight.to_json(),
        }
        return {**flags, "messages": flag_messages(flags)}


def flag_messages(flags: FlagsJSON) -> list[str]:
    """The lines of the flags that fire, from :meth:`ResetFlags.to_json` (a stored one too)."""
    lines = [
        f"FLAG: the {g['play']} reset plays no better than giving up at once (it solved 0 of "
        f"{g['reset_instances']}, the learner {g['learner_solved']} of {g['learner_instances']} "
        "at first sight of the same tasks)"
        for g in flags.get("gave_up", [])
        if g["flagged"]
    ]
    first = flags.get("first_sight")
    if first and first["flagged"]:
        gap = first["gap"]
        lines.append(
            f"FLAG: first sight: the reset spends {first['first']['value']:.1f} points more than the "
            f"learner on the stream's first exposures, the held-out test only "
            f"{first['held_out']['value']:.1f} "
            f"(gap {gap['value']:.1f} [{gap['low']:.1f}, {gap['high']:.1f}], above the "
            f"{first['margin']:.0f}-point margin)"
        )
    return lines


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


def reset_flags(
    *,
    held_out: Play,
    held_out_reset: Play,
    seen_reset: Play,
    stream: Play | None = None,
    stream_reset: Play | None = None,
    seed: int = 0,
    resamples: int = RESAMPLES,
    margin: float = FIRST_SIGHT_MARGIN,
) -> ResetFlags:
    """Both flags on a protocol's reset reference, from its plays' records.

    Args:
        held_out: the learner's held-out test (records).
        held_out_reset: its reset's held-out test.
        seen_reset: the seen test's reset (the learner's side is its stream's first exposures).
        stream: the learner's stream (``None``: the stream's flag and the first-sight gap are not
            read, and the seen reset is read against nothing, so never flagged).
        stream_reset: its reset's stream (``None``: as for ``stream``).
        seed: the bootstrap seed.
        resamples: bootstrap resamples.
        margin: :data:`FIRST_SIGHT_MARGIN` by default.

    Raises:
        MismatchError: the held-out plays were not on the same instances, or the reset's stream
            never met a task the learner's did.
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
    return ResetFlags(gave_up, gap)
