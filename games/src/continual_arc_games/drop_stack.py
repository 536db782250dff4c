"""drop-stack: drop the queued blocks into the well's columns to build the target picture.

Legend of the level grid, ``width`` columns wide: the first ``height`` rows (the ``height`` param) are
the target picture, 0 empty and 1 + c a block of colour c (0-3), every column's blocks resting on the
bottom; the rows after them list the blocks to drop, in order, left to right and row by row, as
1 + c, padded with 0 after the last.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, InteractionMode, Sprite

from .base import CLICK, Level, Move, RejectLevel, knobs_at, retry
from .engine import GridGame, block, frame_point, layer_sprite
from .layouts import Cell

__all__ = ["DropStack"]

HUES = (8, 11, 9, 14)  # red, yellow, blue, green
STONE, GROUND, EDGE = 2, 5, 4


@dataclass(frozen=True)
class _Knobs:
    columns: int
    height: int  # the well's depth; a column of the picture is 1 to height blocks
    colours: int
    traps: int  # how many of three naive players (leftmost, rightmost, first fit by turns) must fail


_KNOBS = (_Knobs(3, 3, 2, 1), _Knobs(4, 4, 2, 2), _Knobs(5, 4, 3, 3), _Knobs(5, 5, 2, 3))


@dataclass(frozen=True)
class _Well:
    columns: tuple[tuple[int, ...], ...]  # each column's target colours, bottom first
    queue: tuple[int, ...]  # the colours to drop, in order
    height: int

    @classmethod
    def read(cls, level: Level) -> _Well:
        height = level.param("height")
        picture, rest = level.grid[:height], level.grid[height:]
        columns = tuple(tuple(row[c] - 1 for row in reversed(picture) if row[c]) for c in range(level.width))
        return cls(columns, tuple(v - 1 for row in rest for v in row if v), height)

    def fits(self, heights: tuple[int, ...]) -> list[int]:
        """The columns the next block may drop into: where the picture wants its colour next."""
        colour = self.queue[sum(heights)]
        return [c for c, h in enumerate(heights) if h < len(self.columns[c]) and self.columns[c][h] == colour]


def _viewport(level: Level) -> tuple[int, int]:
    """The viewport in cells: the well and the picture side by side, the queue in rows below.

    Row 0 is open above the well (a dropped block appears there), rows 1 to ``height`` are the well,
    the next its floor, then a blank row, then the queue from row ``height`` + 3.
    """
    width, height = 2 * level.width + 4, level.param("height") + 3
    queued = sum(1 for row in level.grid[level.param("height") :] for v in row if v)
    return width, height + -(-queued // width)


def _queue_pixels(queue: tuple[int, ...], view: tuple[int, int], top: int) -> np.ndarray:
    """The queue's pixels: the blocks still to drop, in rows from ``top``, the next leftmost."""
    pixels = np.full((view[1], view[0]), -1, dtype=np.int8)
    for i, colour in enumerate(queue):
        pixels[top + i // view[0], i % view[0]] = HUES[colour]
    return pixels


class DropStack:
    """The drop-stack game (see the module docstring for its level legend)."""

    id = "drop-stack"
    title = "Stack to the picture"
    rules = (
        "On the left is a well of empty columns, on the right a picture of coloured stacks, and below "
        "them a row of blocks waiting in turn, the leftmost next. Clicking a column of the well "
        "(ACTION6) drops the next block into it: it falls until it lands on the bottom or on the "
        "blocks already there. A block that lands where the picture has no block of its colour "
        "spoils the picture and loses the level; only RESET continues. The level is won when the "
        "well shows the picture, every block having been dropped."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 5_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A picture of 3 to 5 columns, 3 to 5 deep, in 2 or 3 colours; its blocks queued to fill it.

        With difficulty, 1 to 3 of three naive players must fail on it: one that always drops into
        the leftmost column that fits, one the rightmost, and one that takes the fitting columns in
        turn.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 40)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        n, depth = knobs.columns, knobs.height
        columns = [[rng.randrange(knobs.colours) for _ in range(rng.randint(1, depth))] for _ in range(n)]
        heights, queue = [0] * n, list[int]()
        while len(queue) < sum(map(len, columns)):  # a random order that fills the picture
            c = rng.choice([c for c in range(n) if heights[c] < len(columns[c])])
            queue.append(columns[c][heights[c]])
            heights[c] += 1
        picture = [[0] * n for _ in range(depth)]
        for c, stack in enumerate(columns):
            for h, colour in enumerate(stack):
                picture[depth - 1 - h][c] = 1 + colour
        rows = [[1 + v for v in queue[i : i + n]] for i in range(0, len(queue), n)]
        rows[-1] += [0] * (n - len(rows[-1]))
        level = Level.make(self.id, picture + rows, height=depth)
        well = _Well.read(level)
        naive = [_naive(well, lambda fits, turn: fits[0]), _naive(well, lambda fits, turn: fits[-1])]
        naive.append(_naive(well, lambda fits, turn: fits[turn % len(fits)]))
        if sum(not won for won in naive) < knobs.traps:
            raise RejectLevel(f"fewer than {knobs.traps} naive players fail")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: a dropped block falls a cell a frame until it collides with the stack."""
        return _DropGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """A winning order of columns, by depth-first search over the columns' heights.

        Every plan drops every block, so any plan found is a shortest one; a state found to lead
        nowhere is remembered. ``budget`` bounds the states expanded.
        """
        well = _Well.read(level)
        view = _viewport(level)
        clicks = [Move.click(*frame_point(view, 1 + c, 1)) for c in range(level.width)]
        goal = tuple(len(stack) for stack in well.columns)
        dead: set[tuple[int, ...]] = set()
        plan: list[Move] = []
        expanded = 0

        def search(heights: tuple[int, ...]) -> bool:
            nonlocal expanded
            if heights == goal:
                return True
            if heights in dead or expanded >= budget:
                return False
            expanded += 1
            for c in well.fits(heights):
                plan.append(clicks[c])
                if search((*heights[:c], heights[c] + 1, *heights[c + 1 :])):
                    return True
                plan.pop()
            dead.add(heights)
            return False

        return tuple(plan) if search((0,) * level.width) and plan else None


def _naive(well: _Well, pick: Callable[[list[int], int], int]) -> bool:
    """Whether a player that never looks ahead wins: ``pick(fits, turn)`` chooses among fitting columns."""
    heights = (0,) * len(well.columns)
    for turn in range(len(well.queue)):
        fits = well.fits(heights)
        if not fits:
            return False
        c = pick(fits, turn)
        heights = (*heights[:c], heights[c] + 1, *heights[c + 1 :])
    return True


class _DropGame(GridGame):
    """The engine side of drop-stack: landed blocks are painted into one collidable stack sprite."""

    def __init__(self, level: Level) -> None:
        well = _Well.read(level)
        n, depth = level.width, well.height
        view = _viewport(level)
        frame = [(x, y) for y in range(1, depth + 2) for x in (0, n + 1, n + 2, 2 * n + 3)]
        frame += [(x, depth + 1) for x in range(2 * n + 4)]
        picture = [
            (n + 3 + c, depth - h, HUES[colour])
            for c, stack in enumerate(well.columns)
            for h, colour in enumerate(stack)
        ]
        stack = Sprite(np.full((view[1], view[0]), -1, dtype=np.int8), name="stack", layer=1, tags=[])
        sprites = [
            layer_sprite([(x, y, STONE) for x, y in frame], "walls", view),
            layer_sprite(picture, "picture", view).set_interaction(InteractionMode.INTANGIBLE),
            stack,
            Sprite(_queue_pixels(well.queue, view, depth + 3), name="queue", tags=[]).set_interaction(
                InteractionMode.INTANGIBLE
            ),
        ]
        self.well, self.view = well, view
        super().__init__(DropStack.id, sprites, view, actions=(6,), background=GROUND, letterbox=EDGE)

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """A click on a column spawns the next block above it; each later frame lets it fall a cell."""
        falling = self.current_level.get_sprites_by_name("falling")
        if falling:
            falling[0].move(0, 1)  # the frame before made sure it could
            return self._land_if_stopped(falling[0])
        if cell is None or not 1 <= cell[0] <= len(self.well.columns) or cell[1] > self.well.height:
            return True
        dropped = int((self.sprite("stack").pixels >= 0).sum())
        spawned = block(HUES[self.well.queue[dropped]], "falling", cell[0], 0, layer=2)
        self.current_level.add_sprite(spawned)
        rest = self.well.queue[dropped + 1 :]
        self.sprite("queue").pixels = _queue_pixels(rest, self.view, self.well.height + 3)
        return self._land_if_stopped(spawned)

    def _land_if_stopped(self, falling: Sprite) -> bool:
        """Land the block if nothing lets it fall further, checking it against the picture.

        Returns:
            Whether the drop is over (landed), so that no frame shows a block that has stopped.
        """
        if not self.try_move_sprite(falling, 0, 1):
            falling.move(0, -1)  # only a probe: it can fall, in the next frame
            return False
        self.current_level.remove_sprite(falling)
        x, y = falling.x, falling.y
        colour = int(falling.pixels[0, 0])
        self.sprite("stack").pixels[y, x] = colour
        wanted = self.sprite("picture").pixels[y, x + len(self.well.columns) + 2]
        if y < 1 or wanted != colour:
            self.lose()
        elif int((self.sprite("stack").pixels >= 0).sum()) == len(self.well.queue):
            self.next_level()
        return True
