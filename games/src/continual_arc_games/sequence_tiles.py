"""sequence-tiles: watch tiles light up one after another, then click them in that order.

Legend of the level grid (rows x cols, one code per tile): bit k of a tile's code is set when the
k-th light of the show (counting from 0) is that tile, so 0 is a tile that never lights. Every step
0 .. length - 1 lights exactly one tile, and no tile lights twice in a row. Params, absent when 0:
``decoys`` a bitmask of the show's steps that are decoys (blue flashes the player must not count),
and ``reverse`` 1 when the show's lights are orange and are to be clicked last first.

Each difficulty adds an element: 0 is a show of yellow lights to click back; 1 adds a blue decoy
flash to leave out; 2 lets a tile light more than once; 3 plays every show in orange, which asks
for the lights clicked back in reverse order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, GameAction, Sprite

from .base import CLICK, Level, Move, knobs_at
from .engine import GridGame, frame_point, layer_sprite
from .layouts import Cell
from .search import bfs

__all__ = ["SequenceTiles", "read_sequence", "targets"]

DIM, LIT, WRONG, PENDING, DONE, GROUND, EDGE, DECOY, BACKWARDS = 3, 11, 8, 2, 14, 5, 4, 9, 12
TILE, STEP = 4, 5  # a tile is 4x4 pixels, one clear pixel apart; the board starts at pixel (1, 1)
MAX_LENGTH = 8  # a code is a byte: one bit per step of the show


@dataclass(frozen=True)
class _Knobs:
    shapes: tuple[tuple[int, int], ...]  # (rows, cols) the board may have
    length: int  # lights in the show
    repeats: bool  # whether a tile may light more than once (never twice in a row)
    decoys: int  # of the show's steps, how many are decoy flashes (never the first)
    reverse: bool  # whether the show is orange, to be clicked back last first


_KNOBS = (
    _Knobs(((2, 3), (3, 2), (3, 3)), 3, False, 0, False),
    _Knobs(((3, 3),), 5, False, 1, False),
    _Knobs(((3, 4), (4, 3)), 7, True, 1, False),
    _Knobs(((4, 4),), 8, True, 1, True),
)


def read_sequence(level: Level) -> tuple[int, ...]:
    """The show as row-major tile indices, in the order the tiles light.

    Raises:
        ValueError: the codes do not light exactly one tile at each step from 0 to the last.
    """
    codes = [v for row in level.grid for v in row]
    length = max(codes).bit_length()
    order = []
    for k in range(length):
        tiles = [i for i, v in enumerate(codes) if v >> k & 1]
        if len(tiles) != 1:
            raise ValueError(f"step {k} of the show lights {len(tiles)} tiles, not one")
        order.append(tiles[0])
    return tuple(order)


def targets(level: Level) -> tuple[int, ...]:
    """The tiles the player must click, in order: the show's lights but its decoys, reversed if asked.

    Raises:
        ValueError: the codes are not a show (`read_sequence`).
    """
    decoys = level.param("decoys", 0)
    lights = tuple(tile for k, tile in enumerate(read_sequence(level)) if not decoys >> k & 1)
    return lights[::-1] if level.param("reverse", 0) else lights


def _viewport(rows: int, cols: int) -> tuple[int, int]:
    """The board's pixels, and below it a row of progress marks, one per light, with margins."""
    return STEP * cols + 1, STEP * rows + 3


def _tile_pixel(tile: int, cols: int) -> Cell:
    """The viewport pixel at the top-left of a tile (row-major index)."""
    r, c = divmod(tile, cols)
    return 1 + STEP * c, 1 + STEP * r


