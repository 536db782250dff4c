"""What a played instance leaves: its record (``records.jsonl``) and its trajectory (``i/<step>.json``).

The record holds what the measures read (the charge, whether it was solved, the exposure metadata)
and what the checker replays (each action's outcome); the trajectory holds every observation,
action and feedback, with grids, and what the learner and the plug-ins said about the instance.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import cast

from ..core.records import ActionEntry, Event, Record, Trajectory
from ..core.teacher import UNCHARGED_TEACHER
from .episode import AnyEpisode
from .learner import AnyLearner, CountsInstances, HasTeacher, LogsInstances, TrainsWeights

__all__ = ["TIMING_FIELDS", "action_entries", "instance_record"]

TIMING_FIELDS = ("wall_time", "learner_time", "round_time", "training_resources")
"""The fields of a record that measure time: the only ones two plays of the same run may differ in.

``training_resources`` (a learner training its weights) holds device-seconds and peak memory.
"""


def _resources(learner: AnyLearner, user: int) -> dict[str, float]:
    """The learner's cumulative counters (a concurrent learner's, of this user)."""
    if learner.concurrent_users:
        return _counters(lambda: learner.user_resources(user))
    return _counters(learner.resources)


def _instance_resources(learner: AnyLearner, user: int) -> dict[str, float] | None:
    """The counters of the user's instance that just ended, if the learner reports them."""
    if not isinstance(learner, CountsInstances):
        return None
    return _counters(lambda: learner.instance_resources(user))


def _training_resources(learner: AnyLearner) -> dict[str, float] | None:
    """The learner's cumulative training compute, if it trains weights (``training_resources``)."""
    return _counters(learner.training_resources) if isinstance(learner, TrainsWeights) else None


def _teacher_resources(learner: AnyLearner) -> dict[str, float] | None:
    """The learner's teacher's cumulative counters, if it has a teacher (``teacher_resources``)."""
    return _counters(learner.teacher_resources) if isinstance(learner, HasTeacher) else None


def _counters(fetch: Callable[[], Mapping[str, float]]) -> dict[str, float]:
    try:
        return {str(k): float(v) for k, v in dict(fetch()).items()}
    except Exception:  # counters are logged, never scored: a broken counter loses only itself
        return {"resources_error": 1.0}


def action_entries(events: Sequence[Event]) -> list[ActionEntry]:
    """A record's ``actions``: each event's action kind and outcome (correct, invalid, refused)."""
    actions: list[ActionEntry] = []
    for event in events:
        action, feedback = event["action"], event["feedback"]
        entry: ActionEntry = {"action": action["action"] if action else None}
        if action and "x" in action:  # a game's click keeps its cell
            entry["x"], entry["y"] = action["x"], action["y"]
        if feedback and feedback["feedback"] == "game" and feedback["ended"] is not None:
            entry["ended"] = str(feedback["ended"])  # how a game action ended its attempt
        if feedback and feedback["feedback"] == "submit":
            entry["correct"], entry["invalid"] = bool(feedback["correct"]), feedback["invalid"] is not None
        if feedback and feedback["feedback"] == "demos":
            entry["refused"] = bool(feedback["refused"])
        actions.append(entry)
    return actions


def instance_record(inst: AnyEpisode, learner: AnyLearner) -> tuple[Record, Trajectory]:
    """The record (a line of ``records.jsonl``) and trajectory (``i/<step>.json``) of an ended instance."""
    ep, result, settings = inst.episode, inst.env.result(), inst.env.settings
    actions = action_entries(inst.events)
    # Assembled here, the one writer of both, from the episode's fields and the environment's own
    # (a game level's opening and action efficiency), then typed once: the readers rely on the types.
    record: dict[str, object] = {
        **ep.to_json(),
        "alias": ep.alias,
        "episode_type": ep.episode_type,
        "actions": actions,
        "demos_bought": result.demos_bought,
        "demos_refused": result.demos_refused,
        "wrong_attempts": result.wrong_attempts,
        "solved": result.solved,
        "end": result.end,
        "charge": result.charge,
        "max_cost": settings.max_cost,
        "budget_share": result.charge / settings.max_cost,
        "wall_time": round(max(inst.finished - inst.started, 0.0), 6),
        "learner_time": round(inst.learner_time, 6),
        "resources": _resources(learner, ep.user),
        "instance_resources": _instance_resources(learner, ep.user),
        "error": inst.error,
    }
    training = _training_resources(learner)
    if training is not None:  # only a learner that trains weights: other runs' records are unchanged
        record["training_resources"] = training
    if inst.uncharged is not None:  # the runner handed the learner an uncharged copy: an experiment
        record["experiment"] = UNCHARGED_TEACHER
    teacher = _teacher_resources(learner)
    if teacher is not None:  # only a learner with a teacher: its calls are training, apart from the student's
        record["teacher_resources"] = teacher
        if teacher.get("uncharged_plays", 0.0) > 0:  # its teacher played instances for nothing
            record["experiment"] = UNCHARGED_TEACHER
    fields = getattr(inst.env, "record_fields", None)
    if callable(fields):  # a game level's action efficiency (arc3): only its environment knows the baseline
        record.update(fields(actions, result.solved))
    trajectory: dict[str, object] = {
        **ep.to_json(),
        "alias": ep.alias,
        "episode_type": ep.episode_type,
        **inst.env.opening(),
        "events": inst.events,
        "result": dataclasses.asdict(result),
        "learner_log": learner.instance_log(ep.user) if isinstance(learner, LogsInstances) else None,
        "error": inst.error,
    }
    if inst.uncharged is not None:  # the teacher's play of the copy, beside the student's
        trajectory["teacher_play"] = inst.uncharged.summary()
    said = inst.trace.summary()
    if said is not None:  # only when a plug-in said something: runs without them are unchanged
        record["plugins"] = said
        trajectory["plugins"] = inst.trace.entries
    return cast(Record, record), cast(Trajectory, trajectory)
