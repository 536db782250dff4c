"""One instance's replay: its trajectory (``i/<name>.json``) read safely and laid out step by step.

A replay opens with the test input alone, then takes one step per event: a demonstration bought
(with its pair) or refused, an answer (with its grid and verdict), a give-up, or an observation the
learner gave no action for. Each step carries the cost meter after it: demonstrations bought, wrong
answers, what was spent, and the charge once the instance has ended (the whole budget if unsolved).
What the trajectory holds beyond the events (the learner's log, what plug-ins said, an error,
frames of a game level) is passed on as it is, for the page to draw. A game level's trajectory (the
arc3 track) is laid out by :mod:`.game_replay`: its steps are actions on the level, with frames.

Only names of the form ``<step>`` or ``addon-<n>`` are read, and only from the run's own ``i/``
directory: a name that is anything else, or a file that resolves outside the run (a symbolic link
out of it), is refused.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NotRequired, TypedDict

from ..core.records import JSONObject, JSONValue, Record, is_primary
from .catalog import RunEntry
from .game_replay import (
    Meter,
    ReplayStep,
    charge_last,
    game_steps,
    is_game_trajectory,
    json_count,
)
from .loading import json_list, json_object

__all__ = ["MAX_TRAJECTORY_BYTES", "ReplayRefused", "replay_document", "replay_steps", "trajectory_path"]

MAX_TRAJECTORY_BYTES = 64 * 1024 * 1024
"""A trajectory larger than this is not read (the page says so)."""

_NAME = re.compile(r"(?:0|[1-9][0-9]{0,8}|addon-[1-9][0-9]{0,8})")


class ReplayRefused(LookupError):
    """A trajectory name that is not one, or a file outside the run's directory."""


def trajectory_path(run_dir: Path, name: str) -> Path:
    """The trajectory file of ``name`` inside ``run_dir``.

    Raises:
        ReplayRefused: ``name`` is not a step or ``addon-<n>``, or the file resolves outside the run.
    """
    if not _NAME.fullmatch(name):
        raise ReplayRefused(f"not a trajectory name: {name!r}")
    root = run_dir.resolve()
    path = (run_dir / "i" / f"{name}.json").resolve()
    if not path.is_relative_to(root):
        raise ReplayRefused(f"{name}: the trajectory lies outside the run directory")
    return path


def _meter(spent: int, demos: int, wrong: int, charge: int | None) -> Meter:
    return {"spent": spent, "demos": demos, "wrong": wrong, "charge": charge}


def _step(event: JSONObject, demos: int, wrong: int, demo_cost: int) -> tuple[ReplayStep, int, int]:
    """One event as a replay step, and the demonstration and wrong-answer counts after it."""
    action, feedback = json_object(event.get("action")), json_object(event.get("feedback"))
    kind = str(action.get("action") or "no action")
    step: ReplayStep = {"kind": kind, "done": bool(feedback.get("done"))}
    if kind == "request_demos":
        if feedback.get("refused"):
            step["kind"] = "refused"
        else:
            demos += 1
            step["pair"] = feedback.get("pair")
    elif kind == "submit":
        step["grid"] = action.get("grid")
        step["correct"] = correct = bool(feedback.get("correct"))
        step["invalid"] = feedback.get("invalid")
        if not correct:
            wrong += 1
    elif kind == "invalid":
        step["repr"] = action.get("repr")
    if "learner_action" in event:
        step["learner_action"] = event["learner_action"]
    frames = event.get("frames") or feedback.get("frames")
    if frames:
        step["frames"] = frames
    spent = json_count(feedback.get("spent", wrong + demo_cost * demos))
    step["meter"] = _meter(spent, demos, wrong, None)
    return step, demos, wrong


def replay_steps(trajectory: JSONObject, record: Record | None) -> list[ReplayStep]:
    """The replay's steps: the opening, then one per event, the last with the instance's charge."""
    demo_cost = 1
    steps: list[ReplayStep] = [{"kind": "start", "done": False, "meter": _meter(0, 0, 0, None)}]
    demos = wrong = 0
    for event in json_list(trajectory.get("events")):
        step, demos, wrong = _step(json_object(event), demos, wrong, demo_cost)
        steps.append(step)
    return charge_last(steps, trajectory, record)


