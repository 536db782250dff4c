"""The contract every arc3 game meets: its level value, its moves, and the protocol of a game.

A *game* is a set of rules the player has to discover; a *level* is one fresh layout of it, drawn
from a seed. Levels are plain values (a grid of cell codes plus a few integer parameters), so the
rest of the benchmark can store, hash and compare them without knowing which game made them. Each
game reads its own codes; its module documents the legend.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from arcengine import ARCBaseGame

__all__ = [
    "ACTIONS",
    "ARROWS",
    "CLICK",
    "DOWN",
    "LEFT",
    "MAX_CODE",
    "MAX_SIDE",
    "RESET",
    "RIGHT",
    "UP",
    "USE",
    "GameSpec",
    "Level",
    "Move",
    "RejectLevel",
    "fuelled",
    "knobs_at",
    "long_plan",
    "retry",
]

#: Every action name the engine knows, in its own numbering (RESET is 0, ACTIONn is n).
ACTIONS: tuple[str, ...] = (
    "RESET",
    "ACTION1",
    "ACTION2",
    "ACTION3",
    "ACTION4",
    "ACTION5",
    "ACTION6",
    "ACTION7",
)

#: The customary meanings of ARC-AGI-3's keys; a game may give them other meanings, and says so.
RESET, UP, DOWN, LEFT, RIGHT, USE, CLICK = ACTIONS[:7]

#: The largest side of a level's grid and the largest cell code: frames are 64 cells wide.
MAX_SIDE = 64
MAX_CODE = 255


class RejectLevel(ValueError):
    """Raised by a generator that drew a layout it will not serve (trivial, already won, ...).

    The draw catches it and redraws from the next sub-draw, as it does for an unsolvable level.
    """


def retry(attempt: Callable[[], Level], attempts: int) -> Level:
    """The first level ``attempt`` makes without raising `RejectLevel`, of ``attempts`` tries.

    A generator that rejects often should retry inside itself, on its own rng, rather than leave it
    all to the draw: the draw's sub-draws are bounded, and each one starts the layout from scratch.

    Raises:
        RejectLevel: the last attempt's rejection, when every attempt was rejected.
    """
    for _ in range(attempts - 1):
        try:
            return attempt()
        except RejectLevel:
            continue
    return attempt()


Knobs = TypeVar("Knobs")


def knobs_at(game_id: str, table: Sequence[Knobs], difficulty: int) -> Knobs:
    """A game's knobs at ``difficulty``, from its table of one row a difficulty (0 first).

    Raises:
        ValueError: the difficulty is outside the table (the game's ``max_difficulty`` is its last row).
    """
    if not 0 <= difficulty <= len(table) - 1:
        raise ValueError(f"{game_id}: difficulty {difficulty} outside 0..{len(table) - 1}")
    return table[difficulty]


def long_plan(spec: GameSpec, level: Level, shortest: int, unit: str = "moves") -> tuple[Move, ...]:
    """The solver's plan for a level just drawn, which must take at least ``shortest`` moves.

    Raises:
        RejectLevel: the solver found no plan within the game's budget, or a shorter one (``unit``
            names the moves in its message).
    """
    plan = spec.solve(level, spec.budget)
    if plan is None or len(plan) < shortest:
        raise RejectLevel(f"unsolved, or solved in fewer than {shortest} {unit}")
    return plan


def fuelled(level: Level, plan: Sequence[Move], spare: int | None) -> Level:
    """The level with fuel for its plan and ``spare`` actions more (``None``: the level unchanged).

    Fuel (the param ``fuel``) is how many actions an attempt may spend; the engine draws it as a bar
    below the board and loses the level when the last action is spent without a win
    ([`GridGame`][continual_arc_games.engine.GridGame]). The solver's plan fits by construction, so a
    fuelled level stays solved by the plan the solver found without fuel.

    Raises:
        ValueError: ``spare`` is negative.
    """
    if spare is None:
        return level
    if spare < 0:
        raise ValueError(f"a level's spare fuel is at least 0, got {spare}")
    return Level(
        level.game, level.grid, tuple(sorted({**dict(level.params), "fuel": len(plan) + spare}.items()))
    )


@dataclass(frozen=True, slots=True)
class Move:
    """One action of a play: its name, and for ACTION6 the frame cell (x, y) it clicks.

    Attributes:
        action: one of `ACTIONS`.
        x: the clicked column of the 64x64 frame (0-63), only for ACTION6.
        y: the clicked row of the 64x64 frame (0-63), only for ACTION6.
    """

    action: str
    x: int | None = None
    y: int | None = None

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"unknown action {self.action!r}; expected one of {ACTIONS}")
        clicked = (self.x, self.y)
        if self.action == CLICK:
            if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < MAX_SIDE for v in clicked):
                raise ValueError(f"ACTION6 needs integer x and y in 0..63, got {clicked}")
        elif clicked != (None, None):
            raise ValueError(f"{self.action} takes no coordinates, got {clicked}")

    @classmethod
    def click(cls, x: int, y: int) -> Move:
        """An ACTION6 on frame cell (x, y)."""
        return cls(CLICK, x, y)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"action": ...}``, plus ``x`` and ``y`` for a click."""
        if self.action == CLICK:
            return {"action": self.action, "x": self.x, "y": self.y}
        return {"action": self.action}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Move:
        """The move `as_dict` gave."""
        return cls(data["action"], data.get("x"), data.get("y"))

    def __str__(self) -> str:
        return f"{self.action}({self.x},{self.y})" if self.action == CLICK else self.action


