"""Every instance of a run played again through its environment, and compared with what was written.

The record and the trajectory of an instance are claims. The replay builds the instance afresh from
its track, phase, task and seed, applies the trajectory's actions in order, and compares at every
step what the learner was shown (its counters), each feedback (verdicts, counters, demonstration
pairs byte for byte, refusals), how the instance ended and what it was charged, with the trajectory
and with the record. A record edited alone, a trajectory and record edited together, a
demonstration cut out of both: each leaves a step where the replay and the files part.

A record's charge is replayed too ([`replay_charge`][continual_arc.submit.replay.replay_charge]):
its actions counted through [`Tally`][continual_arc.core.rules.Tally], the rules every environment
plays by, so that the checker ([`check_run`][continual_arc.submit.check_run]) compares each record's
end, counts and charge with one implementation of the rules, not a copy beside them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypedDict

from ..core.environment import AnyEnvironment, EnvSettings
from ..core.games import GAME_ACTIONS
from ..core.records import ActionEntry, End, Record
from ..core.rules import Tally
from ..play.instance_record import action_entries
from ..tracks.track import Track

__all__ = ["ReplayCharge", "replay_charge", "replay_instance"]

_RESULT_FIELDS = ("solved", "charge", "wrong_attempts", "demos_bought", "demos_refused", "end")

_WRITTEN_BEFORE = {"baseline_source": "plan"}
"""Fields a run written before them lacks, read as what they were then: a game level's baseline was
always its solver's plan before its source was recorded."""


def _differences(
    got: Mapping[str, object], want: Mapping[str, object], skip: Sequence[str] = ()
) -> list[str]:
    keys = sorted((set(got) | set(want)) - set(skip))
    differ = [k for k in keys if got.get(k) != want.get(k)]
    return [f"{k} {got.get(k)!r} (the replay gives {want.get(k)!r})" for k in differ]


def _feedback_problems(
    path: Path, at: int, got: object, want: Mapping[str, object], invalid_grid: bool
) -> list[str]:
    if not isinstance(got, Mapping):
        return [f"{path}: event {at}: no feedback recorded for an action the environment answered"]
    if want.get("feedback") == "submit" and got.get("correct") != want.get("correct"):
        return [f"{path}: a submission recorded {got.get('correct')}, but the grid is {want.get('correct')}"]
    # A grid that was not valid is kept as its text; the replay refuses the text, for another reason.
    skip = ("invalid",) if invalid_grid else ()
    diff = _differences(got, want, skip)
    if invalid_grid and not got.get("invalid"):
        diff.append("invalid is empty, but the grid is not a valid grid")
    return [f"{path}: event {at}: feedback {', '.join(diff)}"] if diff else []


def _observation_problems(path: Path, at: int, got: object, want: Mapping[str, object]) -> list[str]:
    if not isinstance(got, Mapping):
        return [f"{path}: event {at}: no observation recorded"]
    diff = _differences(got, want, skip=("extra",))  # plug-ins may add to what the learner saw
    return [f"{path}: event {at}: observation {', '.join(diff)}"] if diff else []


def _play_events(env: AnyEnvironment, record: Record, events: Sequence[object], path: Path) -> list[str]:
    """Apply the trajectory's actions to ``env``; the problems met on the way."""
    problems: list[str] = []
    for at, event in enumerate(events):
        if env.done:
            return [*problems, f"{path}: event {at} comes after the instance ended"]
        if not isinstance(event, Mapping):
            return [*problems, f"{path}: event {at} is not an object"]
        obs = env.view(str(record.get("alias")), record["step"], record["round"], record["user"])
        problems += _observation_problems(path, at, event.get("observation"), env.observation_json(obs))
        if event.get("action") is None:  # the learner failed or ran out of time: the last event
            end = End.fault(record.get("end"))
            if at != len(events) - 1 or end is None:
                problems.append(f"{path}: event {at} has no action, but the instance did not end in a fault")
            env.fail(end or End.LEARNER_ERROR)
            break
        try:
            action = env.action_from_json(event["action"])
            feedback = env.step(action)
        except Exception as err:  # a recorded action the environment refuses is a forged one
            return [*problems, f"{path}: event {at}: the environment refuses the recorded action ({err})"]
        if "learner_action" in event:
            problems.append(
                f"{path}: event {at}: a plug-in replaced the learner's action (learner_action "
                f"{event['learner_action']}, applied {event['action']}): the verdict is not the learner's"
            )
        invalid_grid = isinstance(event["action"].get("grid"), str)
        answered = env.feedback_json(feedback)
        problems += _feedback_problems(path, at, event.get("feedback"), answered, invalid_grid)
    return problems


