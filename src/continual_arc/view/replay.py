"""One instance's replay: its trajectory (``i/<name>.json``) read safely and laid out step by step.

A replay opens with the test input alone, then takes one step per event: a demonstration bought
(with its pair) or refused, an answer (with its grid and verdict), a give-up, or an observation the
learner gave no action for. Each step carries the cost meter after it: demonstrations bought, wrong
answers, what was spent, and the charge once the instance has ended (the whole budget if unsolved).
What the trajectory holds beyond the events (the learner's log, what plug-ins said, an error,
frames of a game level) is passed on as it is, for the page to draw. A game level's trajectory (the
arc3 track) is laid out by [`game_replay`][continual_arc.view.game_replay]: its steps are actions on the
level, with frames.

A run stored as its records alone (no ``i/``) is replayed on its instance regenerated from its task
and seed under the run's configuration, as the checker regenerates it: the test input, each
demonstration bought and, for a right answer, the grid that answered are drawn with the recorded
verdicts (a wrong answer's grid is not in the records).

Only names of the form ``<step>`` or ``addon-<n>`` are read, and only from the run's own ``i/``
directory: a name that is anything else, or a file that resolves outside the run (a symbolic link
out of it), is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import NotRequired, TypedDict

from ..core.config import Config
from ..core.errors import ContinualArcError
from ..core.grids import grid_json
from ..core.records import JSONObject, JSONValue, Record, is_primary
from ..tracks.grid_env import GridEnv
from ..tracks.registry import TRACKS
from ..tracks.track import Track
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


def regenerated(meta: JSONObject | None, record: Record, tracks: Mapping[str, Track]) -> GridEnv | None:
    """The grid instance of ``record`` regenerated from its task and seed, or ``None`` if it cannot be.

    ``None`` for a game level, for a run whose ``meta.json`` lacks its configuration, and for a
    track or task that cannot be served here (its data not fetched): the replay then shows the
    record's actions without grids. ``tracks`` are those the viewer serves, by name.
    """
    configuration = json_object(json_object((meta or {}).get("schedule")).get("configuration"))
    if not configuration:
        return None
    try:
        config = Config.from_dict(configuration)
        track = tracks[config.track]
        exposure = record.get("user_exposure_index")
        env = track.open(
            str(record["phase"]),
            str(record["task_id"]),
            int(record["seed"]),
            config.env,
            exposure if isinstance(exposure, int) else 0,
        )
    except (ContinualArcError, KeyError, LookupError, TypeError, ValueError, OSError):
        return None
    return env if isinstance(env, GridEnv) else None


def _from_record(record: Record, env: GridEnv | None) -> JSONObject:
    """A trajectory rebuilt from a record's actions, with the grids of ``env`` (its instance) if given."""
    events: list[JSONValue] = []
    demos = wrong = 0
    for entry in record.get("actions") or []:
        action = entry.get("action")
        shown: JSONObject = {"action": action} if action else {}
        feedback: JSONObject = {}
        if action == "request_demos":
            pair: JSONValue = None
            if not entry.get("refused") and env is not None:
                given, answer = env.instance.demonstration(demos)
                pair = [grid_json(given), grid_json(answer)]
            feedback = {"feedback": "demos", "refused": bool(entry.get("refused")), "pair": pair}
            demos += 0 if entry.get("refused") else 1
        elif action == "submit":
            correct = bool(entry.get("correct"))
            wrong += 0 if correct else 1
            if correct and env is not None:  # the one grid a right answer can be
                shown["grid"] = grid_json(env.instance.output)
            feedback = {
                "feedback": "submit",
                "correct": correct,
                "invalid": "invalid" if entry.get("invalid") else None,
            }
        feedback["spent"] = demos + wrong
        events.append({"action": shown or None, "feedback": feedback})
    trajectory: JSONObject = {
        "events": events,
        "result": {"charge": record.get("charge"), "end": record.get("end")},
    }
    if env is not None:
        trajectory.update(env.opening())
        trajectory.update({"task_id": record.get("task_id"), "seed": record.get("seed")})
        trajectory.update({"phase": record.get("phase"), "alias": record.get("alias")})
    return trajectory


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
    notes: list[str]
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
    teacher_play: NotRequired[JSONValue]


def replay_document(entry: RunEntry, name: str, tracks: Mapping[str, Track] = TRACKS) -> ReplayDocument:
    """The replay of instance ``name`` of a run, drawn again from ``tracks`` if stored as records only.

    Raises:
        ReplayRefused: the name is not a trajectory name, the file lies outside the run, or the run
            holds neither a record nor a trajectory of the instance.
    """
    path = trajectory_path(entry.path, name)
    record = _record_of(entry, name)
    problems: list[str] = []
    notes: list[str] = []
    stored = not entry.data.files.get("trajectories", True)  # records only, by design
    trajectory = _read(path, [] if stored else problems)
    if trajectory is None:
        if record is None:  # nothing to replay: the instance is not there (the server answers 404)
            raise ReplayRefused(f"run {entry.id} has no instance {name}: no record and no trajectory")
        env = regenerated(entry.data.meta, record, tracks)
        trajectory = _from_record(record, env)
        if env is not None:
            notes.append(
                "regenerated from its task and seed: the input, each demonstration bought and a right "
                "answer's grid are drawn with the recorded verdicts (a wrong answer's grid is not recorded)"
            )
        elif stored:
            notes.append("records only, and this instance cannot be regenerated here: its actions alone")
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
        "notes": notes,
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
    if "teacher_play" in trajectory:  # an experiment's teacher's play of the copy, beside the student's
        document["teacher_play"] = trajectory.get("teacher_play")
    if game:  # a game level's: its game, its caps (the page says them), its opening's frames
        document["game"] = trajectory.get("game")
        document["difficulty"] = trajectory.get("difficulty")
        document["baseline_actions"] = trajectory.get("baseline_actions")
        document["attempt_action_cap"] = trajectory.get("attempt_action_cap")
        document["action_cap"] = trajectory.get("action_cap")
        document["opening"] = trajectory.get("opening")
    return document
