"""coin-gate: walk a maze collecting coins; the gate to the exit opens only for the exact count.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3 the exit, 4 a coin, 5 the gate.
The param ``need`` is the number of coins the gate asks for, shown as that many sockets below the
maze. The exit is a dead end whose only way in is through the gate.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from arcengine import ARCBaseGame, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, knobs_at, retry
from .engine import DELTAS, GridGame, block, layer_sprite, patch
from .exits import EXIT, FLOOR, START, WALL, Walk, walk_ends
from .layouts import Cell, Grid, carve_maze, distances, neighbours, ordered, passable
from .mazes import maze_way
from .search import astar

__all__ = ["CoinGate"]

COIN, GATE = 4, 5
PLAYER, GOAL, GOLD, AMBER, OVER, STONE, GROUND, EDGE = 9, 14, 11, 12, 8, 2, 5, 4
CELL = 2  # pixels per cell, so that an open gate can show as a checker

_OPEN = [[AMBER, -1], [-1, AMBER]]


@dataclass(frozen=True)
class _Knobs:
    rooms: int  # the maze is rooms x rooms, on a (2 rooms + 1)-cell square grid
    coins: int
    loops: int  # walls knocked out between rooms, so that coins can be walked around
    detour: int  # steps the fewest-move win takes beyond the walk that ignores the coins


_KNOBS = (_Knobs(4, 3, 2, 2), _Knobs(5, 4, 3, 2), _Knobs(5, 5, 4, 4), _Knobs(6, 6, 6, 6))


@dataclass(frozen=True)
class _Maze(Walk):
    gate: Cell
    coins: tuple[Cell, ...]
    need: int
    size: tuple[int, int]

    @classmethod
    def read(cls, level: Level) -> _Maze:
        return cls(
            *walk_ends(level),
            level.cells(GATE)[0],
            level.cells(COIN),
            level.param("need"),
            (level.width, level.height),
        )


# The solver's state: the player's cell and the bitmask of the coins taken.
_State = tuple[int, int, int]


class CoinGate:
    """The coin-gate game (see the module docstring for its level legend)."""

    id = "coin-gate"
    title = "Count the coins"
    rules = (
        "The blue player walks a maze one cell at a time with ACTION1-4 (up, down, left, right); grey "
        "walls stop it. Walking onto a yellow coin takes it. The orange gate stands before the green "
        "exit, and the orange squares below the maze say how many coins it asks for: each coin taken "
        "turns the next square yellow, and coins beyond the count show red. The gate lets the player "
        "through (drawn as a checker) only while the coins taken equal the count exactly; coins "
        "cannot be given back, so taking too many leaves the level unwinnable until RESET. The level "
        "is won when the player steps onto the exit."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A maze of 4 to 6 rooms a side with 3 to 6 coins, 2 to 6 loops and a 2- to 6-step detour."""
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = carve_maze(rng, knobs.rooms, knobs.rooms, WALL, FLOOR)
        side = len(grid)
        rooms = ordered((x, y) for y in range(1, side, 2) for x in range(1, side, 2))
        start = rng.choice(rooms)
        ends = [r for r in rooms if r != start and len(_ways(grid, r)) == 1]
        if not ends:
            raise RejectLevel("no dead end for the exit")
        exit_ = rng.choice(ends)
        gate = _ways(grid, exit_)[0]
        _open_loops(rng, grid, exit_, knobs.loops)
        free = [
            c
            for c in ordered(distances(start, passable(grid, WALL), side, side))
            if c not in (start, exit_, gate)
        ]
        coins = rng.sample(free, knobs.coins)
        walk = maze_way(grid, WALL, start, exit_)
        on_walk = sum(1 for c in walk if c in coins)
        grid[start[1]][start[0]], grid[exit_[1]][exit_[0]], grid[gate[1]][gate[0]] = START, EXIT, GATE
        for x, y in coins:
            grid[y][x] = COIN
        need = rng.choice([n for n in range(1, knobs.coins + 1) if n != on_walk])
        level = Level.make(self.id, grid, need=need)
        plan = self.solve(level, self.budget)
        if plan is None or len(plan) < len(walk) - 1 + knobs.detour:
            raise RejectLevel("no win, or one that hardly needs the coins counted")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the maze, and below it a strip of sockets that counts the coins taken."""
        return _CoinGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest steps, by A* over (cell, coins taken) with the maze distance to the exit.

        States holding more coins than the gate asks for are never generated: coins cannot be
        dropped, so the gate would stay shut.
        """
        maze = _Maze.read(level)
        coin_at = {cell: i for i, cell in enumerate(maze.coins)}
        to_exit = distances(maze.exit, lambda c: c not in maze.walls, *maze.size)

        def successors(state: _State) -> Iterator[tuple[Move, _State]]:
            x, y, taken = state
            for action, (dx, dy) in DELTAS.items():
                cell = (x + dx, y + dy)
                if cell in maze.walls or (cell == maze.gate and taken.bit_count() != maze.need):
                    continue
                coin = coin_at.get(cell)
                now = taken | (1 << coin) if coin is not None else taken
                if now.bit_count() <= maze.need:
                    yield ARROWS[action], (cell[0], cell[1], now)

        return astar(
            (*maze.start, 0),
            successors,
            lambda s: (s[0], s[1]) == maze.exit,
            lambda s: to_exit.get((s[0], s[1]), 10**6),
            budget,
        )


