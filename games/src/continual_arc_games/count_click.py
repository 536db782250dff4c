"""count-click: count the objects in a picture and click the tile with as many dots, stage by stage.

Legend of the level grid: a stack of blocks, one per stage, each ``picture_height + 1`` rows high
(``picture_height`` is a parameter of the level). A block's first ``picture_height`` rows are the
picture: 0 empty, 1-6 a cell of an object of colour 1-6 (objects are 4-connected and never touch
one another, not even at a corner). Its last row holds the tiles' dot counts (1-9) from the left,
then zeros.

What each difficulty adds: 0 objects of one cell; 1 objects of two cells, which count once; 2 a
decoy tile that counts the picture's coloured cells; 3 a second decoy, counting its colours, in a
picture where some colour is shared by two objects.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, Sprite

from .base import CLICK, Level, Move, RejectLevel, knobs_at, retry
from .engine import DELTAS, GridGame, frame_point
from .layouts import Cell, ordered
from .search import bfs

__all__ = ["CountClick"]

# Frame colours of the objects (codes 1-6): red, yellow, green, purple, orange, magenta.
HUES = (8, 11, 14, 15, 12, 6)
DOT, FRAME, GROUND, EDGE, DONE, TODO = 0, 2, 5, 4, 14, 3
TILE = 7  # pixels a side of a tile: a one-pixel frame round a 3x3 grid of dots with gaps
PITCH = TILE + 1  # tiles stand one pixel apart


@dataclass(frozen=True)
class _Knobs:
    stages: int  # questions in a row, each a fresh picture and fresh tiles
    tiles: int  # candidate tiles per question
    counts: tuple[int, int]  # fewest and most objects in a picture
    cells: int  # most cells an object has
    decoy: bool  # whether a tile counts the picture's coloured cells instead of its objects
    hued: bool  # whether a tile counts the picture's colours, which every picture has fewer of
    size: tuple[int, int]  # the picture's width and height in cells


_KNOBS = (
    _Knobs(3, 3, (1, 4), 1, False, False, (9, 7)),
    _Knobs(4, 3, (1, 6), 2, False, False, (11, 9)),
    _Knobs(4, 3, (2, 8), 3, True, False, (13, 9)),
    _Knobs(5, 4, (3, 9), 4, True, True, (15, 11)),
)


@dataclass(frozen=True)
class _Stage:
    picture: tuple[tuple[int, ...], ...]
    tiles: tuple[int, ...]

    def objects(self) -> int:
        """How many objects the picture holds: its groups of 4-connected coloured cells."""
        cells = {(x, y) for y, row in enumerate(self.picture) for x, v in enumerate(row) if v}
        groups = 0
        while cells:
            groups += 1
            stack = [cells.pop()]
            while stack:
                x, y = stack.pop()
                for dx, dy in DELTAS.values():
                    if (x + dx, y + dy) in cells:
                        cells.remove((x + dx, y + dy))
                        stack.append((x + dx, y + dy))
        return groups


def _stages(level: Level) -> list[_Stage]:
    rows = level.param("picture_height")
    blocks = range(0, level.height, rows + 1)
    return [
        _Stage(level.grid[top : top + rows], tuple(v for v in level.grid[top + rows] if v)) for top in blocks
    ]


def _viewport(level: Level) -> tuple[int, int]:
    """The viewport in pixels: the picture, the tiles below it, and a row of progress marks."""
    tiles = max(len(stage.tiles) for stage in _stages(level))
    return max(level.width, PITCH * tiles - 1), level.param("picture_height") + TILE + 3


class CountClick:
    """The count-click game (see the module docstring for its level legend)."""

    id = "count-click"
    title = "Count and click"
    rules = (
        "The top of the screen shows a picture of coloured objects; below it is a row of framed "
        "tiles, each holding a number of white dots. Clicking (ACTION6) the tile with as many dots "
        "as the picture has objects answers the question: a green mark fills in at the bottom and a "
        "new picture with new tiles appears. An object is a group of touching cells of one colour, "
        "so a big object counts once. Clicking any other tile loses the level; clicks outside the "
        "tiles do nothing. The level is won when every question has been answered."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 100

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """3 to 5 questions of 1-4 up to 3-9 objects of 1 to 4 cells, with 3 or 4 tiles each.

        From difficulty 2 on, one wrong tile counts the coloured cells rather than the objects; at
        difficulty 3 another counts the colours, every picture sharing a colour between two objects.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        width, rows = knobs.size
        grid: list[list[int]] = []
        for _ in range(knobs.stages):
            picture, objects, cells, hues = _question(rng, knobs)
            tiles = _tiles(rng, knobs, objects, cells, hues)
            grid += [*picture, list(tiles) + [0] * (width - len(tiles))]
        return Level.make(self.id, grid, picture_height=rows)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the picture, tiles and progress marks are repainted after each answer."""
        return _CountGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The one winning plan, by breadth-first search over the questions answered.

        From each question the only move that does not lose is the click on the tile whose dots
        match the picture's objects, counted as 4-connected groups of coloured cells.
        """
        stages = _stages(level)
        viewport = _viewport(level)
        top = level.param("picture_height") + 1

        def successors(done: int) -> Iterator[tuple[Move, int]]:
            stage = stages[done]
            answer = stage.objects()
            for i, count in enumerate(stage.tiles):
                if count == answer:
                    yield Move.click(*frame_point(viewport, PITCH * i + TILE // 2, top + TILE // 2)), done + 1

        return bfs(0, successors, lambda done: done == len(stages), budget)


def _question(rng: random.Random, knobs: _Knobs) -> tuple[list[list[int]], int, int, int]:
    """A picture and its counts of objects, coloured cells and colours.

    With ``hued``, pictures are drawn again until two objects share a colour, so that the colour
    count is a wrong answer.
    """
    for _ in range(20):
        picture = _picture(rng, knobs)
        objects = _Stage(tuple(map(tuple, picture)), ()).objects()
        cells = sum(1 for row in picture for v in row if v)
        hues = len({v for row in picture for v in row if v})
        if not knobs.hued or hues != objects:
            return picture, objects, cells, hues
    raise RejectLevel("no picture shares a colour between two objects")


def _picture(rng: random.Random, knobs: _Knobs) -> list[list[int]]:
    """A picture of a random number of objects in range, none touching another."""
    width, height = knobs.size
    grid = [[0] * width for _ in range(height)]
    everywhere = [(x, y) for y in range(height) for x in range(width)]
    near: set[Cell] = set()  # the cells of the objects so far and every cell touching them
    for _ in range(rng.randint(*knobs.counts)):
        free = [c for c in everywhere if c not in near]
        if not free:
            raise RejectLevel("no room for another object")
        shape = [rng.choice(free)]
        room = set(free)
        size = rng.randint(1, knobs.cells)
        while len(shape) < size:
            frontier = ordered(
                {(x + dx, y + dy) for x, y in shape for dx, dy in DELTAS.values()} & room - set(shape)
            )
            if not frontier:
                break  # boxed in: the object stays smaller
            shape.append(rng.choice(frontier))
        hue = 1 + rng.randrange(len(HUES))
        for x, y in shape:
            grid[y][x] = hue
            near.update((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    return grid


def _tiles(rng: random.Random, knobs: _Knobs, objects: int, cells: int, hues: int) -> tuple[int, ...]:
    """The dot counts: the right one, the colour and cell counts as decoys if asked, then near misses."""
    wrong: list[int] = []
    if knobs.hued:  # never equal to the objects: the picture was redrawn until a colour is shared
        wrong.append(hues)
    if knobs.decoy and cells != objects and cells <= 9 and cells not in wrong:
        wrong.append(cells)
    near = [n for n in (objects - 1, objects + 1, objects - 2, objects + 2, objects + 3) if 1 <= n <= 9]
    for n in rng.sample(near, len(near)):
        if n not in wrong:
            wrong.append(n)
    tiles = [objects, *wrong[: knobs.tiles - 1]]
    return tuple(rng.sample(tiles, len(tiles)))


def _paint_tiles(tiles: tuple[int, ...], width: int) -> np.ndarray:
    pixels = np.full((TILE, width), -1, dtype=np.int8)
    for i, count in enumerate(tiles):
        left = PITCH * i
        pixels[:, left : left + TILE] = FRAME
        pixels[1:-1, left + 1 : left + TILE - 1] = GROUND
        for dot in range(count):
            row, col = divmod(dot, 3)
            pixels[1 + 2 * row, left + 1 + 2 * col] = DOT
    return pixels


class _CountGame(GridGame):
    """The engine side of count-click: the questions answered are the green progress marks."""

    def __init__(self, level: Level) -> None:
        self.stages = _stages(level)
        self.rows = level.param("picture_height")
        self.width, height = _viewport(level)
        marks = np.full((1, 2 * len(self.stages) - 1), -1, dtype=np.int8)
        marks[0, ::2] = TODO
        sprites = [
            Sprite(self._picture(0), name="picture", x=0, y=0, tags=[]),
            Sprite(
                _paint_tiles(self.stages[0].tiles, self.width), name="tiles", x=0, y=self.rows + 1, tags=[]
            ),
            Sprite(marks, name="marks", x=0, y=height - 1, tags=[]),
        ]
        super().__init__(
            CountClick.id, sprites, (self.width, height), actions=(6,), background=GROUND, letterbox=EDGE
        )

    def _picture(self, stage: int) -> np.ndarray:
        codes = np.array(self.stages[stage].picture, dtype=np.int8)
        pixels = np.full(codes.shape, -1, dtype=np.int8)
        for code, hue in enumerate(HUES, start=1):
            pixels[codes == code] = hue
        return pixels

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Answer with the clicked tile: the next question, a win after the last, or a loss."""
        if cell is None:
            return True
        x, y = cell
        marks = self.sprite("marks")
        done = int((marks.pixels == DONE).sum())
        tiles = self.stages[done].tiles
        tile, inner = divmod(x, PITCH)
        if not (self.rows + 1 <= y < self.rows + 1 + TILE and inner < TILE and tile < len(tiles)):
            return True
        if tiles[tile] != self.stages[done].objects():
            self.lose()
            return True
        marks.pixels[0, 2 * done] = DONE
        if done + 1 == len(self.stages):
            self.next_level()
            return True
        self.sprite("picture").pixels = self._picture(done + 1)
        self.sprite("tiles").pixels = _paint_tiles(self.stages[done + 1].tiles, self.width)
        return True
