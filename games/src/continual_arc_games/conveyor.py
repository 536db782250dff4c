"""conveyor: walk to the exit across conveyor belts that carry the player a cell after every move.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3 the exit, and 4 + s a belt that
runs towards side s (0 north, 1 east, 2 south, 3 west). The param ``fuel``, from difficulty 4, is
how many actions an attempt may spend (a bar below the room; see ``engine.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import (
    ARROWS,
    DOWN,
    LEFT,
    RIGHT,
    UP,
    USE,
    Level,
    Move,
    RejectLevel,
    fuelled,
    knobs_at,
    long_plan,
    retry,
)
from .engine import DELTAS, FUEL_RULE, GridGame, block, layer_sprite
from .layouts import Cell, bordered_room, distances, inner_cells, ordered, passable
from .search import bfs
from .strokes import SIDE_STEPS, odd_cell, paste
from .symmetry import SYMMETRIES, turned_grid, turned_side

__all__ = ["Conveyor"]

FLOOR, WALL, START, EXIT, BELTS = range(5)
PLAYER, GOAL, STONE, TRACK, MARK, GROUND, EDGE = 9, 14, 2, 3, 12, 5, 4

_MOVES = {**ARROWS, 5: Move(USE)}
_STAY = {**DELTAS, 5: (0, 0)}  # ACTION5 waits where the player stands


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    lanes: int  # short straight runs of belts, 2 to 4 long
    rivers: int  # belts across the whole room, each with one or two gaps
    walls: int  # inner wall cells
    shortest: int  # fewest moves a served level needs
    spare: int | None = None  # fuel beyond the fewest moves (None: no fuel bar)


_KNOBS = (
    _Knobs(8, 2, 0, 4, 5),
    _Knobs(8, 3, 1, 5, 6),
    _Knobs(10, 4, 1, 8, 8),
    _Knobs(12, 5, 2, 12, 10),
    _Knobs(12, 5, 2, 12, 10, spare=4),
    _Knobs(12, 6, 2, 14, 12, spare=2),
)


def _arrow(side: int, size: int) -> np.ndarray:
    """A belt cell's pixels: a grey square with an orange arrowhead pointing towards ``side``."""
    pixels = np.full((size, size), TRACK, dtype=np.int8)
    mid, top = size // 2, size // 4
    for j in range((size + 1) // 2):
        pixels[top + j, max(0, mid - j) : mid + j + 1] = MARK
    return np.rot90(pixels, -side).copy()  # drawn pointing north, turned clockwise


@dataclass(frozen=True)
class _Room:
    walls: frozenset[Cell]
    belts: dict[Cell, int]  # the side each belt runs towards
    start: Cell
    exit: Cell

    @classmethod
    def read(cls, level: Level) -> _Room:
        belts = {cell: side for side in range(4) for cell in level.cells(BELTS + side)}
        return cls(frozenset(level.cells(WALL)), belts, level.cells(START)[0], level.cells(EXIT)[0])

    def step(self, cell: Cell, action: int) -> Cell:
        """Where the player ends after an action: its own step (walls stop it), then its belt's."""
        dx, dy = _STAY[action]
        if (cell[0] + dx, cell[1] + dy) not in self.walls:
            cell = (cell[0] + dx, cell[1] + dy)
        side = self.belts.get(cell)
        if cell == self.exit or side is None:
            return cell
        dx, dy = SIDE_STEPS[side]
        return cell if (cell[0] + dx, cell[1] + dy) in self.walls else (cell[0] + dx, cell[1] + dy)


class Conveyor:
    """The conveyor game (see the module docstring for its level legend)."""

    id = "conveyor"
    title = "Ride the belts"
    rules = (
        "The player is the blue square: ACTION1-4 step it up, down, left or right, and walls stop "
        "it; ACTION5 stands still for a turn. Grey belts show an orange arrow: after every action, "
        "a player standing on a belt is carried one cell the way its arrow points, unless a wall is "
        "there, and the carry shows as a second frame. A belt can speed the player along, sweep it "
        "sideways, or push it back where it came from. The level is won when the player reaches "
        "the green exit, by a step or by a belt." + FUEL_RULE
    )
    actions = (UP, DOWN, LEFT, RIGHT, USE)
    max_difficulty = len(_KNOBS) - 1
    budget = 5_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 8 to 12 cells a side with belts, walls, a start and an exit far from it on foot.

        With difficulty: 2 to 6 short belt lanes, 0 to 2 rivers of belts across the room and 4 to 14
        inner walls. A served level needs at least 5 to 12 moves, and a different number of
        moves than walking would take were the belts bare floor. The room is then turned or
        mirrored at random. From difficulty 4 the level has fuel: 4, then 2, actions beyond the fewest.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        side = knobs.side
        grid = bordered_room(side, side, WALL, FLOOR)
        for _ in range(knobs.rivers):
            _river(rng, grid)
        for _ in range(knobs.lanes):
            _lane(rng, grid)
        inside = inner_cells(side, side)
        floor = [c for c in inside if grid[c[1]][c[0]] == FLOOR]
        for x, y in rng.sample(floor, knobs.walls):
            grid[y][x] = WALL
        floor = [c for c in floor if grid[c[1]][c[0]] == FLOOR]
        sx, sy = rng.choice(floor)
        # The exit goes among the floor cells farthest from the start on foot, belts aside.
        walk = distances((sx, sy), passable(grid, WALL), side, side)
        far = sorted(floor, key=lambda c: -walk.get(c, 0))[: max(1, len(floor) // 4)]
        ex, ey = rng.choice(ordered(far))
        grid[sy][sx], grid[ey][ex] = START, EXIT
        level = Level.make(self.id, _turned(grid, rng.randrange(SYMMETRIES)))
        plan = long_plan(self, level, knobs.shortest)
        if walk.get((ex, ey)) == len(plan):
            raise RejectLevel("the belts change nothing: walking takes as many moves")
        return fuelled(level, plan, knobs.spare)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a carry is a second frame of the move."""
        return _ConveyorGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves, by breadth-first search over the player's cell."""
        room = _Room.read(level)

        def successors(cell: Cell) -> Iterator[tuple[Move, Cell]]:
            for action, move in _MOVES.items():
                yield move, room.step(cell, action)

        return bfs(room.start, successors, lambda cell: cell == room.exit, budget)


def _river(rng: random.Random, grid: list[list[int]]) -> None:
    """Belts across the room along a random row or column, all one way, with one or two gaps."""
    side = len(grid)
    across = rng.randrange(1, side - 1)
    flow = rng.randrange(4)
    column = rng.random() < 0.5
    line = [(across, i) if column else (i, across) for i in range(1, side - 1)]
    gaps = set(rng.sample(range(len(line)), rng.choice((1, 2))))
    for i, (x, y) in enumerate(line):
        if i not in gaps and grid[y][x] == FLOOR:
            grid[y][x] = BELTS + flow


def _lane(rng: random.Random, grid: list[list[int]]) -> None:
    """A straight run of 2 to 4 belts running along itself, where the floor is free."""
    side = len(grid)
    flow = rng.randrange(4)
    dx, dy = SIDE_STEPS[flow]
    x, y = rng.randrange(1, side - 1), rng.randrange(1, side - 1)
    for _ in range(rng.randint(2, 4)):
        if not (0 < x < side - 1 and 0 < y < side - 1) or grid[y][x] != FLOOR:
            break
        grid[y][x] = BELTS + flow
        x, y = x + dx, y + dy


def _turned(grid: list[list[int]], symmetry: int) -> list[list[int]]:
    """The room under a symmetry (see symmetry.py), its belts turned to run the same way."""
    out = turned_grid(grid, symmetry)
    return [[BELTS + turned_side(c - BELTS, symmetry) if c >= BELTS else c for c in row] for row in out]


class _ConveyorGame(GridGame):
    """The engine side of conveyor: the player moves by collisions with the walls' sprite."""

    def __init__(self, level: Level) -> None:
        room = _Room.read(level)
        fuel = level.param("fuel", 0)
        self.size = size = odd_cell(level.width, level.height + (fuel > 0))
        box = (level.width, level.height)
        belts = np.full((level.height * size, level.width * size), -1, dtype=np.int8)
        for (x, y), side in room.belts.items():
            paste(belts, _arrow(side, size), x, y)
        sprites = [
            layer_sprite([(x, y, STONE) for x, y in room.walls], "walls", box, cell=size),
            Sprite(belts, name="belts", layer=0, tags=[]).set_interaction(InteractionMode.INTANGIBLE),
            block(GOAL, "exit", *room.exit, cell=size).set_interaction(InteractionMode.INTANGIBLE),
            block(PLAYER, "player", *room.start, cell=size, layer=2),
        ]
        self.room = room
        super().__init__(
            Conveyor.id,
            sprites,
            box,
            actions=(1, 2, 3, 4, 5),
            cell=size,
            background=GROUND,
            letterbox=EDGE,
            fuel=fuel,
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start has no carry pending."""
        self.carry: int | None = None

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """First frame: the player's own step. Second frame, if it stands on a belt: the carry."""
        player = self.sprite("player")
        if self.carry is None:
            if action != 5:
                dx, dy = DELTAS[action]
                self.try_move_sprite(player, dx * self.size, dy * self.size)
            self.carry = self.room.belts.get(self.cell_of(player))
            if self.cell_of(player) == self.room.exit:
                self.next_level()
                return True
            return self.carry is None
        dx, dy = SIDE_STEPS[self.carry]
        self.try_move_sprite(player, dx * self.size, dy * self.size)
        self.carry = None
        if self.cell_of(player) == self.room.exit:
            self.next_level()
        return True
