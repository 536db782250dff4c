"""A learner against its reset: the share saved and T on a frozen test, the share learned over the stream.

* on a frozen test, the share saved ``1 - U(learner) / U(reset)`` and the saving
  ``T = U(reset) - U(learner)`` ([`share_saved`][continual_arc.measure.compare.share_saved]);
* over the stream, the share learned ``(U(reset) - U(learner)) / (U(reset) - U(perfect memory))``
  ([`share_learned`][continual_arc.measure.compare.share_learned]).

Intervals are 95 % bootstraps over tasks
([`continual_arc.measure.bootstrap`][continual_arc.measure.bootstrap]) from an explicit RNG. docs/METRICS.md
defines every measure with a worked example.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..core.errors import ContinualArcError
from ..core.jsonable import fields_json
from ..core.level_score import human_share, scorecard
from ..core.records import JSONObject, Phase
from .bootstrap import RESAMPLES, Estimate, estimate_rng, ratio_estimate
from .budget import PHASE_ORDER, Record, instance_charge, primary

__all__ = [
    "Estimate",
    "LearnedResult",
    "MismatchError",
    "TestComparison",
    "mean_level_score",
    "share_learned",
    "share_saved",
]

Play = Sequence[Record]
InstanceKey = tuple[str, int]


class MismatchError(ContinualArcError, ValueError):
    """Two runs that were not played on the same instances (the same real tasks and seeds)."""


def _instances(play: Play, phases: Sequence[str]) -> dict[InstanceKey, Record]:
    return {(r["task_id"], int(r["seed"])): r for r in primary(play) if r["phase"] in phases}


def _describe(keys: set[InstanceKey]) -> str:
    task, seed = sorted(keys)[0]
    return f"{len(keys)} instance(s), e.g. task {task} seed {seed}"


def _mean_table(
    plays: Sequence[Play], phases: Sequence[str], side: str
) -> dict[InstanceKey, tuple[float, float]]:
    """Per instance, the mean charge (points) and mean solved over several plays of one side.

    Raises:
        MismatchError: the plays were not on the same instances.
    """
    if not plays:
        raise ValueError(f"no {side} run given")
    tables = [_instances(play, phases) for play in plays]
    first = set(tables[0])
    for i, table in enumerate(tables[1:], 2):
        if set(table) != first:
            raise MismatchError(
                f"{side} play {i} was not played on the instances of {side} play 1: "
                f"{_describe(set(table) ^ first)} differ"
            )
    return {
        key: (
            sum(instance_charge(t[key]) for t in tables) / len(tables),
            sum(100.0 * bool(t[key]["solved"]) for t in tables) / len(tables),
        )
        for key in tables[0]
    }


def _per_task(
    keys: Sequence[InstanceKey], values: Mapping[InstanceKey, float]
) -> tuple[list[str], list[float]]:
    totals: dict[str, float] = {}
    for key in keys:
        totals[key[0]] = totals.get(key[0], 0.0) + values[key]
    tasks = sorted(totals)
    return tasks, [totals[t] for t in tasks]


def _mean(values: Iterable[float]) -> float | None:
    chosen = list(values)
    return sum(chosen) / len(chosen) if chosen else None


@dataclass(frozen=True)
class TestComparison:
    """A learner and its reset on one frozen test.

    Attributes:
        test: ``held-out`` or ``seen`` (or ``None`` when the records name no test phase).
        share_saved: ``1 - U(learner) / U(reset)`` with its 95 % interval.
        saving: ``T = U(reset) - U(learner)``, in points of the budget, with its interval.
        learner: U and P of the learner (``budget_used``, ``share_solved``).
        reset: U and P of its reset.
        bare: U and P of each bare-model play given (same instances).
        reset_below_bare: whether the reset used more budget than the bare model (``None``
            without a bare play).
        instances: instances compared; tasks: tasks they cover.
        plays: how many plays of each side were averaged per instance.
    """

    test: str | None
    share_saved: Estimate
    saving: Estimate
    learner: dict[str, float | None]
    reset: dict[str, float | None]
    bare: list[dict[str, float | None]]
    reset_below_bare: bool | None
    instances: int
    tasks: int
    plays: dict[str, int]

    def to_json(self) -> JSONObject:
        """The comparison as JSON (every field, by `fields_json`)."""
        return fields_json(self)


TestComparison.__test__ = False  # type: ignore[attr-defined]  # not a pytest class


def _side(table: Mapping[InstanceKey, tuple[float, float]]) -> dict[str, float | None]:
    return {
        "budget_used": _mean(v[0] for v in table.values()),
        "share_solved": _mean(v[1] for v in table.values()),
    }


def _with_level_score(
    side: dict[str, float | None], plays: Sequence[Play], phases: Sequence[str]
) -> dict[str, float | None]:
    """``side`` with ARC-AGI-3's level score and scorecard when every record carries one (arc3).

    ``level_score`` is the mean level score, each instance read as its mean over the plays, as U is;
    ``scorecard`` is ARC-AGI-3's weighted scorecard of each play
    ([`scorecard`][continual_arc.core.level_score.scorecard]), averaged over the plays; ``human_baselines``
    the share of levels read against a human's action count rather than the solver's plan
    ([`human_share`][continual_arc.core.level_score.human_share]). A grid test's side is left as it was.
    """
    tables = [_instances(play, phases) for play in plays]
    if not tables or not tables[0] or any(r.get("level_score") is None for t in tables for r in t.values()):
        return side
    per_instance = (sum(float(t[key]["level_score"]) for t in tables) / len(tables) for key in tables[0])
    records = [r for t in tables for r in t.values()]
    scored = {**side, "level_score": _mean(per_instance), "human_baselines": human_share(records)}
    if any(not isinstance(r.get(k), int) for r in records for k in ("level_actions", "baseline_actions")):
        return scored  # records that keep the score without its counts: no scorecard to read
    cards = [scorecard(list(table.values())) for table in tables]
    return {**scored, "scorecard": _mean(card for card in cards if card is not None)}


def mean_level_score(play: Play, phases: Sequence[str]) -> float | None:
    """One play's mean level score over its primary instances of ``phases`` (``None``: not a game's).

    The number the plane shows beside ``U`` for that side.
    """
    return _with_level_score({}, [play], phases).get("level_score")


def _check_same(
    a: Mapping[InstanceKey, object], b: Mapping[InstanceKey, object], names: tuple[str, str]
) -> None:
    if set(a) != set(b):
        only_a, only_b = set(a) - set(b), set(b) - set(a)
        parts = [f"{_describe(only_a)} only in the {names[0]}"] if only_a else []
        parts += [f"{_describe(only_b)} only in the {names[1]}"] if only_b else []
        raise MismatchError(
            f"the {names[0]} and the {names[1]} were not played on the same instances (the same real "
            f"tasks and instance seeds): {'; '.join(parts)}"
        )


def _below_bare(reset: Mapping[str, float | None], bare: Sequence[Mapping[str, float | None]]) -> bool | None:
    """Whether the reset used more budget than the bare model's mean (``None`` without a bare play)."""
    used = reset["budget_used"]
    if not bare or used is None:
        return None
    bare_used = _mean(b["budget_used"] for b in bare if b["budget_used"] is not None)
    return bare_used is not None and used > bare_used


