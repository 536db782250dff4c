"""A game instance's replay (the arc3 track): each action with the frames it rendered, step by step.

A game trajectory numbers the distinct frames of its level once (``frames``, the texts of
[`continual_arc.core.games.encode_frame`][continual_arc.core.games.encode_frame]) and every event refers to
them by number, so a replay step carries numbers too and the page looks the text up in the document's
``frames``. The opening step holds the level's opening frames. A step of a game action holds the action (a
click with its cell), the attempt it belonged to, the frames it rendered, the level's state after it
and how it ended the attempt (won, lost, reset, action cap). A demonstration bought holds the
solver's actions and the frames each rendered. The cost meter counts failed attempts where a grid
instance counts wrong answers: each costs 1, as a demonstration does. The last step carries
ARC-AGI-3's level score ([`continual_arc.core.level_score`][continual_arc.core.level_score]): the actions
spent against the level's baseline (a human's count where one is recorded, else the solver's plan), with
the level's share of ARC-AGI-3's scorecard beside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict, cast

from ..core.level_score import level_fields, scorecard_level
from ..core.records import Event, JSONObject, JSONValue, Record
from ..play.instance_record import action_entries
from .loading import json_list, json_object

__all__ = [
    "Meter",
    "ReplayStep",
    "charge_last",
    "game_steps",
    "is_game_trajectory",
    "json_object",
]


class Meter(TypedDict):
    """The cost meter after a step: what was spent, demonstrations bought, wrong answers (failed attempts)."""

    spent: int
    demos: int
    wrong: int
    charge: int | None


class ReplayStep(TypedDict, total=False):
    """One step of a replay (the opening, or an event): its kind, and what the page draws of it.

    Which fields a step has depends on its kind (an answer's grid and verdict, a bought pair, a game
    action's frames and cell); the last step carries the instance's end, a game level's its score.
    """

    kind: str
    done: bool
    attempt: int
    pair: JSONValue
    grid: JSONValue
    correct: bool
    invalid: JSONValue
    repr: JSONValue
    x: JSONValue
    y: JSONValue
    frames: JSONValue
    state: JSONValue
    ended: JSONValue
    offered: JSONValue
    attempt_actions: JSONValue
    demo: JSONValue
    learner_action: JSONValue
    meter: Meter
    end: JSONValue
    level: Mapping[str, object]


def is_game_trajectory(trajectory: Mapping[str, JSONValue]) -> bool:
    """Whether ``trajectory`` is a game level's (it names its game and numbers its opening frames)."""
    return "game" in trajectory and isinstance(trajectory.get("opening"), list)


def _meter(spent: int, demos: int, failed: int) -> Meter:
    # The keys are the grid replay's, so the page draws one meter for both: ``wrong`` is a failed attempt.
    return {"spent": spent, "demos": demos, "wrong": failed, "charge": None}


def _game_step(action: JSONObject, feedback: JSONObject, step: ReplayStep) -> int | None:
    """Fill ``step`` from a game action and its feedback; the failed attempts after it, if it says."""
    if "x" in action:
        step["x"], step["y"] = action.get("x"), action.get("y")
    step["frames"] = json_list(feedback.get("frames"))
    step["state"] = feedback.get("state")
    step["ended"] = feedback.get("ended")
    step["offered"] = feedback.get("offered", True)
    step["attempt_actions"] = feedback.get("attempt_actions")
    used = feedback.get("attempts_used")
    return int(used) if isinstance(used, int) else None


def game_steps(trajectory: JSONObject, record: Record | None) -> list[ReplayStep]:
    """The replay's steps of a game instance: the opening, then one per event, the last with the charge."""
    opening = json_list(trajectory.get("opening"))
    steps: list[ReplayStep] = [
        {"kind": "start", "done": False, "attempt": 1, "frames": opening, "meter": _meter(0, 0, 0)}
    ]
    demos = failed = 0
    for value in json_list(trajectory.get("events")):
        event = json_object(value)
        action, feedback = json_object(event.get("action")), json_object(event.get("feedback"))
        kind = str(action.get("action") or "no action")
        # The attempt an action belongs to is the one under way when it was taken.
        step: ReplayStep = {"kind": kind, "done": bool(feedback.get("done")), "attempt": failed + 1}
        if feedback.get("feedback") == "game":
            used = _game_step(action, feedback, step)
            failed = failed if used is None else used
        elif kind == "request_demos":
            if feedback.get("refused"):
                step["kind"] = "refused"
            else:
                demos = json_count(feedback.get("demos_used") or demos + 1)
                step["demo"] = feedback.get("demo")
        elif kind == "invalid":
            step["repr"] = action.get("repr")
        if "learner_action" in event:
            step["learner_action"] = event["learner_action"]
        step["meter"] = _meter(json_count(feedback.get("spent", failed + demos)), demos, failed)
        steps.append(step)
    steps = charge_last(steps, trajectory, record)
    level = _level(trajectory, record)
    if level is not None:
        steps[-1]["level"] = level
    return steps


def json_count(value: JSONValue) -> int:
    """A count a trajectory holds (``int()`` of it, as the page shows it; ``0`` for what is none)."""
    return int(value) if isinstance(value, int | float | str) else 0


def _level(trajectory: JSONObject, record: Record | None) -> Mapping[str, object] | None:
    """The level score's fields: the record's, else computed from the trajectory (``None`` if neither can).

    Beside them, the level's share of ARC-AGI-3's scorecard (``scorecard_level``, up to 1.15) and where
    its baseline came from (``baseline_source``: a trajectory written before it was recorded read the plan).
    """
    if record and isinstance(record.get("level_score"), int | float):
        fields = {k: record.get(k) for k in ("baseline_actions", "level_actions", "level_score")}
        fields["baseline_source"] = record.get("baseline_source", "plan")
        return _with_scorecard(fields, bool(record.get("solved")))
    baseline, result = trajectory.get("baseline_actions"), json_object(trajectory.get("result"))
    source = trajectory.get("baseline_source", "plan")
    events = trajectory.get("events")
    if (
        not isinstance(baseline, int)
        or baseline <= 0
        or not isinstance(events, list)
        or "solved" not in result
        or not isinstance(source, str)
    ):
        return None  # a trajectory written before the level score, or cut short
    try:
        written = cast(list[Event], events)  # as the trajectory holds them; a malformed one raises below
        fields = dict(level_fields(action_entries(written), bool(result["solved"]), baseline, source))
    except (KeyError, TypeError, ValueError):
        return None
    return _with_scorecard(fields, bool(result["solved"]))


def _with_scorecard(fields: dict[str, object], solved: bool) -> dict[str, object]:
    """``fields`` with the level's scorecard share, when its counts are whole numbers."""
    actions, baseline = fields.get("level_actions"), fields.get("baseline_actions")
    if isinstance(actions, int) and isinstance(baseline, int) and baseline > 0:
        fields["scorecard_level"] = scorecard_level(solved, actions, baseline)
    return fields


def charge_last(steps: list[ReplayStep], trajectory: JSONObject, record: Record | None) -> list[ReplayStep]:
    """``steps`` with the instance's charge and end on the last (from the trajectory, else the record)."""
    result = json_object(trajectory.get("result"))
    charge = result.get("charge", record.get("charge") if record else None)
    if charge is not None:
        steps[-1]["meter"]["charge"] = json_count(charge)
        steps[-1]["end"] = result.get("end", record.get("end") if record else None)
    return steps
