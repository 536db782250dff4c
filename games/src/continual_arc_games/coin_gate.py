"""coin-gate: walk a maze collecting coins; the gate to the exit opens only for the exact count.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3 the exit, 4 a coin, 5 the gate,
6 a double coin (worth two), 7 a drain (entering it empties the purse), 8 a toll (entering it takes
one coin, and it cannot be entered with none). The param ``need`` is the number of coins the gate
asks for, shown as that many sockets below the maze. The exit is a dead end whose only way in is
through the gate.

Each difficulty adds an element the one before lacks:

- 0: coins, and the gate that opens only at the exact count.
- 1: double coins, worth two: which coins to take is a sum to make, not a count.
- 2: a drain on the way: entering it empties the purse, so coins taken before it are lost (and an
  overfull purse can start again); every drawn level's plan changes because of it.
- 3: a toll on the way, which takes one coin each time it is entered and bars a player with none;
  every drawn level's plan changes because of it.
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

COIN, GATE, DOUBLE, DRAIN, TOLL = 4, 5, 6, 7, 8
PLAYER, GOAL, GOLD, AMBER, OVER, STONE, GROUND, EDGE = 9, 14, 11, 12, 8, 2, 5, 4
RICH, SINK, BOOTH = 6, 13, 15  # a double coin (magenta), a drain (maroon), a toll (purple)
CELL = 2  # pixels per cell, so that an open gate can show as a checker

_OPEN = [[AMBER, -1], [-1, AMBER]]


@dataclass(frozen=True)
class _Knobs:
    rooms: int  # the maze is rooms x rooms, on a (2 rooms + 1)-cell square grid
    coins: int
    loops: int  # walls knocked out between rooms, so that coins can be walked around
    detour: int  # steps the fewest-move win takes beyond the walk that ignores the coins
    doubles: int = 0  # of the coins, how many are worth two
    drain: bool = False
    toll: bool = False


_KNOBS = (
    _Knobs(4, 3, 2, 2),
    _Knobs(5, 4, 3, 2, doubles=2),
    _Knobs(5, 5, 4, 2, doubles=2, drain=True),
    _Knobs(5, 5, 5, 3, doubles=2, drain=True, toll=True),
)


@dataclass(frozen=True)
class _Maze(Walk):
    gate: Cell
    coins: tuple[Cell, ...]  # the single coins, then the double ones
    need: int
    size: tuple[int, int]
    doubles: int = 0  # how many of the last coins are worth two
    drains: frozenset[Cell] = frozenset()
    tolls: frozenset[Cell] = frozenset()

    @classmethod
    def read(cls, level: Level) -> _Maze:
        return cls(
            *walk_ends(level),
            level.cells(GATE)[0],
            level.cells(COIN) + level.cells(DOUBLE),
            level.param("need"),
            (level.width, level.height),
            len(level.cells(DOUBLE)),
            frozenset(level.cells(DRAIN)),
            frozenset(level.cells(TOLL)),
        )

    def worth(self, coin: int) -> int:
        """What the coin of index ``coin`` adds to the purse."""
        return 2 if coin >= len(self.coins) - self.doubles else 1


#: The expansions a generator gives the solver on a fresh layout (the draw then solves it again).
_DRAW_BUDGET = 4_000

# The solver's state: the player's cell, the bitmask of the coins taken, and the coins in the purse.
_State = tuple[int, int, int, int]


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
        "cannot be given back, so taking too many leaves the level unwinnable until RESET, unless a "
        "maroon drain is on the way: entering it empties the purse (the sockets go orange again). A "
        "magenta coin is worth two. A purple toll takes one coin each time the player enters it, "
        "and stops a player with none. The level is won when the player steps onto the exit."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A maze of 4 to 5 rooms a side with 3 to 5 coins, 2 to 5 loops and a 2- or 3-step detour.

        Difficulty 1 makes two coins double, 2 adds a drain and 3 a toll, each on the walk from the
        start to the gate and each changing the fewest-move plan (as plain floor, the level would
        be solved by a plan of another length, or not at all).
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 40)

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
        values = {c: 2 if i >= knobs.coins - knobs.doubles else 1 for i, c in enumerate(coins)}
        on_walk = sum(values[c] for c in walk if c in values)
        grid[start[1]][start[0]], grid[exit_[1]][exit_[0]], grid[gate[1]][gate[0]] = START, EXIT, GATE
        for x, y in coins:
            grid[y][x] = COIN if values[(x, y)] == 1 else DOUBLE
        # The drain and the toll go on the walk to the gate, so that the coin-blind way meets them.
        along = [c for c in walk[1:-2] if c not in values]
        extras = [code for code, wanted in ((DRAIN, knobs.drain), (TOLL, knobs.toll)) if wanted]
        if len(along) < len(extras):
            raise RejectLevel("the walk to the gate is too short for the drain and the toll")
        for (x, y), code in zip(rng.sample(along, len(extras)), extras, strict=True):
            grid[y][x] = code
        # The count is one the coins on the gate's side of every drain can make (those taken before
        # the last drain the player enters are lost).
        drains = [(x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == DRAIN]
        after = distances(gate, passable(grid, WALL, drains), side, side)
        sums = {0}
        for coin in ordered(values):
            if coin in after:
                sums |= {total + values[coin] for total in sums}
        counts = [n for n in sorted(sums) if 0 < n <= side and n != on_walk]
        if not counts:
            raise RejectLevel("no count both makeable past the drain and unlike the coin-blind walk's")
        need = rng.choice(counts)
        level = Level.make(self.id, grid, need=need)
        # A level the solver needs more than a few thousand expansions for is given up: most of the
        # layouts that cost that much have no win at all.
        plan = self.solve(level, _DRAW_BUDGET)
        if plan is None or len(plan) < len(walk) - 1 + knobs.detour:
            raise RejectLevel("no win, or one that hardly needs the coins counted")
        # The element this difficulty adds (the last of them) must change the fewest-move plan.
        newest = TOLL if knobs.toll else DRAIN if knobs.drain else DOUBLE if knobs.doubles else None
        if newest is not None:
            plain = [[(COIN if v == DOUBLE else FLOOR) if v == newest else v for v in row] for row in grid]
            other = self.solve(Level.make(self.id, plain, need=need), self.budget)
            if other is not None and len(other) == len(plan):
                raise RejectLevel(f"cell code {newest} changes nothing in the fewest-move plan")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the maze, and below it a strip of sockets that counts the coins taken."""
        return _CoinGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest steps, by A* over (cell, coins taken, purse) with the maze distance to the exit.

        States whose purse holds more than the gate asks for are never generated in a level with
        neither a drain nor a toll: coins cannot be given back there.
        """
        maze = _Maze.read(level)
        coin_at = {cell: i for i, cell in enumerate(maze.coins)}
        to_exit = distances(maze.exit, lambda c: c not in maze.walls, *maze.size)
        # Without a toll a purse past the count can only be emptied by a drain, so every such purse
        # is alike (kept as need + 1), and without a drain either it is a dead end.
        worth = sum(map(maze.worth, range(len(maze.coins))))
        most = worth if maze.tolls else maze.need + 1 if maze.drains else maze.need

        def successors(state: _State) -> Iterator[tuple[Move, _State]]:
            x, y, taken, purse = state
            for action, (dx, dy) in DELTAS.items():
                cell = (x + dx, y + dy)
                if cell in maze.walls or (cell == maze.gate and purse != maze.need):
                    continue
                if cell in maze.tolls and purse == 0:
                    continue
                now, held = taken, purse
                coin = coin_at.get(cell)
                if coin is not None and not taken >> coin & 1:
                    now, held = taken | 1 << coin, purse + maze.worth(coin)
                held = 0 if cell in maze.drains else held - (cell in maze.tolls)
                held = min(held, most) if maze.drains and not maze.tolls else held
                if held <= most:
                    yield ARROWS[action], (cell[0], cell[1], now, held)

        return astar(
            (*maze.start, 0, 0),
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
        self.maze, self.need, (self.width, self.height) = maze, maze.need, maze.size
        size = (self.width, self.height + 1)
        worth = [(x, y, GOLD if maze.worth(i) == 1 else RICH) for i, (x, y) in enumerate(maze.coins)]
        sprites = [
            layer_sprite(((x, y, STONE) for x, y in maze.walls), "walls", size, cell=CELL),
            block(GOAL, "exit", *maze.exit, cell=CELL),
            block(AMBER, "gate", *maze.gate, cell=CELL),
            layer_sprite(worth, "coins", size, cell=CELL),
            layer_sprite(((x, y, SINK) for x, y in ordered(maze.drains)), "drains", size, cell=CELL),
            layer_sprite(((x, y, BOOTH) for x, y in ordered(maze.tolls)), "tolls", size, cell=CELL),
            block(PLAYER, "player", *maze.start, cell=CELL, layer=3),
            self._strip(0),
        ]
        for sprite in sprites:
            sprite.set_collidable(False)  # steps are worked out cell by cell below
        super().__init__(
            CoinGate.id, sprites, size, actions=(1, 2, 3, 4), cell=CELL, background=GROUND, letterbox=EDGE
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start has an empty purse."""
        self.taken = 0

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step the player, taking a coin, paying a toll, emptying at a drain or passing the gate."""
        dx, dy = DELTAS[action]
        player = self.sprite("player")
        x, y = player.x // CELL + dx, player.y // CELL + dy
        px, py = x * CELL, y * CELL
        if self.sprite("walls").pixels[py, px] >= 0:
            return True
        if (x, y) == self.maze.gate and self.taken != self.need:
            return True
        if (x, y) in self.maze.tolls and self.taken == 0:
            return True
        player.move(dx * CELL, dy * CELL)
        coins = self.sprite("coins").pixels
        if coins[py, px] >= 0:
            self.taken += 1 if coins[py, px] == GOLD else 2
            coins[py : py + CELL, px : px + CELL] = -1
        if (x, y) in self.maze.drains:
            self.taken = 0
        elif (x, y) in self.maze.tolls:
            self.taken -= 1
        self.sprite("strip").pixels = self._strip(self.taken).pixels
        # A checker while the count is right (the gate lets the player through), else solid.
        shape = _OPEN if self.taken == self.need else [[AMBER]]
        self.sprite("gate").pixels = patch(shape, "gate", 0, 0, cell=CELL).pixels
        if (x, y) == self.maze.exit:
            self.next_level()
        return True

    def _strip(self, taken: int) -> Sprite:
        """The row below the maze: a socket per coin asked for, yellow once filled; extra coins red."""
        marks = [(k, self.height, GOLD if k < taken else AMBER) for k in range(self.need)]
        marks += [(k, self.height, OVER) for k in range(self.need, min(taken, self.width))]
        return layer_sprite(marks, "strip", (self.width, self.height + 1), cell=CELL, layer=2)