def share_saved(
    learner_plays: Sequence[Play],
    reset_plays: Sequence[Play],
    *,
    seed: int = 0,
    test: str | None = None,
    bare_plays: Sequence[Play] = (),
    resamples: int = RESAMPLES,
) -> TestComparison:
    """The share of its reset's spend a learner saves on a frozen test, and the saving ``T``.

    Each instance is read as the mean over the plays of each side, matched by real task and
    instance seed (the two sides' task names differ by design: each run has its own salt).

    Args:
        learner_plays: the learner's runs of the test (records), one or more.
        reset_plays: its reset's runs of the same instances.
        seed: the bootstrap seed; each estimate draws from a stream of its own
            ([`estimate_rng`][continual_arc.measure.bootstrap.estimate_rng]).
        test: the phase to read (``held-out`` or ``seen``); by default every primary record.
        bare_plays: the bare model's runs on the same instances, shown beside.
        resamples: bootstrap resamples.

    Raises:
        MismatchError: the runs were not played on the same instances; the message says how.
    """
    phases = (test,) if test else PHASE_ORDER
    learner = _mean_table(learner_plays, phases, "learner")
    reset = _mean_table(reset_plays, phases, "reset")
    _check_same(learner, reset, ("learner's run", "reset's run"))
    bare = [_mean_table([play], phases, "bare") for play in bare_plays]
    for table in bare:
        _check_same(learner, table, ("learner's run", "bare model's run"))
    keys = sorted(learner)
    tasks, saved = _per_task(keys, {k: reset[k][0] - learner[k][0] for k in keys})
    _, spent = _per_task(keys, {k: reset[k][0] for k in keys})
    _, counts = _per_task(keys, dict.fromkeys(keys, 1.0))
    nothing = "the reset spent nothing on these instances: there was nothing to save"
    reset_side = _with_level_score(_side(reset), reset_plays, phases)
    bare_sides = [_side(t) for t in bare]
    return TestComparison(
        test=test,
        share_saved=ratio_estimate(
            saved,
            spent,
            estimate_rng(seed, f"share_saved/{test}", keys),
            resamples=resamples,
            undefined=nothing,
        ),
        saving=ratio_estimate(saved, counts, estimate_rng(seed, f"T/{test}", keys), resamples=resamples),
        learner=_with_level_score(_side(learner), learner_plays, phases),
        reset=reset_side,
        bare=bare_sides,
        reset_below_bare=_below_bare(reset_side, bare_sides),
        instances=len(keys),
        tasks=len(tasks),
        plays={"learner": len(learner_plays), "reset": len(reset_plays), "bare": len(bare_plays)},
    )


