"""A game instance's trajectory replayed through a fresh environment of the same level.

A game's verdicts are not a grid to compare: whether an action won, lost or ended its attempt is
the engine's to say. So the checker opens the instance again from its task and seed (the level is
drawn afresh and solved before it is served, as in the run), plays the trajectory's actions in
order, and requires every feedback (frames by number, the attempt's end, the counts) to be the one
recorded, the frames themselves to be those the engine renders, and the end, counts and charge
of the instance to be the record's.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.environment import Environment

__all__ = ["RESULT_FIELDS", "replay_game_trajectory"]

RESULT_FIELDS = ("end", "solved", "charge", "wrong_attempts", "demos_bought", "demos_refused")
"""The fields of a record a replay must give again."""

_FAULTS = ("learner error", "time limit")


def replay_game_trajectory(
    env: Environment, record: Mapping[str, Any], trajectory: Mapping[str, Any], path: Path
) -> list[str]:
    """Each way the trajectory's replay in ``env`` (fresh, same level) differs from what was recorded.

    ``env`` must turn action JSON back into actions (``action_from_json``, as
    :class:`~continual_arc.tracks.arc3.env.GameEnv` does).
    """
    problems: list[str] = []
    events = trajectory.get("events", [])
    for index, event in enumerate(events):
        if event.get("action") is None:  # the learner gave no action: a fault, or a time limit
            break
        if env.done:
            problems.append(f"{path}: event {index} acts on an instance that had already ended")
            return problems
        try:
            action = env.action_from_json(event["action"])  # type: ignore[attr-defined]
        except (ValueError, TypeError, KeyError) as err:
            problems.append(f"{path}: event {index}: its action is not a game action ({err})")
            return problems
        got = env.feedback_json(env.step(action))
        if got != event.get("feedback"):
            problems.append(
                f"{path}: event {index}: the replay gives {_describe(got, event.get('feedback'))}"
            )
            return problems
    if not env.done:
        env.fail(record["end"] if record.get("end") in _FAULTS else "unfinished")
    result = env.result()
    for name in RESULT_FIELDS:
        if getattr(result, name) != record.get(name):
            problems.append(
                f"{path}: the replay ends with {name} {getattr(result, name)!r}, the record has "
                f"{record.get(name)!r}"
            )
    opening = env.opening()
    for key, value in opening.items():
        if trajectory.get(key) != value:
            problems.append(f"{path}: its {key!r} is not what the level gives when replayed")
    return problems


def _describe(got: Mapping[str, Any], recorded: Any) -> str:
    """Where a replayed feedback differs from the recorded one, in words."""
    if not isinstance(recorded, Mapping):
        return f"a {got.get('feedback')} feedback where the trajectory has {recorded!r}"
    keys = sorted(k for k in set(got) | set(recorded) if got.get(k) != recorded.get(k))
    return ", ".join(f"{k} {got.get(k)!r} (recorded {recorded.get(k)!r})" for k in keys[:4])
