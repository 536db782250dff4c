"""guard-patrol: slip past guards walking fixed rounds, one cell per action, to reach the exit.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3 the exit, 10 + g a cell of guard
g's round, 20 + g the cell of that round where guard g starts. A round is either the ring of cells
around a rectangle or a straight line walked back and forth. The parameter ``way<g>`` is 0 when guard g
goes clockwise round its ring (or first towards the line's right or bottom end), 1 the other way.
30 is the hunter's start, 31 a hedge (the player walks through it; the hunter cannot).

Each difficulty adds an element the one before lacks:

- 0: one guard, pacing a line or circling a ring in the gap of a wall across the room.
- 1: the hunter, which after every action steps a cell towards the player (along the axis of the
  larger gap first, the other when that is blocked) and catches it as a guard does; every drawn
  level's plan is changed by it.
- 2: hedges, which the player walks through and the hunter cannot, so the player can shake it off;
  every drawn level's plan is changed by them.
- 3: a second wall across the room, with a guard of its own: two rounds to time, with the hunter
  behind.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from math import lcm

from arcengine import ARCBaseGame, InteractionMode

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, USE, Level, Move, RejectLevel, knobs_at, long_plan, retry
from .engine import DELTAS, GridGame, block, layer_sprite
from .exits import EXIT, FLOOR, START, WALL, Walk, walk_ends
from .layouts import Cell, bordered_room, distances, inner_cells, passable
from .search import bfs
from .symmetry import SYMMETRIES, turned_cell, turned_grid

__all__ = ["GuardPatrol", "patrol"]

ROUND, GUARD, HUNTER, HEDGE = 10, 20, 30, 31
PLAYER, GOAL, STONE, TRAIL, RED, GROUND, EDGE = 9, 14, 2, 13, 8, 5, 4
CHASER, SHRUB = 6, 15  # the hunter (magenta), a hedge (purple)

_MOVES = {**ARROWS, 5: Move(USE)}
_STAY = {**DELTAS, 5: (0, 0)}  # ACTION5 waits a turn


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    guards: int
    walls: int  # inner wall cells
    shortest: int  # fewest moves a served level needs
    hunter: bool = False
    hedges: int = 0


_KNOBS = (
    _Knobs(7, 1, 2, 5),
    _Knobs(8, 1, 3, 7, hunter=True),
    _Knobs(9, 1, 3, 8, hunter=True, hedges=3),
    _Knobs(10, 2, 4, 10, hunter=True, hedges=3),
)


def patrol(cells: list[Cell], start: Cell, way: int) -> tuple[Cell, ...]:
    """A guard's cells turn by turn, from ``start``, for one whole round (then it repeats).

    ``cells`` is the round: a line (all in one row or column) walked end to end and back, or the
    ring of a rectangle walked clockwise; ``way`` 1 walks either the other way.
    """
    xs, ys = sorted({x for x, _ in cells}), sorted({y for _, y in cells})
    if len(xs) == 1 or len(ys) == 1:
        line = sorted(cells)
        loop = line + line[-2:0:-1]
        # A middle cell of a line is passed twice a round: going forwards, then coming back.
        at = [i for i, cell in enumerate(loop) if cell == start][-1 if way else 0]
    else:
        top = [(x, ys[0]) for x in xs] + [(xs[-1], y) for y in ys[1:]]
        loop = top + [(x, ys[-1]) for x in xs[-2::-1]] + [(xs[0], y) for y in ys[-2:0:-1]]
        loop = loop[::-1] if way else loop
        at = loop.index(start)
    return tuple(loop[at:] + loop[:at])


@dataclass(frozen=True)
class _Yard(Walk):
    rounds: tuple[tuple[Cell, ...], ...]  # each guard's cells turn by turn
    hunter: Cell | None = None  # where the hunter starts
    hedges: frozenset[Cell] = frozenset()
    barrier: frozenset[Cell] = frozenset()  # what stops the hunter: walls, hedges and the exit

    @classmethod
    def read(cls, level: Level) -> _Yard:
        rounds = []
        for g in range(10):
            posts = level.cells(GUARD + g)
            if posts:
                cells = sorted(level.cells(ROUND + g) + posts)
                rounds.append(patrol(cells, posts[0], level.param(f"way{g}", 0)))
        hunters = level.cells(HUNTER)
        hedges = frozenset(level.cells(HEDGE))
        walls, start, exit_ = walk_ends(level)
        barrier = walls | hedges | {exit_}
        return cls(walls, start, exit_, tuple(rounds), hunters[0] if hunters else None, hedges, barrier)

    def guards(self, turn: int) -> set[Cell]:
        """The guards' cells after ``turn`` actions."""
        return {loop[turn % len(loop)] for loop in self.rounds}

    def chase(self, hunter: Cell, player: Cell) -> Cell:
        """The hunter's next cell: a step towards the player, along the larger gap first.

        Horizontal on a tie; the other axis when the first is blocked (by a wall, a hedge or the
        exit); where it is when both are.
        """
        gx, gy = player[0] - hunter[0], player[1] - hunter[1]
        steps = [((gx > 0) - (gx < 0), 0), (0, (gy > 0) - (gy < 0))]
        for dx, dy in steps if abs(gx) >= abs(gy) else steps[::-1]:
            cell = (hunter[0] + dx, hunter[1] + dy)
            if (dx, dy) != (0, 0) and cell not in self.barrier:
                return cell
        return hunter