class SequenceTiles:
    """The sequence-tiles game (see the module docstring for its level legend)."""

    id = "sequence-tiles"
    title = "Repeat the sequence"
    rules = (
        "A board of dark grey tiles, with a row of small grey marks below it, one per light. On "
        "RESET the level plays a show: tiles light up one at a time, each light a frame of its "
        "own followed by a frame with every tile dark. Then the player clicks tiles (ACTION6) to play "
        "the show back: a blue flash is a decoy and is left out, yellow lights are clicked in the "
        "order they lit, and when the show's lights are orange they are clicked in reverse order, "
        "the last first. A click on the tile due next flashes it yellow for a frame and turns the next "
        "mark green; a click on any other tile turns it red and the level is lost. Clicks off the "
        "tiles do nothing. The level is won when every light has been clicked back."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 1_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A board of 2x3 to 4x4 tiles and a show of 3 to 8 steps.

        From difficulty 1 one step is a decoy flash; from 2 a tile may light more than once; at 3
        the show is orange and clicked back in reverse.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        rows, cols = rng.choice(knobs.shapes)
        decoys = set(rng.sample(range(1, knobs.length), knobs.decoys))
        order: list[int] = []
        for k in range(knobs.length):
            lit = [t for i, t in enumerate(order) if i not in decoys]
            choices = [t for t in range(rows * cols) if knobs.repeats or k in decoys or t not in lit]
            order.append(rng.choice([t for t in choices if not order or t != order[-1]]))
        codes = [0] * (rows * cols)
        for k, tile in enumerate(order):
            codes[tile] |= 1 << k
        params = {"decoys": sum(1 << k for k in decoys), "reverse": int(knobs.reverse)}
        grid = [codes[r * cols : (r + 1) * cols] for r in range(rows)]
        return Level.make(self.id, grid, **{name: value for name, value in params.items() if value})

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: RESET plays the show as an animation, one frame per light or pause."""
        return _SequenceGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The tiles due, in order, by breadth-first search over how many have been clicked.

        A wrong click loses, so from each count only the right tile leads on: the search expands
        one state per light, and the plan is as long as the show without its decoys.
        """
        order = targets(level)
        cols = level.width
        viewport = _viewport(level.height, cols)
        clicks = [
            Move.click(*frame_point(viewport, *_centre(t, cols))) for t in range(level.width * level.height)
        ]

        def successors(done: int) -> Iterator[tuple[Move, int]]:
            for tile, move in enumerate(clicks):
                if tile == order[done]:
                    yield move, done + 1

        return bfs(0, successors, lambda done: done == len(order), budget)


def _centre(tile: int, cols: int) -> Cell:
    x, y = _tile_pixel(tile, cols)
    return x + TILE // 2, y + TILE // 2


class _SequenceGame(GridGame):
    """The engine side of sequence-tiles: the board is one sprite whose pixels are repainted."""

    def __init__(self, level: Level) -> None:
        self.rows, self.cols = level.height, level.width
        self.show = read_sequence(level)
        self.decoys = level.param("decoys", 0)
        self.light = BACKWARDS if level.param("reverse", 0) else LIT
        self.order = targets(level)
        self.viewport = _viewport(self.rows, self.cols)
        board = Sprite(self._paint(None, DIM), name="board", x=0, y=0, layer=1, tags=[])
        marks = layer_sprite(
            ((1 + 2 * k, self._mark_row, PENDING) for k in range(len(self.order))), "marks", self.viewport
        )
        super().__init__(
            SequenceTiles.id, [marks, board], self.viewport, actions=(6,), background=GROUND, letterbox=EDGE
        )

    def on_set_level(self, level: object) -> None:
        """Every (re)start replays the show from its first frame and has no clicks yet."""
        self.shown = 0  # frames of the show rendered so far
        self.clicked = 0
        self.flashing = False

    def step(self) -> None:
        """Play the show on RESET, one frame per call; any other action goes the usual way."""
        if self.action.id is not GameAction.RESET:
            super().step()
            return
        # Even frames light the next tile of the show, odd ones darken the board between lights,
        # so a tile shown twice in the show is seen as two lights.
        step = self.shown // 2
        tile = self.show[step] if self.shown % 2 == 0 else None
        colour = DECOY if self.decoys >> step & 1 else self.light
        self.sprite("board").pixels = self._paint(tile, colour)
        self.shown += 1
        if self.shown == 2 * len(self.show):
            self.complete_action()

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Judge a click against the show; a right one flashes its tile for one frame."""
        board = self.sprite("board")
        if self.flashing:
            board.pixels = self._paint(None, DIM)
            self.flashing = False
            return True
        tile = self._tile_at(cell)
        if tile is None:
            return True
        if tile != self.order[self.clicked]:
            board.pixels = self._paint(tile, WRONG)
            self.lose()
            return True
        mark = (1 + 2 * self.clicked, self._mark_row, DONE)
        self.current_level.add_sprite(layer_sprite([mark], f"done{self.clicked}", self.viewport, layer=2))
        self.clicked += 1
        board.pixels = self._paint(tile, LIT)
        if self.clicked == len(self.order):
            self.next_level()
            return True
        self.flashing = True
        return False

    @property
    def _mark_row(self) -> int:
        """The viewport row of the progress marks, one below the gap under the last row of tiles."""
        return STEP * self.rows + 1

    def _tile_at(self, cell: Cell | None) -> int | None:
        """The tile under a viewport pixel, or None on a gap, a margin or the marks."""
        if cell is None:
            return None
        col, inner_x = divmod(cell[0] - 1, STEP)
        row, inner_y = divmod(cell[1] - 1, STEP)
        if not (0 <= col < self.cols and 0 <= row < self.rows) or inner_x == TILE or inner_y == TILE:
            return None
        return row * self.cols + col

    def _paint(self, tile: int | None, colour: int) -> np.ndarray:
        """The board's pixels: every tile dark, but ``tile`` (if any) in ``colour``."""
        width, height = self.viewport
        pixels = np.full((height, width), -1, dtype=np.int8)
        for t in range(self.rows * self.cols):
            x, y = _tile_pixel(t, self.cols)
            pixels[y : y + TILE, x : x + TILE] = colour if t == tile else DIM
        return pixels
