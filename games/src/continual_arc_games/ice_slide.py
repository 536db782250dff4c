"""ice-slide: on ice the player slides until something stops it; patches of snow stop it at once.

Legend of the level grid: 0 ice, 1 wall (the ring and the rocks), 2 the player's start (on snow),
3 the exit, 4 snow. The param ``fuel``, from difficulty 4, is how many actions an attempt may spend
(a bar below the rink; see ``engine.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, InteractionMode

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, fuelled, knobs_at, long_plan, retry
from .engine import DELTAS, FUEL_RULE, GridGame, block, layer_sprite
from .layouts import Cell, bordered_room, ordered
from .search import bfs

__all__ = ["IceSlide"]

ICE, WALL, START, EXIT, SNOW = range(5)
PLAYER, GOAL, WHITE, FROST, STONE, EDGE = 9, 14, 0, 10, 3, 4


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    rocks: int  # inner wall cells
    snow: int  # snow cells besides the start's
    shortest: int  # fewest moves a served level needs
    spare: int | None = None  # fuel beyond the fewest moves (None: no fuel bar)


_KNOBS = (
    _Knobs(8, 6, 3, 5),
    _Knobs(9, 8, 4, 6),
    _Knobs(11, 12, 6, 7),
    _Knobs(12, 16, 8, 9),
    _Knobs(12, 16, 8, 9, spare=3),
    _Knobs(13, 20, 9, 10, spare=2),
)


@dataclass(frozen=True)
class _Rink:
    walls: frozenset[Cell]
    snow: frozenset[Cell]
    start: Cell
    exit: Cell

    @classmethod
    def read(cls, level: Level) -> _Rink:
        start = level.cells(START)[0]
        snow = frozenset((*level.cells(SNOW), start))
        return cls(frozenset(level.cells(WALL)), snow, start, level.cells(EXIT)[0])

    def slide(self, cell: Cell, dx: int, dy: int) -> Cell:
        """Where a move from ``cell`` ends: one step, then on over ice until a wall is next.

        Snow and the exit stop the player on them; a wall straight ahead means no move at all.
        """
        x, y = cell
        while (x + dx, y + dy) not in self.walls:
            x, y = x + dx, y + dy
            if (x, y) in self.snow or (x, y) == self.exit:
                break
        return x, y


class IceSlide:
    """The ice-slide game (see the module docstring for its level legend)."""

    id = "ice-slide"
    title = "Slide on the ice"
    rules = (
        "The player is the blue square, moved by ACTION1-4 (up, down, left, right). On the light "
        "blue ice it keeps sliding the way it was sent, one cell per frame, until a grey wall or rock "
        "is straight ahead. White snow stops it on the cell it enters, and from snow it steps one "
        "cell at a time. The level is won when the player reaches the green exit, which also stops "
        "it mid-slide." + FUEL_RULE
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 2_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A rink of 8 to 13 cells a side, 6 to 20 rocks, 3 to 9 snow cells, at least 5 to 10 moves.

        From difficulty 4 the level has fuel: 3, then 2, actions beyond the fewest.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = bordered_room(knobs.side, knobs.side, WALL, ICE)
        inside = ordered((x, y) for y in range(1, knobs.side - 1) for x in range(1, knobs.side - 1))
        picks = rng.sample(inside, knobs.rocks + knobs.snow + 1)
        codes = [WALL] * knobs.rocks + [SNOW] * knobs.snow + [START]
        for (x, y), code in zip(picks, codes, strict=True):
            grid[y][x] = code
        walls = frozenset((x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == WALL)
        rink = _Rink(walls, frozenset(picks[knobs.rocks :]), picks[-1], (-1, -1))
        depth = _first_passes(rink)
        # Until the player first crosses the exit, it slides as if there were none, so the exit's
        # first-pass depth is exactly the fewest moves the level needs.
        far = [cell for cell in ordered(depth) if depth[cell] >= knobs.shortest]
        if not far:
            raise RejectLevel(f"no cell is {knobs.shortest} moves away")
        x, y = rng.choice(far)
        grid[y][x] = EXIT
        level = Level.make(self.id, grid)
        return (
            level
            if knobs.spare is None
            else fuelled(level, long_plan(self, level, knobs.shortest), knobs.spare)
        )

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a slide is an animation of one frame per cell."""
        return _IceGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves, by breadth-first search over the cells where the player comes to rest."""
        rink = _Rink.read(level)

        def successors(cell: Cell) -> Iterator[tuple[Move, Cell]]:
            for action, (dx, dy) in DELTAS.items():
                end = rink.slide(cell, dx, dy)
                if end != cell:
                    yield ARROWS[action], end

        return bfs(rink.start, successors, lambda cell: cell == rink.exit, budget)


def _first_passes(rink: _Rink) -> dict[Cell, int]:
    """For every cell the player can cross or reach, the fewest moves that take it there."""
    depth: dict[Cell, int] = {}
    rests = {rink.start: 0}
    frontier = [rink.start]
    while frontier:
        later = []
        for x, y in frontier:
            moves = rests[(x, y)] + 1
            for dx, dy in DELTAS.values():
                end = rink.slide((x, y), dx, dy)
                cx, cy = x, y
                while (cx, cy) != end:
                    cx, cy = cx + dx, cy + dy
                    depth.setdefault((cx, cy), moves)
                if end not in rests:
                    rests[end] = moves
                    later.append(end)
        frontier = later
    depth.pop(rink.start, None)
    return depth


class _IceGame(GridGame):
    """The engine side of ice-slide: each frame moves the player one cell, until it rests."""

    def __init__(self, level: Level) -> None:
        rink = _Rink.read(level)
        size = (level.width, level.height)
        snow = layer_sprite([(x, y, WHITE) for x, y in ordered(rink.snow)], "snow", size)
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in rink.walls), "walls", size),
            snow.set_interaction(InteractionMode.INTANGIBLE),
            block(GOAL, "exit", *rink.exit).set_interaction(InteractionMode.INTANGIBLE),
            block(PLAYER, "player", *rink.start, layer=2),
        ]
        super().__init__(
            IceSlide.id,
            sprites,
            size,
            actions=(1, 2, 3, 4),
            background=FROST,
            letterbox=EDGE,
            fuel=level.param("fuel", 0),
        )

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Move the player one cell; ask for another frame while it is on ice with the way clear."""
        dx, dy = DELTAS[action]
        player = self.sprite("player")
        if self.try_move_sprite(player, dx, dy):
            return True  # a wall ahead: the move (or the slide) ends here
        x, y = self.cell_of(player)
        if (x, y) == self.cell_of(self.sprite("exit")):
            self.next_level()
            return True
        if self.sprite("snow").pixels[y, x] == WHITE:
            return True
        # Look one cell ahead now, so that a slide ending at a wall takes no extra, unchanged frame.
        blocked = self.try_move_sprite(player, dx, dy)
        if not blocked:
            player.move(-dx, -dy)
        return bool(blocked)