#: The arrow keys' moves by engine action number (1-4: up, down, left, right), in the order the
#: solvers try them.
ARROWS: Mapping[int, Move] = MappingProxyType({1: Move(UP), 2: Move(DOWN), 3: Move(LEFT), 4: Move(RIGHT)})


@dataclass(frozen=True, slots=True)
class Level:
    """One level of one game: a grid of cell codes and a few named integers, frozen and hashable.

    Attributes:
        game: the id of the game that drew it.
        grid: rows of cell codes (0-255), each game with its own legend; at most 64x64.
        params: (name, value) pairs sorted by name, for what a grid does not hold naturally.
    """

    game: str
    grid: tuple[tuple[int, ...], ...]
    params: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if not self.game:
            raise ValueError("a level names its game")
        if not self.grid or not self.grid[0]:
            raise ValueError("a level's grid has at least one cell")
        width = len(self.grid[0])
        if len(self.grid) > MAX_SIDE or width > MAX_SIDE:
            raise ValueError(f"a level's grid is at most {MAX_SIDE}x{MAX_SIDE}")
        for row in self.grid:
            if type(row) is not tuple or len(row) != width:
                raise ValueError("a level's grid is a rectangle of tuples")
            if not all(type(v) is int and 0 <= v <= MAX_CODE for v in row):
                raise ValueError(f"cell codes are ints in 0..{MAX_CODE}")
        names = [name for name, _ in self.params]
        if names != sorted(set(names)) or not all(type(v) is int for _, v in self.params):
            raise ValueError("params are (name, int) pairs with distinct names, sorted by name")

    @classmethod
    def make(cls, game: str, rows: Any, **params: int) -> Level:
        """A level from any nested sequence of ints (lists, a numpy array) and keyword params."""
        grid = tuple(tuple(int(v) for v in row) for row in rows)
        return cls(game, grid, tuple(sorted(params.items())))

    @property
    def width(self) -> int:
        """The number of columns."""
        return len(self.grid[0])

    @property
    def height(self) -> int:
        """The number of rows."""
        return len(self.grid)

    def param(self, name: str, default: int | None = None) -> int:
        """The named parameter, or ``default`` when the level has none of that name.

        Raises:
            KeyError: the level has no such parameter and no default was given.
        """
        for key, value in self.params:
            if key == name:
                return value
        if default is None:
            raise KeyError(name)
        return default

    def cells(self, code: int) -> tuple[tuple[int, int], ...]:
        """The (x, y) of every cell holding ``code``, in row-major order."""
        return tuple((x, y) for y, row in enumerate(self.grid) for x, v in enumerate(row) if v == code)

    def to_json(self) -> str:
        """A canonical JSON text: equal levels give equal texts, on every machine."""
        data = {"game": self.game, "grid": [list(row) for row in self.grid], "params": dict(self.params)}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Level:
        """The level `to_json` wrote."""
        data = json.loads(text)
        grid = tuple(tuple(row) for row in data["grid"])
        return cls(data["game"], grid, tuple(sorted(data.get("params", {}).items())))


@runtime_checkable
class GameSpec(Protocol):
    """What a game module provides: its rules, a generator of levels, an engine game and a solver.

    A spec holds no state between calls: the same rng state gives the same level, and the same level
    the same engine game and the same solution.
    """

    @property
    def id(self) -> str:
        """A short, stable, kebab-case name (``keys-doors``); it never changes once published."""
        ...

    @property
    def title(self) -> str:
        """A human title for reports and docs."""
        ...

    @property
    def rules(self) -> str:
        """A paragraph stating the rules a player must discover (for docs and judges, never players)."""
        ...

    @property
    def actions(self) -> tuple[str, ...]:
        """The actions the game offers, in engine order (e.g. ``("ACTION1", ..., "ACTION4")``)."""
        ...

    @property
    def max_difficulty(self) -> int:
        """The largest difficulty `generate` accepts; difficulties run from 0 to it."""
        ...

    @property
    def budget(self) -> int:
        """The solver budget the draw uses by default: node expansions, or the game's own search step."""
        ...

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A fresh level, a pure function of the rng's state and the difficulty.

        Raises:
            RejectLevel: the draw came out degenerate; the caller redraws from another rng.
            ValueError: the difficulty is outside 0..max_difficulty.
        """
        ...

    def build(self, level: Level) -> ARCBaseGame:
        """A new engine game whose only level is ``level``, ready for a RESET."""
        ...

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A shortest (or near-shortest, as the game documents) winning sequence of moves.

        The search runs on an abstract model of the level's state, never on engine copies, and
        expands at most ``budget`` nodes; it returns None when it finds no win within that.
        """
        ...