@dataclass(frozen=True)
class LearnedResult:
    """A learner's share learned over the stream.

    Attributes:
        share_learned: the part of the learnable budget the learner saved, with its 95 % interval.
        learnable_budget: ``U(reset) - U(perfect memory)``, in points: what the stream leaves the
            system to learn.
        learner, reset, perfect_memory: U (and P for the runs) over the learner's instances.
        instances, tasks: what was read; matched_by_task_mean: learner instances the reset never
            met, read against the reset's mean on their task.
    """

    share_learned: Estimate
    learnable_budget: float | None
    learner: dict[str, float | None]
    reset: dict[str, float | None]
    perfect_memory: float | None
    instances: int
    tasks: int
    matched_by_task_mean: int

    def to_json(self) -> JSONObject:
        """The result as JSON (every field, by [`fields_json`][continual_arc.core.jsonable.fields_json])."""
        return fields_json(self)


def share_learned(
    learner_plays: Sequence[Play] | Play,
    reset_plays: Sequence[Play] | Play,
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
) -> LearnedResult:
    """The share of the learnable budget a learner saves over the stream.

    Each learner instance is read against the reset's play of the same instance (real task and
    seed), or, for one the reset never met (another user's, when the reset served fewer users),
    against the reset's mean on the task. Perfect memory is the reset's charge on each task's
    first exposure (``exposure_index == 0``) and nothing on any return.

    Raises:
        MismatchError: the reset never met a task the learner met.
    """
    learner = _mean_table(_as_plays(learner_plays), (Phase.STREAM,), "learner")
    reset = _mean_table(_as_plays(reset_plays), (Phase.STREAM,), "reset")
    exposure = {
        k: r["exposure_index"] for k, r in _instances(_as_plays(learner_plays)[0], (Phase.STREAM,)).items()
    }
    by_task: dict[str, list[float]] = {}
    for (task, _), (charge, _) in reset.items():
        by_task.setdefault(task, []).append(charge)
    keys = sorted(learner)
    missing = {k[0] for k in keys if k not in reset and k[0] not in by_task}
    if missing:
        raise MismatchError(
            f"the reset's stream never met {len(missing)} task(s) of the learner's, e.g. {min(missing)}"
        )
    ref = {k: reset[k][0] if k in reset else sum(by_task[k[0]]) / len(by_task[k[0]]) for k in keys}
    perfect = {k: ref[k] if exposure[k] == 0 else 0.0 for k in keys}
    tasks, saved = _per_task(keys, {k: ref[k] - learner[k][0] for k in keys})
    _, learnable = _per_task(keys, {k: ref[k] - perfect[k] for k in keys})
    nothing = "the reset spent nothing on returns: there was nothing to learn (learnable budget 0)"
    return LearnedResult(
        share_learned=ratio_estimate(
            saved,
            learnable,
            estimate_rng(seed, "share_learned", keys),
            resamples=resamples,
            undefined=nothing,
        ),
        learnable_budget=_mean(ref[k] - perfect[k] for k in keys),
        learner=_with_level_score(_side(learner), _as_plays(learner_plays), (Phase.STREAM,)),
        reset=_with_level_score(
            {"budget_used": _mean(ref.values()), "share_solved": _side(reset)["share_solved"]},
            _as_plays(reset_plays),
            (Phase.STREAM,),
        ),
        perfect_memory=_mean(perfect.values()),
        instances=len(keys),
        tasks=len(tasks),
        matched_by_task_mean=sum(1 for k in keys if k not in reset),
    )


def _as_plays(value: Sequence[Play] | Play) -> Sequence[Play]:
    """Accept one play (a list of records) or several."""
    if value and isinstance(value[0], Mapping):
        return [value]  # type: ignore[list-item]
    return value  # type: ignore[return-value]