def _from_record(record: Record) -> JSONObject:
    """A trajectory rebuilt from a record's actions alone (no grids), when the file is missing."""
    events: list[JSONValue] = []
    demos = wrong = 0
    for entry in record.get("actions") or []:
        action = entry.get("action")
        feedback: JSONObject = {}
        if action == "request_demos":
            feedback = {"feedback": "demos", "refused": bool(entry.get("refused")), "pair": None}
            demos += 0 if entry.get("refused") else 1
        elif action == "submit":
            correct = bool(entry.get("correct"))
            wrong += 0 if correct else 1
            feedback = {
                "feedback": "submit",
                "correct": correct,
                "invalid": "invalid" if entry.get("invalid") else None,
            }
        feedback["spent"] = demos + wrong
        events.append({"action": {"action": action} if action else None, "feedback": feedback})
    return {"events": events, "result": {"charge": record.get("charge"), "end": record.get("end")}}


def _record_of(entry: RunEntry, name: str) -> Record | None:
    for record in entry.data.records:
        if name.startswith("addon-"):
            if not is_primary(record) and f"addon-{record.get('addon_index')}" == name:
                return record
        elif is_primary(record) and str(record.get("step")) == name:
            return record
    return None


def _read(path: Path, problems: list[str]) -> JSONObject | None:
    name = f"i/{path.name}"
    try:
        if path.stat().st_size > MAX_TRAJECTORY_BYTES:
            problems.append(f"{name} is larger than {MAX_TRAJECTORY_BYTES >> 20} MB: not read")
            return None
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(f"{name} is missing: the replay shows the record's actions, without grids")
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        problems.append(
            f"{name} cannot be read ({type(err).__name__}): the replay shows the record's actions"
        )
        return None
    if not isinstance(value, dict):
        problems.append(f"{name} is not a JSON object: the replay shows the record's actions")
        return None
    trajectory: JSONObject = value
    return trajectory


class ReplayDocument(TypedDict):
    """An instance's replay: its record, input and steps, what its trajectory holds beyond the events."""

    format: int
    run: str
    name: str
    kind: str
    record: Record | None
    input: JSONValue
    steps: list[ReplayStep]
    problems: list[str]
    learner_log: JSONValue
    plugins: JSONValue
    error: JSONValue
    frames: JSONValue
    alias: JSONValue
    task_id: JSONValue
    seed: JSONValue
    phase: JSONValue
    demo_cap: JSONValue
    game: NotRequired[JSONValue]
    difficulty: NotRequired[JSONValue]
    baseline_actions: NotRequired[JSONValue]
    attempt_action_cap: NotRequired[JSONValue]
    action_cap: NotRequired[JSONValue]
    opening: NotRequired[JSONValue]


def replay_document(entry: RunEntry, name: str) -> ReplayDocument:
    """The replay of instance ``name`` of a run (see the module docstring).

    Raises:
        ReplayRefused: the name is not a trajectory name, the file lies outside the run, or the run
            holds neither a record nor a trajectory of the instance.
    """
    path = trajectory_path(entry.path, name)
    record = _record_of(entry, name)
    problems: list[str] = []
    trajectory = _read(path, problems)
    if trajectory is None:
        if record is None:  # nothing to replay: the instance is not there (the server answers 404)
            raise ReplayRefused(f"run {entry.id} has no instance {name}: no record and no trajectory")
        trajectory = _from_record(record)
    elif record is None:
        problems.append(f"records.jsonl has no record of instance {name} (its round was not committed?)")
    game = is_game_trajectory(trajectory)
    document: ReplayDocument = {
        "format": 1,
        "run": entry.id,
        "name": name,
        "kind": "game" if game else "grid",
        "record": record,
        "input": trajectory.get("input"),
        "steps": game_steps(trajectory, record) if game else replay_steps(trajectory, record),
        "problems": problems,
        # What the trajectory holds beyond the events, passed on as it is (in this order).
        "learner_log": trajectory.get("learner_log"),
        "plugins": trajectory.get("plugins"),
        "error": trajectory.get("error"),
        "frames": trajectory.get("frames"),
        "alias": trajectory.get("alias"),
        "task_id": trajectory.get("task_id"),
        "seed": trajectory.get("seed"),
        "phase": trajectory.get("phase"),
        "demo_cap": trajectory.get("demo_cap"),
    }
    if game:  # a game level's: its game, its caps (the page says them), its opening's frames
        document["game"] = trajectory.get("game")
        document["difficulty"] = trajectory.get("difficulty")
        document["baseline_actions"] = trajectory.get("baseline_actions")
        document["attempt_action_cap"] = trajectory.get("attempt_action_cap")
        document["action_cap"] = trajectory.get("action_cap")
        document["opening"] = trajectory.get("opening")
    return document
