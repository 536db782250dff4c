"""conveyor: walk to the exit across conveyor belts that carry the player a cell after every move.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start, 3 the exit, 4 + s a belt that
runs towards side s (0 north, 1 east, 2 south, 3 west), 8 a pit, 9 the reversing button, and
10 + s a spinning belt that runs towards side s at the start and turns a quarter clockwise after
every action. The param ``fuel``, from difficulty 1, is how many actions an attempt may spend (a bar
below the room; see ``engine.py``).

Each difficulty adds an element the one before lacks:

- 0: belts in short lanes, and walls.
- 1: pits, most of them where a belt runs into them: a step or a carry into one loses, and rivers
  of belts across the room.
- 2: the reversing button: entering it (by a step or a carry) turns every belt round, and every
  drawn level needs it pressed (as plain floor it would be longer or unsolved).
- 3: spinning belts, which turn a quarter clockwise after every action, so when the player boards
  one decides where it goes; every drawn level's plan rides one.
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
PIT, BUTTON, SPINNERS = 8, 9, 10
PLAYER, GOAL, STONE, TRACK, MARK, GROUND, EDGE = 9, 14, 2, 3, 12, 5, 4
HOLE, PRESS, WHEEL = 13, 15, 10  # a pit (maroon), the button (purple), a spinning belt (light blue)

_MOVES = {**ARROWS, 5: Move(USE)}
_ACTION_OF = {move.action: action for action, move in _MOVES.items()}
_STAY = {**DELTAS, 5: (0, 0)}  # ACTION5 waits where the player stands


@dataclass(frozen=True)
class _Knobs:
    side: int  # the square room, wall ring included
    lanes: int  # short straight runs of belts, 2 to 4 long
    rivers: int  # belts across the whole room, each with one or two gaps
    walls: int  # inner wall cells
    shortest: int  # fewest moves a served level needs
    pits: int = 0  # cells that lose the level when entered
    button: bool = False  # whether the level has the button that reverses every belt
    spinners: int = 0  # belts that turn a quarter clockwise after every action
    spare: int | None = None  # fuel beyond the fewest moves (None: no fuel bar)


_KNOBS = (
    _Knobs(8, 2, 0, 4, 5),
    _Knobs(10, 4, 1, 8, 8, pits=3, spare=4),
    _Knobs(11, 6, 1, 8, 9, pits=2, button=True, spare=4),
    _Knobs(12, 7, 1, 10, 10, pits=2, button=True, spinners=2, spare=3),
)

# The abstract state: the player's cell, whether the belts are reversed, and the actions taken
# modulo 4 (always 0 in a room without spinning belts, where it changes nothing).
_State = tuple[Cell, int, int]


def _arrow(side: int, size: int, ground: int = TRACK) -> np.ndarray:
    """A belt cell's pixels: a square of ``ground`` with an orange arrowhead pointing towards ``side``."""
    pixels = np.full((size, size), ground, dtype=np.int8)
    mid, top = size // 2, size // 4
    for j in range((size + 1) // 2):
        pixels[top + j, max(0, mid - j) : mid + j + 1] = MARK
    return np.rot90(pixels, -side).copy()  # drawn pointing north, turned clockwise


@dataclass(frozen=True)
class _Room:
    walls: frozenset[Cell]
    belts: dict[Cell, int]  # the side each belt runs towards (at the start, for a spinning one)
    start: Cell
    exit: Cell
    pits: frozenset[Cell] = frozenset()
    button: Cell | None = None
    spinners: frozenset[Cell] = frozenset()

    @classmethod
    def read(cls, level: Level) -> _Room:
        belts = {cell: side for side in range(4) for cell in level.cells(BELTS + side)}
        spinners = {cell: side for side in range(4) for cell in level.cells(SPINNERS + side)}
        buttons = level.cells(BUTTON)
        return cls(
            frozenset(level.cells(WALL)),
            {**belts, **spinners},
            level.cells(START)[0],
            level.cells(EXIT)[0],
            frozenset(level.cells(PIT)),
            buttons[0] if buttons else None,
            frozenset(spinners),
        )

    @property
    def opening(self) -> _State:
        """The state before the first action."""
        return self.start, 0, 0

    def runs(self, cell: Cell, flipped: int, turn: int) -> int | None:
        """The side the belt on ``cell`` runs towards now, or None off the belts."""
        side = self.belts.get(cell)
        if side is None:
            return None
        return (side + 2 * flipped + (turn if cell in self.spinners else 0)) % 4

    def step(self, state: _State, action: int) -> _State | None:
        """The state after an action: the player's own step (walls stop it), then its belt's carry.

        None when the player enters a pit. Entering the button, by the step or the carry,
        reverses the belts; the spinning belts turn once the action is over.
        """
        cell, flipped, turn = state
        for carry in (False, True):
            if carry:
                side = self.runs(cell, flipped, turn)
                if cell == self.exit or side is None:
                    break
                dx, dy = SIDE_STEPS[side]
            else:
                dx, dy = _STAY[action]
            ahead = (cell[0] + dx, cell[1] + dy)
            if (dx, dy) == (0, 0) or ahead in self.walls:
                continue
            cell = ahead
            if cell in self.pits:
                return None
            flipped ^= cell == self.button
        return cell, flipped, (turn + 1) % 4 if self.spinners else 0

    def successors(self, state: _State) -> Iterator[tuple[Move, _State]]:
        """Each action's state after ``state``, but those that drop the player into a pit."""
        for action, move in _MOVES.items():
            after = self.step(state, action)
            if after is not None:
                yield move, after


class Conveyor:
    """The conveyor game (see the module docstring for its level legend)."""

    id = "conveyor"
    title = "Ride the belts"
    rules = (
        "The player is the blue square: ACTION1-4 step it up, down, left or right, and walls stop "
        "it; ACTION5 stands still for a turn. Grey belts show an orange arrow: after every action, "
        "a player standing on a belt is carried one cell the way its arrow points, unless a wall is "
        "there, and the carry shows as a second frame. A belt can speed the player along, sweep it "
        "sideways, or push it back where it came from. A step or a carry into a maroon pit loses the "
        "level. Entering the purple button, by a step or a carry, turns every belt round. A belt on "
        "light blue turns its arrow a quarter clockwise after every action. The level is won when "
        "the player reaches the green exit, by a step or by a belt." + FUEL_RULE
    )
    actions = (UP, DOWN, LEFT, RIGHT, USE)
    max_difficulty = len(_KNOBS) - 1
    budget = 5_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A room of 8 to 12 cells a side with belts, walls, a start and an exit far from it on foot.

        With difficulty: 2 to 5 short belt lanes, 0 to 1 river of belts across the room, 4 to 10
        inner walls, and the elements of the module docstring (pits from 1, the button from 2,
        spinning belts from 3). A served level needs at least 5 to 10 moves, and a different
        number of moves than walking would take were the belts bare floor. The room is turned or
        mirrored at random before the pits, button and spinning belts are placed. From difficulty 1
        the level has fuel: 4, then 3, actions beyond the fewest.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 40)

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
        floor.remove((sx, sy))
        far = sorted(floor, key=lambda c: -walk.get(c, 0))[: max(1, len(floor) // 4)]
        ex, ey = rng.choice(ordered(far))
        grid[sy][sx], grid[ey][ex] = START, EXIT
        grid = _turned(grid, rng.randrange(SYMMETRIES))
        _place_pits(rng, grid, knobs.pits)
        if knobs.spinners:
            # Spinning belts replace belts the fewest-move plan of the room without them rides.
            fixed = Level.make(self.id, grid)
            ridden = _ridden(_Room.read(fixed), long_plan(self, fixed, 1))
            for x, y in rng.sample(ridden, min(knobs.spinners, len(ridden))):
                grid[y][x] += SPINNERS - BELTS
        if knobs.button:
            _place_button(rng, grid, self)
        level = Level.make(self.id, grid)
        plan = long_plan(self, level, knobs.shortest)
        room = _Room.read(level)
        walk = distances(room.start, passable(grid, WALL, room.pits), side, side)
        if walk.get(room.exit) == len(plan):
            raise RejectLevel("the belts change nothing: walking takes as many moves")
        if room.button is not None:
            x, y = room.button
            grid[y][x] = FLOOR
            bare = self.solve(Level.make(self.id, grid), self.budget)
            if bare is not None and len(bare) <= len(plan):
                raise RejectLevel("the level is as short without its button")
        if knobs.spinners and not set(_ridden(room, plan)) & room.spinners:
            raise RejectLevel("the plan rides no spinning belt")
        return fuelled(level, plan, knobs.spare)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a carry is a second frame of the move."""
        return _ConveyorGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves, by breadth-first search over (cell, belts reversed, actions taken mod 4)."""
        room = _Room.read(level)
        return bfs(room.opening, room.successors, lambda state: state[0] == room.exit, budget)


def _place_pits(rng: random.Random, grid: list[list[int]], pits: int) -> None:
    """Put ``pits`` pits on bare floor, each where a belt runs into it while there is such a cell."""
    side = len(grid)
    inside = inner_cells(side, side)
    ends = [
        (x + dx, y + dy)
        for x, y in inside
        if grid[y][x] in range(BELTS, BELTS + 4)
        for dx, dy in [SIDE_STEPS[grid[y][x] - BELTS]]
    ]
    for _ in range(pits):
        bare = [c for c in inside if grid[c[1]][c[0]] == FLOOR]
        free_ends = [c for c in ordered(set(ends)) if grid[c[1]][c[0]] == FLOOR]
        x, y = rng.choice(free_ends or bare)
        grid[y][x] = PIT


def _reversed(code: int) -> int:
    """A cell's code with its belt (fixed or spinning) running the other way."""
    for first in (BELTS, SPINNERS):
        if first <= code < first + 4:
            return first + (code - first + 2) % 4
    return code


#: Bare floor cells a generator tries the button on, at most, before it gives the layout up.
_BUTTON_TRIES = 6


def _place_button(rng: random.Random, grid: list[list[int]], spec: Conveyor) -> None:
    """Put the button where pressing it shortens the fewest-move plan, trying cells near the start.

    Of the room and the room with every belt reversed, the one with the longer way is kept, so that
    the button sets the belts right; a room where both are alike is given up at once.

    Raises:
        RejectLevel: the button shortens the plan on none of the cells tried.
    """
    side = len(grid)
    turned = [[_reversed(c) for c in row] for row in grid]
    without, reversed_ = (spec.solve(Level.make(spec.id, g), spec.budget) for g in (grid, turned))
    if reversed_ is not None and (without is None or len(without) > len(reversed_)):
        pass
    elif without is not None and (reversed_ is None or len(reversed_) > len(without)):
        grid[:] = turned  # the belts start the other way round: the button then sets them right
        without = reversed_
    else:
        raise RejectLevel("the belts reversed give no shorter way, nor a longer one")
    start = next((x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c == START)
    walk = distances(start, passable(grid, WALL), side, side)
    bare = [c for c in inner_cells(side, side) if grid[c[1]][c[0]] == FLOOR and c in walk]
    near = sorted(bare, key=lambda c: walk[c])[: _BUTTON_TRIES * 2]
    for x, y in rng.sample(near, min(_BUTTON_TRIES, len(near))):
        grid[y][x] = BUTTON
        plan = spec.solve(Level.make(spec.id, grid), spec.budget)
        if plan is not None and (without is None or len(plan) < len(without)):
            return
        grid[y][x] = FLOOR
    raise RejectLevel("no cell tried for the button shortens the way")


def _ridden(room: _Room, plan: tuple[Move, ...]) -> list[Cell]:
    """The belts that carry the player while ``plan`` is played, in the order first ridden."""
    state: _State | None = room.opening
    ridden: list[Cell] = []
    for move in plan:
        assert state is not None
        cell = state[0]
        action = _ACTION_OF[move.action]
        dx, dy = _STAY[action]
        stepped = cell if (cell[0] + dx, cell[1] + dy) in room.walls else (cell[0] + dx, cell[1] + dy)
        if stepped in room.belts and stepped not in ridden:
            ridden.append(stepped)
        state = room.step(state, action)
    return ridden


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
    belt = range(BELTS, BELTS + 4)
    return [[BELTS + turned_side(c - BELTS, symmetry) if c in belt else c for c in row] for row in out]


class _ConveyorGame(GridGame):
    """The engine side of conveyor: the player moves by collisions with the walls' sprite."""

    def __init__(self, level: Level) -> None:
        room = _Room.read(level)
        fuel = level.param("fuel", 0)
        self.size = size = odd_cell(level.width, level.height + (fuel > 0))
        self.box = box = (level.width, level.height)
        self.room = room
        sprites = [
            layer_sprite([(x, y, STONE) for x, y in room.walls], "walls", box, cell=size),
            layer_sprite([(x, y, HOLE) for x, y in ordered(room.pits)], "pits", box, cell=size),
            Sprite(self._belts(0, 0), name="belts", layer=0, tags=[]),
            block(GOAL, "exit", *room.exit, cell=size),
            block(PLAYER, "player", *room.start, cell=size, layer=2),
        ]
        if room.button is not None:
            sprites.append(block(PRESS, "button", *room.button, cell=size))
        for sprite in sprites:
            if sprite.name not in ("walls", "player"):
                sprite.set_interaction(InteractionMode.INTANGIBLE)
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

    def _belts(self, flipped: int, turn: int) -> np.ndarray:
        """The belts' pixels with every arrow the way it runs now."""
        room, size = self.room, self.size
        pixels = np.full((self.box[1] * size, self.box[0] * size), -1, dtype=np.int8)
        for (x, y), _ in sorted(room.belts.items()):
            way = room.runs((x, y), flipped, turn)
            assert way is not None
            paste(pixels, _arrow(way, size, WHEEL if (x, y) in room.spinners else TRACK), x, y)
        return pixels

    def on_set_level(self, level: object) -> None:
        """Every (re)start has no carry pending, the belts unreversed and the spinners unturned."""
        self.carry: int | None = None
        self.flipped = self.turn = 0

    def _enter(self) -> bool:
        """After the player entered a cell: lose in a pit, win on the exit, press the button.

        Returns:
            Whether the action is over (a win or a loss).
        """
        at = self.cell_of(self.sprite("player"))
        if at in self.room.pits:
            self.lose()
            return True
        if at == self.room.exit:
            self.next_level()
            return True
        if at == self.room.button:
            self.flipped ^= 1
            self.sprite("belts").pixels = self._belts(self.flipped, self.turn)
        return False

    def _over(self) -> bool:
        """End the action: the spinning belts turn."""
        self.carry = None
        if self.room.spinners:
            self.turn = (self.turn + 1) % 4
            self.sprite("belts").pixels = self._belts(self.flipped, self.turn)
        return True

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """First frame: the player's own step. Second frame, if it stands on a belt: the carry."""
        player = self.sprite("player")
        if self.carry is None:
            if action != 5:
                dx, dy = DELTAS[action]
                if not self.try_move_sprite(player, dx * self.size, dy * self.size) and self._enter():
                    return True
            self.carry = self.room.runs(self.cell_of(player), self.flipped, self.turn)
            return self._over() if self.carry is None else False
        dx, dy = SIDE_STEPS[self.carry]
        if not self.try_move_sprite(player, dx * self.size, dy * self.size) and self._enter():
            return True
        return self._over()
