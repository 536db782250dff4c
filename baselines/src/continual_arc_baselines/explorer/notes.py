"""What the explorer knows of one game: counts over its plays, kept between instances as JSON.

An action is known by a key: its name (``ACTION1``), or ``c<colour>`` for a click on a blob of that
colour. `GameNotes` counts, per key, how often it was tried, changed the frame, lost the
level, and appeared in a winning play (the explorer's own wins and the solver's demonstrations);
per simple action, how far it moved the colour that moves; which colour moves, and which colour a
winning move covers (the goal). One instance's notes are folded into the game's with
`GameNotes.merge`, which only adds counts, so the order of instances within a round cannot
matter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import TypeAdapter, ValidationError

from ..json_types import JSONObject, JSONValue

__all__ = ["GameNotes"]


def _add(into: dict[str, list[float]], other: Mapping[str, list[float]]) -> None:
    for key, values in other.items():
        have = into.setdefault(key, [0.0] * len(values))
        for i, value in enumerate(values):
            have[i] += value


def _votes_add(into: dict[str, float], other: Mapping[str, float]) -> None:
    for key, value in other.items():
        into[key] = into.get(key, 0.0) + value


def _top(votes: Mapping[str, float]) -> int | None:
    if not votes:
        return None
    return int(min(votes, key=lambda k: (-votes[k], int(k))))


@dataclass
class GameNotes:
    """Counts over a game's plays.

    Attributes:
        keys: per action key, ``[tried, changed the frame, lost, in a winning play]``.
        moves: per simple action, ``[times the mover moved, sum of dx, sum of dy]``.
        mover: votes for the colour that moves, by colour (as text, for JSON).
        goal: votes for the colour a winning move covers, by colour.
        plays: instances played (demonstrations not counted).
        wins: instances won.
        demos: demonstrations bought.
        win_lengths: the lengths of the winning plays seen (own and demonstrated), latest last.
    """

    keys: dict[str, list[float]] = field(default_factory=dict)
    moves: dict[str, list[float]] = field(default_factory=dict)
    mover: dict[str, float] = field(default_factory=dict)
    goal: dict[str, float] = field(default_factory=dict)
    plays: int = 0
    wins: int = 0
    demos: int = 0
    win_lengths: list[int] = field(default_factory=list)

    def count(self, key: str, slot: int, amount: float = 1.0) -> None:
        """Add to one count of a key (0 tried, 1 changed, 2 lost, 3 in a win)."""
        self.keys.setdefault(key, [0.0, 0.0, 0.0, 0.0])[slot] += amount

    def moved(self, action: str, dx: float, dy: float) -> None:
        """Note that ``action`` moved the mover by (dx, dy) pixels."""
        have = self.moves.setdefault(action, [0.0, 0.0, 0.0])
        have[0] += 1
        have[1] += dx
        have[2] += dy

    def merge(self, other: GameNotes) -> None:
        """Add another set of notes to these."""
        _add(self.keys, other.keys)
        _add(self.moves, other.moves)
        _votes_add(self.mover, other.mover)
        _votes_add(self.goal, other.goal)
        self.plays += other.plays
        self.wins += other.wins
        self.demos += other.demos
        self.win_lengths = (self.win_lengths + other.win_lengths)[-16:]

    @property
    def mover_colour(self) -> int | None:
        """The colour seen moving most often, or ``None``."""
        return _top(self.mover)

    @property
    def goal_colour(self) -> int | None:
        """The colour winning moves covered most often, or ``None``."""
        return _top(self.goal)

    @property
    def loses(self) -> bool:
        """Whether some action has lost a level of the game."""
        return any(counts[2] for counts in self.keys.values())

    def step(self, action: str) -> tuple[float, float] | None:
        """The mean (dx, dy) ``action`` moved the mover by, or ``None`` if never seen moving it."""
        have = self.moves.get(action)
        if not have or not have[0]:
            return None
        return have[1] / have[0], have[2] / have[0]

    def to_json(self) -> JSONObject:
        """The notes as JSON (keys sorted, so equal notes write equal text)."""
        return {
            "keys": {k: list(v) for k, v in sorted(self.keys.items())},
            "moves": {k: list(v) for k, v in sorted(self.moves.items())},
            "mover": dict(sorted(self.mover.items())),
            "goal": dict(sorted(self.goal.items())),
            "plays": self.plays,
            "wins": self.wins,
            "demos": self.demos,
            "win_lengths": list(self.win_lengths),
        }

    @classmethod
    def from_json(cls, value: JSONValue) -> GameNotes:
        """Notes from `to_json`'s form (a count it lacks is zero).

        Raises:
            ValueError: ``value`` is not notes: not an object, or a count that is not a number.
        """
        try:
            return _NOTES.validate_python(value)
        except ValidationError as error:
            raise ValueError(f"game notes that do not read: {error}") from None


_NOTES = TypeAdapter(GameNotes)