def _ways(grid: Grid, room: Cell) -> list[Cell]:
    """The open passages out of a room."""
    side = len(grid)
    return [c for c in neighbours(room, side, side) if grid[c[1]][c[0]] != WALL]


def _open_loops(rng: random.Random, grid: Grid, exit_: Cell, loops: int) -> None:
    """Knock out ``loops`` walls between two rooms, never one beside the exit (the gate stays its way in)."""
    side = len(grid)
    candidates = []
    for y in range(1, side - 1):
        for x in range(1, side - 1):
            if grid[y][x] == WALL and x % 2 != y % 2:
                a, b = ((x - 1, y), (x + 1, y)) if x % 2 == 0 else ((x, y - 1), (x, y + 1))
                if exit_ not in (a, b):
                    candidates.append((x, y))
    for x, y in rng.sample(candidates, min(loops, len(candidates))):
        grid[y][x] = FLOOR


class _CoinGame(GridGame):
    """The engine side of coin-gate: every coin is in one sprite, and so is the strip that counts.

    Few sprites keep a step cheap: the camera renders, and each collision test scans, sprite by sprite.
    """

    def __init__(self, level: Level) -> None:
        maze = _Maze.read(level)
        self.need, (self.width, self.height) = maze.need, maze.size
        size = (self.width, self.height + 1)
        coins = layer_sprite(((x, y, GOLD) for x, y in maze.coins), "coins", size, cell=CELL)
        coins.tags.append("coin")
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in maze.walls), "walls", size, cell=CELL),
            block(GOAL, "exit", *maze.exit, cell=CELL, tags=["exit"]),
            block(AMBER, "gate", *maze.gate, cell=CELL, tags=["gate"]),
            coins,
            block(PLAYER, "player", *maze.start, cell=CELL, layer=3),
            self._strip(0).set_collidable(False),
        ]
        super().__init__(
            CoinGate.id, sprites, size, actions=(1, 2, 3, 4), cell=CELL, background=GROUND, letterbox=EDGE
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start has no coins."""
        self.taken = 0

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step the player, taking a coin or passing the gate if the count allows."""
        dx, dy = DELTAS[action]
        player = self.sprite("player")
        hits = self.try_move_sprite(player, dx * CELL, dy * CELL)
        if not hits or any(s.name == "walls" for s in hits):
            return True
        target = hits[0]
        if "gate" in target.tags and self.taken != self.need:
            return True
        player.move(dx * CELL, dy * CELL)
        if "coin" in target.tags:
            target.pixels[player.y : player.y + CELL, player.x : player.x + CELL] = -1
            self.taken += 1
            self.sprite("strip").pixels = self._strip(self.taken).pixels
            # A checker while the count is right (the gate lets the player through), else solid.
            shape = _OPEN if self.taken == self.need else [[AMBER]]
            self.sprite("gate").pixels = patch(shape, "gate", 0, 0, cell=CELL).pixels
        if "exit" in target.tags:
            self.next_level()
        return True

    def _strip(self, taken: int) -> Sprite:
        """The row below the maze: a socket per coin asked for, yellow once filled; extra coins red."""
        marks = [(k, self.height, GOLD if k < taken else AMBER) for k in range(self.need)]
        marks += [(k, self.height, OVER) for k in range(self.need, taken)]
        return layer_sprite(marks, "strip", (self.width, self.height + 1), cell=CELL, layer=2)