# The solver's state: the player's cell, the turn within the guards' common cycle, and the
# hunter's cell (off the board, never moving, in a yard without one).
_State = tuple[Cell, int, Cell]
_NOWHERE = (-1, -1)


class GuardPatrol:
    """The guard-patrol game (see the module docstring for its level legend)."""

    id = "guard-patrol"
    title = "Slip past the guards"
    rules = (
        "The player is the blue square: ACTION1-4 step it up, down, left or right (walls stop it) "
        "and ACTION5 waits. After every action each red guard takes one step along its round, the "
        "dark red cells it walks again and again: a ring it circles or a line it paces back and "
        "forth. A magenta hunter instead steps towards the player after every action, along the "
        "longer of the two gaps between them first (the across one on a tie), else along the other; "
        "walls, purple hedges and the exit stop it, while the player walks through hedges. Stepping "
        "onto a guard or the hunter, or standing where one steps next, gets the player caught "
        "and the level lost; only RESET continues. The level is won when the player reaches the "
        "green exit."
    )
    actions = (UP, DOWN, LEFT, RIGHT, USE)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 7 to 12 cells a side crossed by 1 to 3 walls, each open only on a guard's round.

        The start is in the two leftmost columns, the exit in the rightmost; 2 to 6 inner walls are
        strewn about. A served level needs at least 5, 7, 9 or 12 moves, and more than walking
        would take without the guards: the player must wait or go round. The room is then turned
        or mirrored at random, so the start may be on any side.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        side = knobs.side
        grid = bordered_room(side, side, WALL, FLOOR)
        # Fence columns 3 apart at least (a ring is three wide): drawn from a range shortened by
        # the gaps, then spread out by them.
        picks = sorted(rng.sample(range(3, side - 2 - 2 * (knobs.guards - 1)), knobs.guards))
        fences = [column + 2 * i for i, column in enumerate(picks)]
        ways = {}
        for g, column in enumerate(fences):
            cells = _fence(rng, grid, column)
            post = rng.choice(cells)
            for x, y in cells:
                grid[y][x] = GUARD + g if (x, y) == post else ROUND + g
            ways[f"way{g}"] = rng.randrange(2)
        left = [(x, y) for y in range(1, side - 1) for x in (1, 2) if grid[y][x] == FLOOR]
        (sx, sy), (ex, ey) = rng.choice(left), (side - 2, rng.randrange(1, side - 1))
        grid[sy][sx], grid[ey][ex] = START, EXIT
        inside = inner_cells(side, side)
        for x, y in rng.sample([c for c in inside if grid[c[1]][c[0]] == FLOOR], knobs.walls):
            grid[y][x] = WALL
        hx = hy = -9
        if knobs.hunter:  # beyond the first wall, where it waits for the player to come through
            beyond = [c for c in inside if c[0] > fences[0] and grid[c[1]][c[0]] == FLOOR]
            hx, hy = rng.choice(beyond)
            grid[hy][hx] = HUNTER
        # Hedges go near the hunter, where they can stand between it and the player.
        free = [c for c in inside if grid[c[1]][c[0]] == FLOOR and abs(c[0] - hx) + abs(c[1] - hy) <= 2]
        for x, y in rng.sample(free, min(knobs.hedges, len(free))):
            grid[y][x] = HEDGE
        symmetry = rng.randrange(SYMMETRIES)  # any orientation, not always left to right
        turned = turned_grid(grid, symmetry)
        params = _turned_ways(grid, ways, symmetry)
        level = Level.make(self.id, turned, **params)
        plan = long_plan(self, level, knobs.shortest)
        walk = distances((sx, sy), passable(grid, WALL), side, side).get((ex, ey))
        if walk == len(plan):
            raise RejectLevel("the guards never get in the way")
        # The element this difficulty adds (hedges, or else the hunter) must change the plan's length.
        newest = HEDGE if knobs.hedges else HUNTER if knobs.hunter else None
        if newest is not None:
            plain = [[FLOOR if v == newest else v for v in row] for row in turned]
            other = self.solve(Level.make(self.id, plain, **params), self.budget)
            if other is not None and len(other) == len(plan):
                raise RejectLevel(f"cell code {newest} changes nothing in the fewest-move plan")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: guards are sprites the player collides with."""
        return _PatrolGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves, by breadth-first search over (cell, turn within the guards' cycle, hunter)."""
        yard = _Yard.read(level)
        cycle = lcm(*(len(loop) for loop in yard.rounds))
        held = [yard.guards(turn) for turn in range(cycle + 1)]

        def successors(state: _State) -> Iterator[tuple[Move, _State]]:
            (x, y), turn, hunter = state
            for action, move in _MOVES.items():
                dx, dy = _STAY[action]
                cell = (x, y) if (x + dx, y + dy) in yard.walls else (x + dx, y + dy)
                if cell in held[turn] or cell == hunter:
                    continue  # walked into a guard or the hunter
                if cell == yard.exit:
                    yield move, (cell, (turn + 1) % cycle, hunter)
                    continue
                chased = hunter if hunter == _NOWHERE else yard.chase(hunter, cell)
                if cell in held[turn + 1] or cell == chased:
                    continue  # a guard, or the hunter, walks into the player
                yield move, (cell, (turn + 1) % cycle, chased)

        start = (yard.start, 0, yard.hunter or _NOWHERE)
        return bfs(start, successors, lambda state: state[0] == yard.exit, budget)


