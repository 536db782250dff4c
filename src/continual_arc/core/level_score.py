"""ARC-AGI-3's score of one game level: action efficiency against a baseline, beside the charge.

The charge (out of 16) counts failed attempts and demonstrations, so actions inside an attempt are
free: a 127-action wander that wins costs what the optimum costs. ARC-AGI-3 scores a completed
level by ``min(1, (baseline / actions) ** 2)``, the baseline being a human's action count; arc3
uses the solver's plan length where no human baseline is recorded. The score is reported beside U
and never replaces it (docs/arc3.md says why).

Only the game vocabulary's names are read here, so the recorder, the checker and the measures
compute the same number from a record's actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .games import GAME_ACTIONS, RESET

__all__ = ["level_actions", "level_fields", "level_score"]


def level_score(solved: bool, actions: int, baseline: int) -> float:
    """ARC-AGI-3's score of one level: ``min(1, (baseline / actions) ** 2)`` when solved, else 0.

    Args:
        solved: whether the level was won.
        actions: the actions the player took on it (:func:`level_actions`).
        baseline: the baseline's action count (the solver's plan, or a human's).

    Raises:
        ValueError: the baseline is not positive, or a solved level claims no action.
    """
    if baseline <= 0:
        raise ValueError(f"a level's baseline is a positive number of actions, got {baseline}")
    if not solved:
        return 0.0
    if actions <= 0:
        raise ValueError("a solved level took at least one action")
    return min(1.0, (baseline / actions) ** 2)


def level_actions(entries: Iterable[Mapping[str, Any]]) -> int:
    """The actions a play spent on its level, from a record's ``actions`` entries.

    Every game action counts, in every attempt, failed ones included; a RESET counts when it ended
    an attempt (``ended`` set), not when it only showed the opening again at an attempt's start,
    where it changed nothing. Demonstrations and give-ups are not actions on the level.
    """
    count = 0
    for entry in entries:
        name = entry.get("action")
        if name == RESET:
            count += entry.get("ended") is not None
        elif name in GAME_ACTIONS:
            count += 1
    return count


def level_fields(entries: Iterable[Mapping[str, Any]], solved: bool, baseline: int) -> dict[str, Any]:
    """A game record's level-score fields: the baseline, the actions counted and the score."""
    actions = level_actions(entries)
    return {
        "baseline_actions": baseline,
        "level_actions": actions,
        "level_score": level_score(solved, actions, baseline),
    }
