"""Checks of one run directory that trust nothing the run could have written differently.

Each check returns problems as lines ``<file>: <what does not hold, and what was expected>``:

* the files a run holds are there and parse;
* the schedule, rebuilt from the configuration, seed, order or test, users and width in
  ``meta.json``, is what the records cover: every slot exactly once, in order, with the recorded
  task, seed, phase, user, round and reset flag;
* every instance's charge, end, counts and share of the budget follow from its recorded actions
  and the environment's rules (a game level's action cap as its trajectory gives it);
* each submitted grid in the trajectory, checked against the instance drawn again from its task
  and seed, got the verdict recorded, and the trajectory's actions are the record's; a game level
  is played again from the trajectory's actions, and every frame and attempt's end must be the
  engine's (:mod:`~continual_arc.submit.replay`);
* every alias is the one the run's ``alias-salt`` gives;
* ``summary.json`` is what the records give.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.config import ScheduleError
from ..core.environment import EnvSettings
from ..core.files import RecordsError, read_json, read_jsonl
from ..core.games import GAME_ACTIONS
from ..measure.summary import summarize
from ..play.aliases import SALT_FILE, Aliases
from ..play.rundir import trajectory_name
from ..stream.schedule import rebuild
from ..tracks.registry import get_track
from .replay import replay_instance

__all__ = ["LoadedRun", "check_run", "load_checked_run", "replay_charge"]

_SLOT_FIELDS = ("step", "round", "user", "phase", "task_id", "seed", "reset_before")


@dataclass
class LoadedRun:
    """A run directory as the checker read it (fields are ``None`` where a file was unusable)."""

    path: Path
    meta: dict[str, Any] | None
    records: list[dict[str, Any]] | None
    summary: dict[str, Any] | None
    salt: str | None


def _read(path: Path, problems: list[str]) -> Any:
    try:
        return read_json(path)
    except FileNotFoundError:
        problems.append(f"{path}: missing")
    except RecordsError as err:
        problems.append(str(err))
    return None


def load_checked_run(path: Path, problems: list[str]) -> LoadedRun:
    """Read a run's files, noting each that is missing or malformed."""
    meta = _read(path / "meta.json", problems)
    summary = _read(path / "summary.json", problems)
    records = None
    try:
        records = read_jsonl(path / "records.jsonl")
    except FileNotFoundError:
        problems.append(f"{path / 'records.jsonl'}: missing")
    except RecordsError as err:
        problems.append(str(err))
    salt = None
    try:
        salt = (path / SALT_FILE).read_text().strip()
    except FileNotFoundError:
        problems.append(f"{path / SALT_FILE}: missing")
    return LoadedRun(path, meta, records, summary, salt)


def replay_charge(
    record: Mapping[str, Any], settings: EnvSettings, action_cap: int | None = None
) -> dict[str, Any]:
    """What the environment's rules make of a record's actions: its end, counts and charge.

    A game action's entry says how it ended its attempt (``ended``): a win solves the instance,
    any other end is a failed attempt. ``action_cap`` is the instance's (a game level's depends on
    its solver's plan, and its trajectory gives it); by default the settings' own.
    """
    wrong = demos = refused = 0
    end: str | None = None
    cap = settings.action_cap if action_cap is None else action_cap
    for action in record.get("actions", []):
        if end is not None:
            return {"problem": "an action after the instance ended"}
        kind = action.get("action")
        if kind in GAME_ACTIONS and action.get("ended") is not None:
            if action["ended"] == "won":
                end = "solved"
            else:
                wrong += 1
                end = "attempt cap" if wrong >= settings.attempt_cap else None
        elif kind == "submit":
            if action.get("correct"):
                end = "solved"
            else:
                wrong += 1
                end = "attempt cap" if wrong >= settings.attempt_cap else None
        elif kind == "request_demos":
            refused, demos = (refused + 1, demos) if action.get("refused") else (refused, demos + 1)
        elif kind == "give_up":
            end = "gave up"
        if end is None and len(record["actions"]) >= cap and action is record["actions"][-1]:
            end = "action cap"
    if end is None:  # a fault or a time limit ends an instance outside the rules
        end = record.get("end") if record.get("end") in ("learner error", "time limit") else "unfinished"
    charge = wrong + settings.demo_cost * demos if end == "solved" else settings.max_cost
    return {
        "end": end,
        "solved": end == "solved",
        "wrong_attempts": wrong,
        "demos_bought": demos,
        "demos_refused": refused,
        "charge": charge,
        "max_cost": settings.max_cost,
        "budget_share": charge / settings.max_cost,
    }


