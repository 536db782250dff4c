"""ARC-AGI-3's score of one game level: action efficiency against a baseline, beside the charge.

The charge (out of 16) counts failed attempts and demonstrations, so actions inside an attempt are
free: a 127-action wander that wins costs what the optimum costs. ARC-AGI-3 scores a completed
level by ``min(1, (baseline / actions) ** 2)``, the baseline being a human's action count; arc3
uses a human's count where one is recorded for the level (``baseline_source`` ``"human"``), else the
solver's plan length (``"plan"``). The score is reported beside U and never replaces it (docs/arc3.md
says why).

ARC-AGI-3's scorecard (ARC Prize's ``arc_agi/scorecard.py``) reads a game's levels together: a
completed level scores ``min(1.15, (baseline / actions) ** 2)``, the ``k``-th level of a game
(from 1) weighs ``k``, and the game scores the weighted mean of its levels, capped at the weighted
share of its levels that scored above 0. [`game_scorecard`][continual_arc.core.level_score.game_scorecard]
computes it for one game's levels in order, [`scorecard`][continual_arc.core.level_score.scorecard] for a
play's records (the mean over its games).

Only the game vocabulary's names are read here, so the recorder, the checker and the measures
compute the same number from a record's actions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .games import GAME_ACTIONS, RESET
from .records import JSONObject

__all__ = [
    "BASELINE_SOURCES",
    "SCORECARD_CAP",
    "baseline_note",
    "game_scorecard",
    "human_share",
    "level_actions",
    "level_fields",
    "level_score",
    "scorecard",
    "scorecard_level",
]

SCORECARD_CAP = 1.15
"""The most ARC-AGI-3's scorecard grants one level: a player may beat the baseline by a little."""

BASELINE_SOURCES = ("human", "plan")
"""Where a level's baseline came from: a human's recorded action count, or the solver's plan."""


def level_score(solved: bool, actions: int, baseline: int) -> float:
    """ARC-AGI-3's score of one level: ``min(1, (baseline / actions) ** 2)`` when solved, else 0.

    Args:
        solved: whether the level was won.
        actions: the actions the player took on it
            ([`level_actions`][continual_arc.core.level_score.level_actions]).
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


def level_actions(entries: Iterable[Mapping[str, object]]) -> int:
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


def level_fields(
    entries: Iterable[Mapping[str, object]], solved: bool, baseline: int, source: str = "plan"
) -> JSONObject:
    """A game record's level-score fields: the baseline and its source, the actions counted, the score.

    Raises:
        ValueError: ``source`` is not one of
            [`BASELINE_SOURCES`][continual_arc.core.level_score.BASELINE_SOURCES], or the score cannot be
            computed ([`level_score`][continual_arc.core.level_score.level_score]).
    """
    if source not in BASELINE_SOURCES:
        raise ValueError(f"a baseline comes from one of {', '.join(BASELINE_SOURCES)}, not {source!r}")
    actions = level_actions(entries)
    return {
        "baseline_actions": baseline,
        "baseline_source": source,
        "level_actions": actions,
        "level_score": level_score(solved, actions, baseline),
    }


def human_share(records: Iterable[Mapping[str, object]]) -> float | None:
    """The share of the level-scored records whose baseline is a human's (``None``: none is scored).

    A record written before the baseline's source was recorded counts as the solver's plan, the
    only baseline there was then.
    """
    sources = [r.get("baseline_source", "plan") for r in records if r.get("level_score") is not None]
    return sum(source == "human" for source in sources) / len(sources) if sources else None


def baseline_note(share: float | None) -> str:
    """Which baseline a level score was read against, in words.

    Args:
        share: the share of levels read against a human's count
            ([`human_share`][continual_arc.core.level_score.human_share]).
    """
    if share is None or share == 0:
        return "the solver's plan"
    if share == 1:
        return "human action counts"
    return f"human action counts on {share:.0%} of the levels, the solver's plan on the rest"


def scorecard_level(solved: bool, actions: int, baseline: int) -> float:
    """One level's share of ARC-AGI-3's scorecard: ``min(1.15, (baseline / actions) ** 2)``, 0 unsolved.

    Unlike [`level_score`][continual_arc.core.level_score.level_score] a level may score above 1 (to 1.15),
    and a solved level that claims no action scores 0, as the scorecard has it.

    Raises:
        ValueError: the baseline is not positive.
    """
    if baseline <= 0:
        raise ValueError(f"a level's baseline is a positive number of actions, got {baseline}")
    if not solved or actions <= 0:
        return 0.0
    return min(SCORECARD_CAP, (baseline / actions) ** 2)


def game_scorecard(levels: Sequence[tuple[bool, int, int]]) -> float:
    """ARC-AGI-3's scorecard of one game: its levels ``(solved, actions, baseline)`` in the order played.

    Level ``k`` (1 for the first) weighs ``k``. The score is the weighted mean of the levels'
    [`scorecard_level`][continual_arc.core.level_score.scorecard_level], capped at the weighted share of
    levels that scored above 0, so that beating the baseline on a few levels cannot make up for levels left
    unsolved. A game of no level scores 0. The scale is 0 to 1 (ARC Prize prints it times 100).
    """
    if not levels:
        return 0.0
    scores = [scorecard_level(*level) for level in levels]
    weights = range(1, len(scores) + 1)
    total = sum(weights)
    weighted = sum(k * score for k, score in zip(weights, scores, strict=True)) / total
    reached = sum(k for k, score in zip(weights, scores, strict=True) if score > 0) / total
    return min(weighted, reached)


def _whole(value: object) -> int:
    """A record's count (steps, actions) as an integer, as ``int`` reads a number or its text."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"a count of a record is {value!r}, not a number")


def scorecard(records: Iterable[Mapping[str, object]]) -> float | None:
    """The mean over games of `game_scorecard`, each game's levels in the order they were played.

    A game is a task of one user; its levels are its records that carry a level score, ordered by
    step. ``None`` when no record carries one (a grid run).
    """
    games: dict[tuple[object, object], list[Mapping[str, object]]] = {}
    for record in records:
        if record.get("level_score") is not None:
            games.setdefault((record.get("user"), record["task_id"]), []).append(record)
    if not games:
        return None
    scores = [
        game_scorecard(
            [
                (bool(r["solved"]), _whole(r["level_actions"]), _whole(r["baseline_actions"]))
                for r in sorted(levels, key=lambda r: _whole(r["step"]))
            ]
        )
        for levels in games.values()
    ]
    return sum(scores) / len(scores)
