"""What the games of a player walking to an exit share: the first four codes and three fields.

Six games (keys-doors, coin-gate, portals, bridge-switches, guard-patrol, colour-gates) give the
same codes to a level grid's floor, walls, start and exit, and each reads its level into a layout
that begins with the walls, the start and the exit: `Walk` holds those, and each game's
layout extends it with what its mechanic adds.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Level
from .layouts import Cell

__all__ = ["EXIT", "FLOOR", "START", "WALL", "Walk", "walk_ends"]

FLOOR, WALL, START, EXIT = range(4)


@dataclass(frozen=True)
class Walk:
    """A level's walls, the player's start and the exit."""

    walls: frozenset[Cell]
    start: Cell
    exit: Cell


def walk_ends(level: Level) -> tuple[frozenset[Cell], Cell, Cell]:
    """The walls, start and exit of a level, in `Walk`'s order (to construct a subclass)."""
    return frozenset(level.cells(WALL)), level.cells(START)[0], level.cells(EXIT)[0]