def _fence(rng: random.Random, grid: list[list[int]], column: int) -> list[Cell]:
    """Wall off a whole column but for the cells a guard patrols; return that round's cells.

    The round is a line of 3 to 5 cells in the column itself, paced up and down, or a ring three
    cells wide and 3 or 5 long astride the column, which it crosses at its two ends. (A line of two
    is never passable: its guard is on each cell every other turn.) Periods of 4, 6, 8 or 12 turns
    keep the guards' common cycle short.
    """
    side = len(grid)
    for y in range(1, side - 1):
        grid[y][column] = WALL
    if rng.random() < 0.5 and column + 1 < side - 2:
        h = rng.choice([n for n in (3, 5) if n <= side - 2])
        y0 = rng.randint(1, side - 1 - h)
        ring = [(x, y) for y in range(y0, y0 + h) for x in (column - 1, column, column + 1)]
        return [(x, y) for x, y in ring if x != column or y in (y0, y0 + h - 1)]
    n = rng.randint(3, min(5, side - 2))
    y0 = rng.randint(1, side - 1 - n)
    return [(column, y) for y in range(y0, y0 + n)]


def _turned_ways(grid: list[list[int]], ways: dict[str, int], symmetry: int) -> dict[str, int]:
    """The ``way<g>`` params that keep every guard walking the same way once the grid is turned."""
    height, width = len(grid), len(grid[0])
    turned = {}
    for g in range(len(ways)):
        cells = sorted(
            (x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v in (ROUND + g, GUARD + g)
        )
        post = next((x, y) for x, y in cells if grid[y][x] == GUARD + g)
        then = turned_cell(patrol(cells, post, ways[f"way{g}"])[1], symmetry, width, height)
        moved = sorted(turned_cell(c, symmetry, width, height) for c in cells)
        start = turned_cell(post, symmetry, width, height)
        turned[f"way{g}"] = next(w for w in (0, 1) if patrol(moved, start, w)[1] == then)
    return turned


class _PatrolGame(GridGame):
    """The engine side of guard-patrol: a catch is a collision of the player with a guard sprite."""

    def __init__(self, level: Level) -> None:
        yard = _Yard.read(level)
        size = (level.width, level.height)
        trail = sorted({(x, y, TRAIL) for loop in yard.rounds for x, y in loop})
        hedges = [(x, y, SHRUB) for x, y in sorted(yard.hedges)]
        sprites = [
            layer_sprite([(x, y, STONE) for x, y in yard.walls], "walls", size),
            layer_sprite(trail, "rounds", size).set_interaction(InteractionMode.INTANGIBLE),
            layer_sprite(hedges, "hedges", size).set_interaction(InteractionMode.INTANGIBLE),
            block(GOAL, "exit", *yard.exit).set_interaction(InteractionMode.INTANGIBLE),
            block(PLAYER, "player", *yard.start, layer=2),
        ]
        sprites += [
            block(RED, f"guard{g}", *loop[0], layer=3, tags=["guard"]) for g, loop in enumerate(yard.rounds)
        ]
        if yard.hunter is not None:
            sprites.append(block(CHASER, "hunter", *yard.hunter, layer=3, tags=["guard"]))
        self.yard = yard
        super().__init__(
            GuardPatrol.id, sprites, size, actions=(1, 2, 3, 4, 5), background=GROUND, letterbox=EDGE
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start puts the guards back at the start of their rounds."""
        self.turn = 0

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step the player (caught if it walks into a guard or the hunter), then the guards and hunter."""
        player = self.sprite("player")
        hits = self.try_move_sprite(player, *_STAY[action]) if action != 5 else []
        if any("guard" in hit.tags for hit in hits):
            player.move(*_STAY[action])  # shown on the guard it walked into
            self.lose()
            return True
        if self.cell_of(player) == self.yard.exit:
            self.next_level()
            return True
        self.turn += 1
        for g, loop in enumerate(self.yard.rounds):
            guard = self.sprite(f"guard{g}")
            self.move_to(guard, *loop[self.turn % len(loop)])
            if guard.collides_with(player):
                self.lose()
        if self.yard.hunter is not None:
            hunter = self.sprite("hunter")
            self.move_to(hunter, *self.yard.chase(self.cell_of(hunter), self.cell_of(player)))
            if hunter.collides_with(player):
                self.lose()
        return True
