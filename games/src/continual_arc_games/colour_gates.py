"""colour-gates: paint pads set the player's colour; a gate lets only a player of its colour through.

Legend of the level grid: 0 floor, 1 wall, 2 the player's start (it starts white, of no colour),
3 the exit, 4 + c a paint pad of colour c, 8 + c a gate of colour c (c in 0-3: red, yellow, purple,
orange), 12 a white pad that washes the paint off, 13 a white gate, 14 a yellow mixing pad.

Each difficulty adds an element the one before lacks:

- 0: one gate, its pad on the near side, and a decoy pad.
- 1: a second gate, of another colour, so the player is painted again on the way.
- 2: a white gate, which only an unpainted player passes, and the white pad that washes the paint
  off: it stands after a coloured gate, so every plan washes.
- 3: an orange gate with no orange pad anywhere: a yellow mixing pad (four corner dots) turns a red
  player orange (and any other player yellow), so every plan mixes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import ARROWS, DOWN, LEFT, RIGHT, UP, Level, Move, RejectLevel, knobs_at, long_plan, retry
from .engine import DELTAS, GridGame, block, layer_sprite
from .exits import EXIT, FLOOR, START, WALL, Walk, walk_ends
from .layouts import Cell, Grid, carve_maze, distances, ordered, passable
from .mazes import maze_way, open_loops, start_and_exit
from .search import bfs
from .strokes import odd_cell, paste

__all__ = ["ColourGates"]

PADS, GATES, WASH, PALE, MIX = 4, 8, 12, 13, 14
HUES = (8, 11, 15, 12)  # red, yellow, purple, orange
RED, YELLOW, ORANGE = 0, 1, 3
PLAIN, GOAL, STONE, GROUND, EDGE = 0, 14, 2, 5, 4
NONE = len(HUES)  # the colour index of a player that is unpainted (at the start, or washed)


@dataclass(frozen=True)
class _Knobs:
    rooms: int  # the maze is rooms x rooms, on a (2 rooms + 1)-cell square grid
    gates: int  # gates on the way to the exit
    colours: int  # how many of the four colours are used
    decoys: int  # extra pads of any colour used, anywhere (a corridor's pad repaints whoever passes)
    loops: int  # extra openings that make alternative routes
    shortest: int  # fewest moves a served level needs
    wash: bool = False  # one gate after the first is white, with a washing pad before it
    mix: bool = False  # one gate after the first is orange, with a mixing pad and a red pad before it


_KNOBS = (
    _Knobs(4, 1, 2, 1, 1, 8),
    _Knobs(5, 2, 2, 2, 2, 14),
    _Knobs(5, 3, 3, 3, 3, 18, wash=True),
    _Knobs(6, 4, 3, 5, 4, 24, wash=True, mix=True),
)


@dataclass(frozen=True)
class _Maze(Walk):
    pads: dict[Cell, int]  # colour by cell (NONE for a washing pad)
    gates: dict[Cell, int]  # colour by cell (NONE for a white gate)
    mixers: frozenset[Cell]

    @classmethod
    def read(cls, level: Level) -> _Maze:
        pads = {cell: c for c in range(len(HUES)) for cell in level.cells(PADS + c)}
        pads.update((cell, NONE) for cell in level.cells(WASH))
        gates = {cell: c for c in range(len(HUES)) for cell in level.cells(GATES + c)}
        gates.update((cell, NONE) for cell in level.cells(PALE))
        return cls(*walk_ends(level), pads, gates, frozenset(level.cells(MIX)))

    def paint(self, cell: Cell, colour: int) -> int:
        """The player's colour after stepping onto ``cell`` wearing ``colour``."""
        if cell in self.mixers:
            return ORANGE if colour == RED else YELLOW
        return self.pads.get(cell, colour)


