"""crumble-floor: tiles crumble behind the player; collect every gem, then reach the exit.

Legend of the level grid: 0 a crumbling tile, 1 wall, 2 the player's start (a crumbling tile), 3 the
exit (solid), 4 a gem (on a crumbling tile), 5 stone (solid floor that never crumbles), 6 a hole.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, knobs_at, long_plan, retry
from .engine import DELTAS, GridGame, block, layer_sprite, patch
from .layouts import Cell, carve_maze, ordered
from .mazes import open_loops
from .search import astar, bfs

__all__ = ["CrumbleFloor"]

TILE, WALL, START, EXIT, GEM, STONE, HOLE = range(7)
PLAYER, CRACKED, SOLID, GOLD, GOAL, ROCK, VOID, EDGE = 9, 13, 1, 11, 14, 3, 5, 4
CELL = 3  # pixels per cell: a gem is a plus on its tile, the exit a ring until every gem is taken


@dataclass(frozen=True)
class _Knobs:
    rooms: int  # the floor is a maze of rooms x rooms, on a (2 rooms + 1)-cell square grid
    loops: int  # openings that give the maze other ways round
    stones: int  # solid tiles that never crumble
    gems: int
    shortest: int  # fewest moves a served level needs


_KNOBS = (
    _Knobs(3, 2, 0, 1, 6),
    _Knobs(3, 3, 1, 2, 9),
    _Knobs(4, 4, 1, 3, 11),
    _Knobs(4, 5, 2, 4, 14),
)


@dataclass(frozen=True)
class _Floor:
    """A level's floor as bitmasks over cell indices ``y * width + x``.

    The wall ring keeps shifted masks honest: a shift by one that wraps from a row's last cell to
    the next row's first lands on a wall, which no mask of floor holds.
    """

    width: int
    start: int
    exit: int
    gems: int  # the cells holding a gem
    tiles: int  # the crumbling cells
    floor: int  # every cell that can be stood on at the start

    @classmethod
    def read(cls, level: Level) -> _Floor:
        width = level.width

        def mask(*codes: int) -> int:
            return sum(1 << (y * width + x) for code in codes for x, y in level.cells(code))

        floor = mask(TILE, START, EXIT, GEM, STONE)
        exit_ = mask(EXIT).bit_length() - 1
        return cls(width, mask(START).bit_length() - 1, exit_, mask(GEM), mask(TILE, START, GEM), floor)

    def steps(self, at: int, standing: int, wanted: int) -> dict[int, int]:
        """Steps from ``at`` to each cell of ``wanted`` it can reach over the ``standing`` cells."""
        found: dict[int, int] = {}
        reach = frontier = 1 << at
        depth = 0
        while frontier:
            hits = frontier & wanted
            while hits:
                low = hits & -hits
                found[low.bit_length() - 1] = depth
                hits ^= low
            if len(found) == wanted.bit_count():
                return found
            depth += 1
            w = self.width
            frontier = (
                ((frontier << 1) | (frontier >> 1) | (frontier << w) | (frontier >> w)) & standing & ~reach
            )
            reach |= frontier
        return found


# The abstract state: the player's cell index and the bitmask of the crumbling tiles that have fallen.
_State = tuple[int, int]


class CrumbleFloor:
    """The crumble-floor game (see the module docstring for its level legend)."""

    id = "crumble-floor"
    title = "Crumbling floor"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); grey walls stop it. Each dark red tile crumbles into a black hole as soon as the "
        "player steps off it, while light grey stone never does. Stepping into a hole is a fall that "
        "loses the level. Walking onto a yellow gem collects it. The green exit is a ring while gems "
        "are left and fills in when the last is collected; the level is won by entering the filled "
        "exit."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A maze of 3 or 4 rooms a side whose walls are holes, 2 to 5 loops, 0 to 2 stones, 1 to 4 gems.

        The start, exit, gems and stones go on random floor cells. A served level needs at least 6
        to 14 moves, and its shortest plan would be shorter if tiles did not crumble: the crumbling
        is what the player has to plan around.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = carve_maze(rng, knobs.rooms, knobs.rooms, HOLE, TILE)
        open_loops(rng, grid, HOLE, TILE, (), knobs.loops)
        side = len(grid)
        for i in range(side):
            grid[0][i] = grid[side - 1][i] = grid[i][0] = grid[i][side - 1] = WALL
        floor = ordered((x, y) for y in range(side) for x in range(side) if grid[y][x] == TILE)
        picks = rng.sample(floor, 2 + knobs.gems + knobs.stones)
        codes = [START, EXIT] + [GEM] * knobs.gems + [STONE] * knobs.stones
        for (x, y), code in zip(picks, codes, strict=True):
            grid[y][x] = code
        level = Level.make(self.id, grid)
        plan = long_plan(self, level, knobs.shortest)
        relaxed = _relaxed(_Floor.read(level), self.budget)
        if relaxed is not None and len(relaxed) == len(plan):
            raise RejectLevel("the crumbling never gets in the way")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the floor is one sprite, its tiles cleared as they crumble."""
        return _CrumbleGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A shortest plan, by A* over (cell, tiles fallen).

        Moves that cut a gem or the exit off (no way left to it over standing floor) are dropped.
        The heuristic is the walk over standing floor to the farthest gem left plus that gem's
        distance to the exit over the starting floor: it never overestimates, as floor only falls.
        """
        floor = _Floor.read(level)
        to_exit = floor.steps(floor.exit, floor.floor, floor.floor)
        offsets = {action: dx + dy * floor.width for action, (dx, dy) in DELTAS.items()}
        bound: dict[_State, int] = {}

        def estimate(at: int, fallen: int) -> int | None:
            left = floor.gems & ~fallen & ~(1 << at)
            wanted = left | 1 << floor.exit
            found = floor.steps(at, floor.floor & ~fallen, wanted)
            if len(found) < wanted.bit_count():
                return None
            return max((d + to_exit[g] for g, d in found.items() if left >> g & 1), default=found[floor.exit])

        def successors(state: _State) -> Iterator[tuple[Move, _State]]:
            at, fallen = state
            after = fallen | (floor.tiles & 1 << at)
            for action, offset in offsets.items():
                nxt = at + offset
                if (floor.floor & ~after) >> nxt & 1 and (h := estimate(nxt, after)) is not None:
                    bound[(nxt, after)] = h
                    yield ARROWS[action], (nxt, after)

        start = (floor.start, 0)
        bound[start] = estimate(*start) or 0

        def won(state: _State) -> bool:
            return state[0] == floor.exit and not floor.gems & ~state[1]

        return astar(start, successors, won, bound.__getitem__, budget)


def _relaxed(floor: _Floor, budget: int) -> tuple[Move, ...] | None:
    """A shortest plan if no tile ever crumbled, by breadth-first search over (cell, gems left)."""
    offsets = {action: dx + dy * floor.width for action, (dx, dy) in DELTAS.items()}

    def successors(state: tuple[int, int]) -> Iterator[tuple[Move, tuple[int, int]]]:
        at, left = state
        for action, offset in offsets.items():
            if floor.floor >> (at + offset) & 1:
                yield ARROWS[action], (at + offset, left & ~(1 << (at + offset)))

    return bfs((floor.start, floor.gems), successors, lambda s: s == (floor.exit, 0), budget)


def _ring(colour: int) -> list[list[int]]:
    return [[colour] * CELL, [colour, -1, colour], [colour] * CELL]


class _CrumbleGame(GridGame):
    """The engine side of crumble-floor."""

    def __init__(self, level: Level) -> None:
        size = (level.width, level.height)
        tiles = [(x, y, CRACKED) for code in (TILE, START, GEM) for x, y in level.cells(code)]
        stones = [(x, y, SOLID) for code in (STONE, EXIT) for x, y in level.cells(code)]
        exit_ = patch(_ring(GOAL), "exit", *level.cells(EXIT)[0], cell=CELL, layer=1)
        sprites = [
            layer_sprite(((x, y, ROCK) for x, y in level.cells(WALL)), "walls", size, cell=CELL),
            layer_sprite(tiles + stones, "floor", size, cell=CELL).set_interaction(
                InteractionMode.INTANGIBLE
            ),
            exit_.set_interaction(InteractionMode.INTANGIBLE),
            block(PLAYER, "player", *level.cells(START)[0], cell=CELL, layer=3),
        ]
        plus = [[-1, GOLD, -1], [GOLD] * CELL, [-1, GOLD, -1]]
        for i, (x, y) in enumerate(level.cells(GEM)):
            gem = patch(plus, f"gem{i}", x, y, cell=CELL, layer=2, tags=["gem"])
            sprites.append(gem.set_interaction(InteractionMode.INTANGIBLE))
        super().__init__(
            CrumbleFloor.id, sprites, size, actions=(1, 2, 3, 4), cell=CELL, background=VOID, letterbox=EDGE
        )

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step; the tile left crumbles, a hole entered is a fall, a gem entered is collected."""
        dx, dy = DELTAS[action]
        player = self.sprite("player")
        (px, py), floor = self.cell_of(player), self.sprite("floor")
        if self.try_move_sprite(player, dx * CELL, dy * CELL):
            return True
        if floor.pixels[py * CELL, px * CELL] == CRACKED:
            floor.pixels[py * CELL : (py + 1) * CELL, px * CELL : (px + 1) * CELL] = -1
        x, y = self.cell_of(player)
        if floor.pixels[y * CELL, x * CELL] < 0:
            self.lose()
            return True
        for gem in self.current_level.get_sprites_by_tag("gem"):
            if self.cell_of(gem) == (x, y):
                self.current_level.remove_sprite(gem)
        exit_ = self.sprite("exit")
        if not self.current_level.get_sprites_by_tag("gem"):
            exit_.pixels = np.full((CELL, CELL), GOAL, dtype=np.int8)
            if self.cell_of(exit_) == (x, y):
                self.next_level()
        return True
