"""crumble-floor: tiles crumble behind the player; collect every gem, then reach the exit.

Legend of the level grid: 0 a crumbling tile, 1 wall, 2 the player's start (a crumbling tile), 3 the
exit (solid), 4 a gem (on a crumbling tile), 5 stone (solid floor that never crumbles), 6 a hole,
7 a sturdy tile (it holds the first time the player leaves it, and crumbles like any tile after).

Each difficulty adds an element the one before lacks:

- 0: crumbling tiles, holes, gems and the exit.
- 1: stones, solid floor that never crumbles, where the way can cross itself.
- 2: sturdy tiles, which can be crossed twice; every drawn level's plan crosses one twice.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, knobs_at, retry
from .engine import DELTAS, GridGame, block, layer_sprite, patch
from .layouts import Cell, carve_maze, ordered
from .mazes import open_loops
from .search import astar, bfs

__all__ = ["CrumbleFloor"]

TILE, WALL, START, EXIT, GEM, STONE, HOLE, STURDY = range(8)
PLAYER, CRACKED, SOLID, GOLD, GOAL, ROCK, VOID, EDGE = 9, 13, 1, 11, 14, 3, 5, 4
THICK = 12  # a sturdy tile (orange)
CELL = 3  # pixels per cell: a gem is a plus on its tile, the exit a ring until every gem is taken


@dataclass(frozen=True)
class _Knobs:
    rooms: int  # the floor is a maze of rooms x rooms, on a (2 rooms + 1)-cell square grid
    loops: int  # openings that give the maze other ways round
    stones: int  # solid tiles that never crumble
    gems: int
    shortest: int  # fewest moves a served level needs
    sturdy: int = 0  # tiles that hold once before they crumble


_KNOBS = (
    _Knobs(3, 2, 0, 1, 6),
    _Knobs(3, 3, 1, 2, 9),
    _Knobs(4, 4, 1, 3, 10, sturdy=3),
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
    sturdy: int = 0  # the sturdy tiles

    @classmethod
    def read(cls, level: Level) -> _Floor:
        width = level.width

        def mask(*codes: int) -> int:
            return sum(1 << (y * width + x) for code in codes for x, y in level.cells(code))

        floor = mask(TILE, START, EXIT, GEM, STONE, STURDY)
        exit_, start = mask(EXIT).bit_length() - 1, mask(START).bit_length() - 1
        return cls(width, start, exit_, mask(GEM), mask(TILE, START, GEM), floor, mask(STURDY))

    def leave(self, at: int, fallen: int, worn: int) -> tuple[int, int]:
        """The fallen and worn masks once the player steps off ``at``."""
        bit = 1 << at
        if self.sturdy & bit and not worn & bit:
            return fallen, worn | bit  # it holds, this once
        return fallen | ((self.tiles | self.sturdy) & bit), worn

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


#: The expansions a generator gives the solver on a fresh layout.
_DRAW_BUDGET = 3_000

# The abstract state: the player's cell index and the bitmasks of the tiles that have fallen, of the
# sturdy tiles already left once, and of the gems collected.
_State = tuple[int, int, int, int]


class CrumbleFloor:
    """The crumble-floor game (see the module docstring for its level legend)."""

    id = "crumble-floor"
    title = "Crumbling floor"
    rules = (
        "The player is the blue square, moved one cell at a time by ACTION1-4 (up, down, left, "
        "right); grey walls stop it. Each dark red tile crumbles into a black hole as soon as the "
        "player steps off it, while light grey stone never does. Stepping into a hole is a fall that "
        "loses the level. An orange sturdy tile holds the first time the player steps off it, turning "
        "dark red, and crumbles the next. Walking onto a yellow gem collects it. The green exit is a "
        "ring while gems are left and fills in when the last is collected; the level is won by "
        "entering the filled exit."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A maze of 3 or 4 rooms a side whose walls are holes, 2 to 4 loops, 0 or 1 stone, 1 to 3 gems.

        The start, exit, gems and stones go on random floor cells, and at difficulty 2 the sturdy
        tiles where the way that ignores crumbling passes twice. A served level needs at least 6
        to 10 moves, and its shortest plan would be shorter if tiles did not crumble: the crumbling
        is what the player has to plan around. At difficulty 2 the shortest plan must cross a
        sturdy tile twice.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 80)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = carve_maze(rng, knobs.rooms, knobs.rooms, HOLE, TILE)
        open_loops(rng, grid, HOLE, TILE, (), knobs.loops)
        side = len(grid)
        for i in range(side):
            grid[0][i] = grid[side - 1][i] = grid[i][0] = grid[i][side - 1] = WALL
        floor = ordered((x, y) for y in range(side) for x in range(side) if grid[y][x] == TILE)
        codes = [START, EXIT] + [GEM] * knobs.gems + [STONE] * knobs.stones
        picks = rng.sample(floor, len(codes))
        for (x, y), code in zip(picks, codes, strict=True):
            grid[y][x] = code
        if knobs.sturdy:
            # Sturdy tiles go where the way that ignores crumbling passes twice: there they can help.
            walk = _relaxed(_Floor.read(Level.make(self.id, grid)), self.budget)
            twice = [c for c in ordered(_crossed(grid, walk)) if grid[c[1]][c[0]] == TILE] if walk else []
            # One such cell at least is left crumbling, so that the crumbling still gets in the way.
            for x, y in rng.sample(twice, max(0, min(knobs.sturdy, len(twice) - 1))):
                grid[y][x] = STURDY
        level = Level.make(self.id, grid)
        # A layout the solver needs more than a few thousand expansions for is given up: most that
        # cost that much have no win at all (the draw then solves a served level again in full).
        plan = self.solve(level, _DRAW_BUDGET)
        if plan is None or len(plan) < knobs.shortest:
            raise RejectLevel(
                f"unsolved within {_DRAW_BUDGET} expansions, or in fewer than {knobs.shortest} moves"
            )
        relaxed = _relaxed(_Floor.read(level), self.budget)
        if relaxed is not None and len(relaxed) == len(plan):
            raise RejectLevel("the crumbling never gets in the way")
        if knobs.sturdy and not any(grid[y][x] == STURDY for x, y in _crossed(grid, plan)):
            raise RejectLevel("the fewest-move plan crosses no sturdy tile twice")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the floor is one sprite, its tiles cleared as they crumble."""
        return _CrumbleGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A shortest plan, by A* over (cell, tiles fallen, sturdy tiles left once, gems taken).

        Moves that cut a gem or the exit off (no way left to it over standing floor) are dropped.
        The heuristic is the walk over standing floor to the farthest gem left plus that gem's
        distance to the exit over the starting floor: it never overestimates, as floor only falls.
        """
        floor = _Floor.read(level)
        to_exit = floor.steps(floor.exit, floor.floor, floor.floor)
        offsets = {action: dx + dy * floor.width for action, (dx, dy) in DELTAS.items()}
        bound: dict[_State, int] = {}

        def estimate(at: int, fallen: int, taken: int) -> int | None:
            left = floor.gems & ~taken & ~(1 << at)
            wanted = left | 1 << floor.exit
            found = floor.steps(at, floor.floor & ~fallen, wanted)
            if len(found) < wanted.bit_count():
                return None
            return max((d + to_exit[g] for g, d in found.items() if left >> g & 1), default=found[floor.exit])

        def successors(state: _State) -> Iterator[tuple[Move, _State]]:
            at, fallen, worn, taken = state
            after, worn_after = floor.leave(at, fallen, worn)
            for action, offset in offsets.items():
                nxt = at + offset
                got = taken | (floor.gems & 1 << nxt)
                if (floor.floor & ~after) >> nxt & 1 and (h := estimate(nxt, after, got)) is not None:
                    bound[(nxt, after, worn_after, got)] = h
                    yield ARROWS[action], (nxt, after, worn_after, got)

        start = (floor.start, 0, 0, 0)
        bound[start] = estimate(floor.start, 0, 0) or 0

        def won(state: _State) -> bool:
            return state[0] == floor.exit and state[3] == floor.gems

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


def _crossed(grid: list[list[int]], plan: tuple[Move, ...]) -> set[Cell]:
    """The cells ``plan`` leaves more than once, walked from the start of ``grid``."""
    (x, y) = next((x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == START)
    left: dict[Cell, int] = {}
    steps = {ARROWS[action]: step for action, step in DELTAS.items()}
    for move in plan:
        left[(x, y)] = left.get((x, y), 0) + 1
        dx, dy = steps[move]
        x, y = x + dx, y + dy
    return {cell for cell, times in left.items() if times > 1}


def _ring(colour: int) -> list[list[int]]:
    return [[colour] * CELL, [colour, -1, colour], [colour] * CELL]


class _CrumbleGame(GridGame):
    """The engine side of crumble-floor."""

    def __init__(self, level: Level) -> None:
        size = (level.width, level.height)
        tiles = [(x, y, CRACKED) for code in (TILE, START, GEM) for x, y in level.cells(code)]
        stones = [(x, y, SOLID) for code in (STONE, EXIT) for x, y in level.cells(code)]
        stones += [(x, y, THICK) for x, y in level.cells(STURDY)]
        exit_ = patch(_ring(GOAL), "exit", *level.cells(EXIT)[0], cell=CELL, layer=1)
        floor = layer_sprite(tiles + stones, "floor", size, cell=CELL)
        sprites = [
            layer_sprite(((x, y, ROCK) for x, y in level.cells(WALL)), "walls", size, cell=CELL),
            floor.set_interaction(InteractionMode.INTANGIBLE),
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
        """Step; the tile left crumbles (a sturdy one cracks), a hole is a fall, a gem is collected."""
        dx, dy = DELTAS[action]
        player = self.sprite("player")
        (px, py), floor = self.cell_of(player), self.sprite("floor")
        if self.try_move_sprite(player, dx * CELL, dy * CELL):
            return True
        left = floor.pixels[py * CELL : (py + 1) * CELL, px * CELL : (px + 1) * CELL]
        if left[0, 0] in (CRACKED, THICK):
            left[:] = CRACKED if left[0, 0] == THICK else -1
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