class ColourGates:
    """The colour-gates game (see the module docstring for its level legend)."""

    id = "colour-gates"
    title = "Colour gates"
    rules = (
        "The player is the solid square, white at first, moved one cell at a time by ACTION1-4 (up, "
        "down, left, right); grey walls stop it. Stepping onto a paint pad (a small coloured dot) "
        "paints the player that pad's colour, whatever colour it was, and pads are never used up; "
        "a white pad washes the paint off. A pad of four yellow corner dots mixes: it turns a red "
        "player orange, and a player of any other colour yellow. A barred gate lets the player into "
        "its cell only while the player has the gate's colour (a white gate: while unpainted); to a "
        "player of any other colour it is a wall. The level is won when the player reaches the green "
        "exit."
    )
    actions = (UP, DOWN, LEFT, RIGHT)
    max_difficulty = len(_KNOBS) - 1
    budget = 20_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A maze of 4 to 6 rooms a side with 1 to 4 gates on the way out, in 2 to 4 colours.

        Each gate's pad lies on the near side of it; 1 to 5 more pads and 1 to 4 loops are strewn
        about. From difficulty 2 one gate after the first is white, and its pad washes; at 3 another
        is orange, and a mixing pad and a red pad lie before it. A served level needs at least 8,
        14, 18 or 24 moves, and more than walking would take with the gates open.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 30)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        grid = carve_maze(rng, knobs.rooms, knobs.rooms, WALL, FLOOR)
        side = len(grid)
        start, exit_ = start_and_exit(rng, grid, WALL)
        path = maze_way(grid, WALL, start, exit_)
        passages = [c for i, c in enumerate(path) if c[0] % 2 != c[1] % 2 and i >= 2]
        if len(passages) < knobs.gates:
            raise RejectLevel("the way out is too short for its gates")
        chosen = set(rng.sample(passages, knobs.gates))
        gates = [c for c in passages if c in chosen]  # in path order
        # The white and the orange gate, when the difficulty has them, come after the first gate.
        special = rng.sample(range(1, knobs.gates), knobs.wash + knobs.mix)
        fixed = dict(zip(special, [NONE] * knobs.wash + [ORANGE] * knobs.mix, strict=True))
        hues: list[int] = []
        for i in range(knobs.gates):
            hues.append(fixed.get(i, rng.choice([h for h in range(knobs.colours) if h not in hues[-1:]])))
        taken = {start, exit_, *gates}
        before: set[Cell] = set()
        for i, hue in enumerate(hues):
            # Between the previous gate and this one, so the gates are met in turn, off the way out.
            near = distances(start, passable(grid, WALL, gates[i:]), side, side)
            spots = [c for c in ordered(near) if c not in taken and c not in before]
            codes = {NONE: [WASH], ORANGE: [PADS + RED, MIX]}.get(hue, [PADS + hue])
            if len(spots) < len(codes):
                raise RejectLevel("no room for a pad between two gates")
            off_way = [c for c in spots if c not in path]
            for code in codes:
                pad = rng.choice(off_way or spots)
                grid[pad[1]][pad[0]] = code
                taken.add(pad)
                spots.remove(pad)
                off_way = [c for c in off_way if c != pad]
            before = set(near)
        open_loops(rng, grid, WALL, FLOOR, gates, knobs.loops)
        free = [
            c for c in ordered((x, y) for y in range(side) for x in range(side)) if grid[c[1]][c[0]] == FLOOR
        ]
        spare = [c for c in free if c not in taken and c not in path]
        for x, y in rng.sample(spare, min(knobs.decoys, len(spare))):
            grid[y][x] = PADS + rng.randrange(knobs.colours)
        for (x, y), hue in zip(gates, hues, strict=True):
            grid[y][x] = PALE if hue == NONE else GATES + hue
        grid[start[1]][start[0]], grid[exit_[1]][exit_[0]] = START, EXIT
        return self._vetted(Level.make(self.id, grid), knobs, grid)

    def _vetted(self, level: Level, knobs: _Knobs, grid: Grid) -> Level:
        """The level, unless it is unsolvable, too short, or no longer than a walk with open gates."""
        plan = long_plan(self, level, knobs.shortest)
        maze = _Maze.read(level)
        walk = distances(maze.start, passable(grid, WALL), level.width, level.height).get(maze.exit)
        if walk == len(plan):
            raise RejectLevel("no detour for paint: the gates change nothing")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the player's colour is the colour of its sprite's pixels."""
        return _GatesGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest moves, by breadth-first search over (cell, the player's colour)."""
        maze = _Maze.read(level)

        def successors(state: tuple[Cell, int]) -> Iterator[tuple[Move, tuple[Cell, int]]]:
            (x, y), colour = state
            for action, (dx, dy) in DELTAS.items():
                cell = (x + dx, y + dy)
                if cell in maze.walls or maze.gates.get(cell, colour) != colour:
                    continue
                yield ARROWS[action], (cell, maze.paint(cell, colour))

        return bfs((maze.start, NONE), successors, lambda state: state[0] == maze.exit, budget)