def _check_coverage(run: LoadedRun, problems: list[str]) -> None:
    assert run.meta is not None and run.records is not None
    name = run.path / "records.jsonl"
    try:
        schedule = rebuild(run.meta["schedule"])
    except Exception as err:  # a meta that rebuilds nothing is one problem, whatever the cause
        problems.append(f"{run.path / 'meta.json'}: its schedule block does not rebuild a schedule ({err})")
        return
    primary = [(i, r) for i, r in enumerate(run.records, 1) if r.get("episode_type", "primary") == "primary"]
    seen: dict[Any, int] = {}
    for line, record in primary:
        step = record.get("step")
        if step in seen:
            problems.append(f"{name}, line {line}: step {step} again (first at line {seen[step]})")
        else:
            seen[step] = line
    steps = [r.get("step") for _, r in primary]
    disorder = _first_disorder(steps)
    if disorder:
        problems.append(f"{name}: records out of order ({disorder})")
    slots = {slot.step: slot for slot in schedule.slots}
    for missing in sorted(set(slots) - set(seen))[:5]:
        absent = slots[missing]
        problems.append(f"{name}: slot {missing} (task {absent.task_id}, seed {absent.seed}) has no record")
    for line, record in primary:
        slot = slots.get(record.get("step", -1))
        if slot is None:
            problems.append(f"{name}, line {line}: step {record.get('step')} is not a slot of the schedule")
            continue
        want = slot.to_json()
        diff = [
            f"{k} {record.get(k)!r} (the schedule has {want[k]!r})"
            for k in _SLOT_FIELDS
            if record.get(k) != want[k]
        ]
        if diff:
            problems.append(f"{name}, line {line}: step {slot.step}: {', '.join(diff)}")


def _first_disorder(steps: list[Any]) -> str | None:
    """The first place where steps do not increase, in words (``None`` when they all do)."""
    for a, b in itertools.pairwise(steps):
        if not isinstance(a, int) or not isinstance(b, int) or b < a:
            return f"step {b} after step {a}"
    return None


def _game_action_cap(run: LoadedRun, record: dict[str, Any]) -> int | None:
    """A game instance's action cap, as its trajectory's opening gives it (the replay checks it)."""
    try:
        cap = read_json(run.path / "i" / f"{trajectory_name(record)}.json").get("action_cap")
    except (FileNotFoundError, RecordsError):
        return None  # the missing trajectory is reported by the trajectories' check
    return cap if isinstance(cap, int) else None


def _check_charges(run: LoadedRun, problems: list[str]) -> None:
    assert run.meta is not None and run.records is not None
    settings = EnvSettings.from_dict(run.meta["schedule"]["configuration"]["env"])
    try:
        games = get_track(run.meta["schedule"]["track"]).kind == "game"
    except ScheduleError:  # a track that cannot run here: the coverage check has said so
        games = False
    for line, record in enumerate(run.records, 1):
        replay = replay_charge(record, settings, _game_action_cap(run, record) if games else None)
        if "problem" in replay:
            problems.append(
                f"{run.path / 'records.jsonl'}, line {line}: step {record.get('step')}: {replay['problem']}"
            )
            continue
        diff = [
            f"{k} {record.get(k)!r} (the actions give {v!r})" for k, v in replay.items() if record.get(k) != v
        ]
        if diff:
            problems.append(
                f"{run.path / 'records.jsonl'}, line {line}: step {record.get('step')}: {', '.join(diff)}"
            )


def _check_aliases(run: LoadedRun, problems: list[str]) -> None:
    assert run.meta is not None and run.records is not None
    if run.salt is None:
        return
    aliases = Aliases(run.salt, run.meta.get("alias_style", "hash"))
    for line, record in enumerate(run.records, 1):
        want = aliases.alias(record.get("task_id", ""))
        if record.get("alias") != want:
            problems.append(
                f"{run.path / 'records.jsonl'}, line {line}: alias {record.get('alias')!r} is not what "
                f"{run.path / SALT_FILE} gives ({want})"
            )
            return


def _check_trajectories(run: LoadedRun, problems: list[str]) -> None:
    """Every instance replayed through its environment from its trajectory (:mod:`.replay`)."""
    assert run.meta is not None and run.records is not None
    track = get_track(run.meta["schedule"]["track"])
    settings = EnvSettings.from_dict(run.meta["schedule"]["configuration"]["env"])
    for record in run.records:
        path = run.path / "i" / f"{trajectory_name(record)}.json"
        try:
            trajectory = read_json(path)
        except (FileNotFoundError, RecordsError) as err:
            problems.append(f"{path}: {'missing' if isinstance(err, FileNotFoundError) else err}")
            continue
        problems += replay_instance(track, settings, record, trajectory, path)


def _check_summary(run: LoadedRun, problems: list[str]) -> None:
    assert run.meta is not None and run.records is not None
    if run.summary is None:
        return
    fresh = json.loads(json.dumps(summarize(run.records, run.meta)))
    for key in sorted(set(fresh) | set(run.summary)):
        if fresh.get(key) != run.summary.get(key):
            problems.append(f"{run.path / 'summary.json'}: {key} is not what the records give")


def check_run(path: Path, *, regenerate: bool = True) -> tuple[LoadedRun, list[str]]:
    """Every check of one run; the run as read, and each problem as one line."""
    problems: list[str] = []
    run = load_checked_run(path, problems)
    if run.meta is None or run.records is None:
        return run, problems
    _check_coverage(run, problems)
    _check_charges(run, problems)
    _check_aliases(run, problems)
    if regenerate:
        _check_trajectories(run, problems)
    _check_summary(run, problems)
    return run, problems