def replay_instance(
    track: Track, settings: EnvSettings, record: Record, trajectory: Mapping[str, object], path: Path
) -> list[str]:
    """Play one instance again from its trajectory's actions and compare everything written about it.

    Args:
        track: the run's track.
        settings: the run's environment settings.
        record: the instance's line of ``records.jsonl``.
        trajectory: its ``i/<step>.json``.
        path: the trajectory's path, for the problems' wording.

    Returns:
        One line per problem (empty when the files are what the replay gives).
    """
    # The exposure a rising track's level depends on is the slot's, which the coverage check compares.
    exposure = record.get("user_exposure_index")
    env = track.open(
        record["phase"],
        record["task_id"],
        record["seed"],
        settings,
        exposure if isinstance(exposure, int) else 0,
    )
    events = trajectory.get("events")
    if not isinstance(events, list):
        return [f"{path}: it has no list of events"]
    problems = _play_events(env, record, events, path)
    # Compared once played, as the runner wrote it: a game level's opening holds every frame it showed.
    problems = [
        f"{path}: its {key} is not that of instance {record['seed']} of task {record['task_id']}"
        for key, value in env.opening().items()
        if trajectory.get(key, _WRITTEN_BEFORE.get(key)) != value
    ] + problems
    if not env.done:
        return [*problems, f"{path}: the instance had not ended after its last event"]
    result = dataclasses.asdict(env.result())
    written = trajectory.get("result")
    written = written if isinstance(written, Mapping) else {}
    problems += [f"{path}: result {d}" for d in _differences(written, result)]
    claimed = {k: record.get(k) for k in _RESULT_FIELDS}
    wanted = {k: result[k] for k in _RESULT_FIELDS}
    records = path.parent.parent / "records.jsonl"
    problems += [f"{records}: step {record['step']}: {d}" for d in _differences(claimed, wanted)]
    if record.get("actions") != action_entries(events):
        problems.append(f"{records}: step {record['step']}: its actions are not those of {path}")
    fields = getattr(env, "record_fields", None)
    if callable(fields):  # a game level's score, from the replayed actions and the level's own baseline
        wanted_fields = fields(action_entries(events), result["solved"])
        claimed_fields = {k: record.get(k, _WRITTEN_BEFORE.get(k)) for k in wanted_fields}
        problems += [
            f"{records}: step {record['step']}: {d}" for d in _differences(claimed_fields, wanted_fields)
        ]
    return problems


class ReplayCharge(TypedDict, total=False):
    """What a record's actions give under the rules (`replay_charge`), or the problem that stops it."""

    problem: str
    end: str
    solved: bool
    wrong_attempts: int
    demos_bought: int
    demos_refused: int
    charge: int
    max_cost: int
    budget_share: float


def replay_charge(record: Record, settings: EnvSettings, action_cap: int | None = None) -> ReplayCharge:
    """What the environment's rules make of a record's actions: its end, counts and charge.

    The actions are counted through the environment's own rules ([`Tally`][continual_arc.core.rules.Tally]),
    as the instance was played. A game action's entry says how it ended its attempt (``ended``):
    a win solves the instance, any other end is a failed attempt. ``action_cap`` is the instance's
    (a game level's depends on its solver's plan, and its trajectory gives it); by default the
    settings' own. An instance the actions leave open ended outside the rules (its recorded fault),
    or never ended (``unfinished``).
    """
    tally = Tally(settings, action_cap)
    for action in record.get("actions", []):
        if tally.done:
            return {"problem": "an action after the instance ended"}
        _apply_entry(tally, action)
        tally.count_action()
    tally.fail(End.fault(record.get("end")) or End.UNFINISHED)
    result = tally.result()
    return {
        "end": result.end,
        "solved": result.solved,
        "wrong_attempts": result.wrong_attempts,
        "demos_bought": result.demos_bought,
        "demos_refused": result.demos_refused,
        "charge": result.charge,
        "max_cost": settings.max_cost,
        "budget_share": result.charge / settings.max_cost,
    }


def _apply_entry(tally: Tally, action: ActionEntry) -> None:
    """One recorded action's outcome, as the environment counted it when it was played."""
    kind = action.get("action")
    if kind in GAME_ACTIONS and action.get("ended") is not None:
        tally.solve() if action["ended"] == "won" else tally.fail_attempt()
    elif kind == "submit":
        tally.solve() if action.get("correct") else tally.fail_attempt()
    elif kind == "request_demos":
        tally.demo(refused=bool(action.get("refused")))
    elif kind == "give_up":
        tally.give_up()