def _dot(colour: int, size: int) -> np.ndarray:
    """A pad: a small square of its colour in the middle of the cell."""
    pixels = np.full((size, size), -1, dtype=np.int8)
    pixels[size // 3 : size - size // 3, size // 3 : size - size // 3] = colour
    return pixels


def _corners(colour: int, size: int) -> np.ndarray:
    """A mixing pad: a dot of its colour in each corner of the cell."""
    pixels = np.full((size, size), -1, dtype=np.int8)
    pixels[:: size - 1, :: size - 1] = colour
    return pixels


def _frame_colour(hue: int) -> int:
    """The frame colour of a colour index: white for NONE (a washing pad, a white gate)."""
    return HUES[hue] if hue < NONE else PLAIN


def _bars(colour: int, size: int) -> np.ndarray:
    """A gate: upright bars of its colour, one pixel apart."""
    pixels = np.full((size, size), -1, dtype=np.int8)
    pixels[:, ::2] = colour
    return pixels


class _GatesGame(GridGame):
    """The engine side of colour-gates: the colours are read off the sprites' pixels.

    All pads are one sprite and all gates another (a sprite each would cost a render each per
    frame); a gate's colour is the gates sprite's pixel at the cell the player bumps into.
    """

    def __init__(self, level: Level) -> None:
        maze = _Maze.read(level)
        self.size = size = odd_cell(level.width, level.height)
        box = (level.width, level.height)
        pads = np.full((level.height * size, level.width * size), -1, dtype=np.int8)
        for (x, y), hue in maze.pads.items():
            paste(pads, _dot(_frame_colour(hue), size), x, y)
        mixers = np.full_like(pads, -1)
        for x, y in maze.mixers:
            paste(mixers, _corners(HUES[YELLOW], size), x, y)
        gates = np.full_like(pads, -1)
        for (x, y), hue in maze.gates.items():
            paste(gates, _bars(_frame_colour(hue), size), x, y)
        sprites = [
            layer_sprite([(x, y, STONE) for x, y in maze.walls], "walls", box, cell=size),
            Sprite(pads, name="pads", tags=[]).set_interaction(InteractionMode.INTANGIBLE),
            Sprite(gates, name="gates", tags=[]),
            block(GOAL, "exit", *maze.exit, cell=size).set_interaction(InteractionMode.INTANGIBLE),
            block(PLAIN, "player", *maze.start, cell=size, layer=3),
        ]
        if maze.mixers:  # only then: each sprite costs a render a frame
            mixing = Sprite(mixers, name="mixers", tags=[]).set_interaction(InteractionMode.INTANGIBLE)
            sprites.insert(2, mixing)
        self.exit, self.mixers = maze.exit, maze.mixers
        super().__init__(
            ColourGates.id, sprites, box, actions=(1, 2, 3, 4), cell=size, background=GROUND, letterbox=EDGE
        )

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Step the player; a gate of its colour lets it in; a pad under it repaints (or mixes) it."""
        dx, dy = DELTAS[action]
        player = self.sprite("player")
        colour = int(player.pixels[0, 0])
        hits = self.try_move_sprite(player, dx * self.size, dy * self.size)
        if hits:
            ahead = (player.y + dy * self.size, player.x + dx * self.size)  # the top-left pixel
            if any(hit.name != "gates" or int(hit.pixels[ahead]) != colour for hit in hits):
                return True
            player.move(dx * self.size, dy * self.size)
        x, y = self.cell_of(player)
        paint = int(
            self.sprite("pads").pixels[y * self.size + self.size // 2, x * self.size + self.size // 2]
        )
        if (x, y) in self.mixers:
            paint = HUES[ORANGE] if colour == HUES[RED] else HUES[YELLOW]
        if paint >= 0:
            player.color_remap(None, paint)
        if (x, y) == self.exit:
            self.next_level()
        return True
