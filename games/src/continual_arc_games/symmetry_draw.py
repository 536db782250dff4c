"""symmetry-draw: finish a picture so that it mirrors itself about the marked axis.

Legend of the level grid (one code per cell of the board): 0 an empty cell, 1-4 a cell painted with
palette colour 1-4. Params: ``axis`` 0 for a vertical axis down the middle (left mirrors right), 1
for a horizontal one (top mirrors bottom), 2 for both (each quarter mirrors its neighbours);
``locked`` 0 when the left (or top) half is the fixed picture, 1 when the right (or bottom) half
is, and with both axes the fixed quarter (bit 0 set: the right half's, bit 1 set: the bottom
half's); ``hue1`` .. ``hueK`` the frame colour of each palette entry; ``selected`` the palette entry
selected at the start; ``eraser`` 1 when the palette ends with an eraser (entry K + 1), which empties
any cell it clicks.

What each difficulty adds: 0 a vertical axis and two colours; 1 a horizontal axis as well, a third
colour and cells painted wrong (to be emptied); 2 both axes at once: one quarter is fixed and the
player paints the three others; 3 an eraser swatch, which shortens the fewest clicks, with a fourth
colour on a larger board.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, Sprite

from .base import CLICK, Level, Move, RejectLevel, knobs_at, retry
from .engine import GridGame, frame_point, layer_sprite
from .layouts import Cell
from .search import astar

__all__ = ["SymmetryDraw"]

EMPTY = 0
#: Frame colours a picture may use: red, blue, yellow, green, orange, purple, magenta.
HUES = (8, 9, 11, 14, 12, 15, 6)
OPEN, FIXED, AXIS, GROUND, EDGE = 2, 3, 0, 5, 4  # empty cells: editable lighter grey, fixed darker
CELL, STEP = 2, 3  # a cell is 2x2 pixels, one clear pixel apart; the board starts at pixel (1, 1)


@dataclass(frozen=True)
class _Knobs:
    size: tuple[int, int]  # board columns and rows, both even
    axes: tuple[int, ...]  # the axes a level may mirror about
    hues: int  # palette entries
    missing: int  # cells the editable half lacks
    wrong: int  # cells of the editable half painted wrongly (where empty or another colour is due)
    eraser: bool = False  # an eraser swatch, served only where it shortens the fewest clicks


BOTH = 2  # the axis param of a picture mirrored about both axes

_KNOBS = (
    _Knobs((6, 4), (0,), 2, 3, 0),
    _Knobs((6, 6), (0, 1), 3, 4, 1),
    _Knobs((8, 6), (BOTH,), 3, 6, 2),
    _Knobs((8, 8), (BOTH,), 4, 8, 4, eraser=True),
)


@dataclass(frozen=True)
class _Board:
    """A level read back: which cells the player may paint, where their mirrors are, and the goal."""

    width: int
    height: int
    hues: tuple[int, ...]  # frame colour of palette entry 1, 2, ... (entry 0 is empty)
    open_cells: tuple[Cell, ...]  # the editable half, row-major
    start: tuple[int, ...]  # the editable cells' codes at the start
    goal: tuple[int, ...]  # their mirrors' codes
    selected: int
    eraser: int  # the eraser's palette entry (one past the colours), or 0 when there is none

    @classmethod
    def read(cls, level: Level) -> _Board:
        width, height, axis, locked = level.width, level.height, level.param("axis"), level.param("locked")
        hues = tuple(level.param(f"hue{i}") for i in range(1, 5) if level.param(f"hue{i}", -1) >= 0)
        open_cells = tuple(c for c in _cells(width, height) if _in_open_half(c, width, height, axis, locked))
        mirrors = [_model(c, width, height, axis, locked) for c in open_cells]
        return cls(
            width,
            height,
            hues,
            open_cells,
            tuple(level.grid[y][x] for x, y in open_cells),
            tuple(level.grid[y][x] for x, y in mirrors),
            level.param("selected"),
            len(hues) + 1 if level.param("eraser", 0) else 0,
        )


def _cells(width: int, height: int) -> list[Cell]:
    return [(x, y) for y in range(height) for x in range(width)]


def _mirror(cell: Cell, width: int, height: int, axis: int) -> Cell:
    x, y = cell
    return (width - 1 - x, y) if axis == 0 else (x, height - 1 - y)


def _in_open_half(cell: Cell, width: int, height: int, axis: int, locked: int) -> bool:
    """Whether the player paints ``cell``: outside the fixed half, or with both axes the fixed quarter."""
    if axis == BOTH:
        return (cell[0] >= width // 2, cell[1] >= height // 2) != (bool(locked & 1), bool(locked & 2))
    first = cell[0] < width // 2 if axis == 0 else cell[1] < height // 2
    return first == (locked == 1)


def _model(cell: Cell, width: int, height: int, axis: int, locked: int) -> Cell:
    """The fixed cell whose colour a cell of the player's part must show."""
    if axis != BOTH:
        return _mirror(cell, width, height, axis)
    x, y = cell
    if (x >= width // 2) != bool(locked & 1):
        x = width - 1 - x
    if (y >= height // 2) != bool(locked & 2):
        y = height - 1 - y
    return x, y


def _viewport(width: int, height: int) -> tuple[int, int]:
    """The board, a row of palette swatches below it, and below that the selection mark."""
    return STEP * width + 1, STEP * height + 5


def _cell_pixel(cell: Cell) -> Cell:
    return 1 + STEP * cell[0], 1 + STEP * cell[1]


def _swatch_pixel(entry: int, height: int) -> Cell:
    """The top-left pixel of palette entry 1, 2, ...'s swatch."""
    return 1 + STEP * (entry - 1), STEP * height + 1


def cost_to_go(cells: tuple[int, ...], goal: tuple[int, ...], selected: int, eraser: int = 0) -> int:
    """The fewest clicks from ``cells`` with ``selected`` to ``goal``, in closed form.

    A cell needing colour c takes one click while c is selected; a cell to be emptied of colour d
    takes one click while d (or the eraser, entry ``eraser`` when not 0) is selected, or two (paint
    it, then empty it) otherwise; each colour other than the selected one costs a palette click the
    first time it is needed, and never again. The colours to empty that no painting selects each
    cost one click more (a palette click, or painting a cell twice), unless the eraser empties them
    all for one palette click (none if it is selected).
    """
    paint: Counter[int] = Counter()
    clear: Counter[int] = Counter()
    for now, due in zip(cells, goal, strict=True):
        if now != due:
            if due != EMPTY:
                paint[due] += 1
            else:
                clear[now] += 1
    total = sum(paint.values()) + len(set(paint) - {selected}) + sum(clear.values())
    unvisited = len(set(clear) - set(paint) - {selected})  # each costs one click more, as above
    if eraser:
        return total + min(unvisited, 0 if selected == eraser else 1)
    return total + unvisited


# The solver's state: the editable cells' codes, and the selected palette entry.
_State = tuple[tuple[int, ...], int]


class SymmetryDraw:
    """The symmetry-draw game (see the module docstring for its level legend)."""

    id = "symmetry-draw"
    title = "Mirror the picture"
    rules = (
        "A board of cells with a white line across its middle (or two, crossing), and a row of colour "
        "swatches below it with a white mark under the selected one. One half of the board (with two "
        "lines, one quarter) is a fixed picture (its empty cells darker grey); the rest is the "
        "player's (its empty cells lighter grey). "
        "Clicking a swatch (ACTION6) selects its colour. Clicking a cell of the player's half paints "
        "it the selected colour, or empties it if it already has that colour; where the palette ends "
        "with a white and grey checked swatch, that is an eraser, which empties any cell it clicks. "
        "Clicks on the fixed "
        "half, the line or the margins do nothing. The level is won when the board is its own mirror "
        "image about every white line."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 2_000

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A board of 6x4 to 8x8 cells with 2 to 4 colours, 3 to 8 cells missing and 0 to 4 wrong.

        The axis is vertical at difficulty 0, either at 1, and both from 2 (a fixed quarter). At 3 the
        palette has an eraser, and a level is served only when it saves clicks.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        width, height = knobs.size
        axis = rng.choice(knobs.axes)
        locked = rng.randrange(4 if axis == BOTH else 2)
        hues = rng.sample(HUES, knobs.hues)
        grid = [[EMPTY] * width for _ in range(height)]
        open_cells = [c for c in _cells(width, height) if _in_open_half(c, width, height, axis, locked)]
        if axis == BOTH:  # the fixed quarter drawn first, then copied into the player's three
            for x, y in _cells(width, height):
                if not _in_open_half((x, y), width, height, axis, locked):
                    grid[y][x] = 1 + rng.randrange(knobs.hues) if rng.random() < 0.55 else EMPTY
        for x, y in open_cells:
            mx, my = _model((x, y), width, height, axis, locked)
            if axis == BOTH:
                grid[y][x] = grid[my][mx]
            else:
                grid[my][mx] = grid[y][x] = 1 + rng.randrange(knobs.hues) if rng.random() < 0.55 else EMPTY
        if knobs.eraser:
            return self._erasing(rng, knobs, grid, open_cells, axis, locked, hues)
        painted = [c for c in open_cells if grid[c[1]][c[0]] != EMPTY]
        if len(painted) < knobs.missing + 2:
            raise RejectLevel("too few painted cells to leave some out")
        gaps = rng.sample(painted, knobs.missing)
        for x, y in gaps:
            grid[y][x] = EMPTY
        for x, y in rng.sample([c for c in open_cells if c not in gaps], knobs.wrong):
            grid[y][x] = rng.choice([h for h in range(1, knobs.hues + 1) if h != grid[y][x]])
        hue_params = {f"hue{i + 1}": hue for i, hue in enumerate(hues)}
        selected = 1 + rng.randrange(knobs.hues)
        return Level.make(self.id, grid, axis=axis, locked=locked, selected=selected, **hue_params)

    def _erasing(
        self,
        rng: random.Random,
        knobs: _Knobs,
        grid: list[list[int]],
        open_cells: list[Cell],
        axis: int,
        locked: int,
        hues: list[int],
    ) -> Level:
        """The level with an eraser: the cells to empty are of two stray colours nothing else needs.

        The gaps are left in cells of the other colours, the wrong cells are empty-due cells painted
        the two stray colours (both used), and neither is selected: emptying them one colour at a
        time costs two palette clicks, the eraser one.
        """
        strays = rng.sample(range(1, knobs.hues + 1), 2)
        painted = [c for c in open_cells if grid[c[1]][c[0]] not in (EMPTY, *strays)]
        blank = [c for c in open_cells if grid[c[1]][c[0]] == EMPTY]
        if len(painted) < knobs.missing or len(blank) < knobs.wrong:
            raise RejectLevel("too few cells to leave out or to paint wrongly")
        for x, y in rng.sample(painted, knobs.missing):
            grid[y][x] = EMPTY
        for i, (x, y) in enumerate(rng.sample(blank, knobs.wrong)):
            grid[y][x] = strays[i] if i < len(strays) else rng.choice(strays)
        hue_params = {f"hue{i + 1}": hue for i, hue in enumerate(hues)}
        selected = rng.choice([h for h in range(1, knobs.hues + 1) if h not in strays])
        erasing = Level.make(
            self.id, grid, axis=axis, locked=locked, selected=selected, eraser=1, **hue_params
        )
        board = _Board.read(erasing)
        if cost_to_go(board.start, board.goal, selected, board.eraser) >= cost_to_go(
            board.start, board.goal, selected
        ):
            raise RejectLevel("the eraser saves no click")
        return erasing

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the board is one sprite whose pixels are repainted, read back on each click."""
        return _SymmetryGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest clicks, by A* over (editable cells, selected colour) with an exact heuristic.

        `cost_to_go` is the exact number of clicks left, so A* walks straight down a shortest
        plan. Clicks on cells already right are never tried: undoing them only costs more clicks.
        """
        board = _Board.read(level)
        viewport = _viewport(board.width, board.height)
        entries = len(board.hues) + bool(board.eraser)
        swatches = {
            e: Move.click(*frame_point(viewport, *_swatch_pixel(e, board.height)))
            for e in range(1, entries + 1)
        }
        clicks = [Move.click(*frame_point(viewport, *_cell_pixel(c))) for c in board.open_cells]

        def successors(state: _State) -> Iterator[tuple[Move, _State]]:
            cells, selected = state
            for entry in range(1, entries + 1):
                if entry != selected:
                    yield swatches[entry], (cells, entry)
            for i, (now, due) in enumerate(zip(cells, board.goal, strict=True)):
                if now != due and (now != EMPTY or selected != board.eraser):
                    after = EMPTY if selected in (now, board.eraser) else selected
                    yield clicks[i], ((*cells[:i], after, *cells[i + 1 :]), selected)

        return astar(
            (board.start, board.selected),
            successors,
            lambda state: state[0] == board.goal,
            lambda state: cost_to_go(state[0], board.goal, state[1], board.eraser),
            budget,
        )


class _SymmetryGame(GridGame):
    """The engine side of symmetry-draw: cells live in the board's pixels, the selection in the mark."""

    def __init__(self, level: Level) -> None:
        board = _Board.read(level)
        self.width, self.height, self.hues = board.width, board.height, board.hues
        self.eraser = board.eraser
        self.open_cells = frozenset(board.open_cells)
        self.axis = level.param("axis")
        viewport = _viewport(self.width, self.height)
        pixels = np.full((viewport[1], viewport[0]), -1, dtype=np.int8)
        for x, y in _cells(self.width, self.height):
            code = level.grid[y][x]
            colour = self.hues[code - 1] if code else (OPEN if (x, y) in self.open_cells else FIXED)
            px, py = _cell_pixel((x, y))
            pixels[py : py + CELL, px : px + CELL] = colour
        across, down = STEP * (self.width // 2), STEP * (self.height // 2)
        line = [(across, y) for y in range(STEP * self.height + 1)] if self.axis in (0, BOTH) else []
        line += [(x, down) for x in range(STEP * self.width + 1)] if self.axis in (1, BOTH) else []
        swatches = [
            (sx + i, sy + j, hue)
            for entry, hue in enumerate(self.hues, start=1)
            for sx, sy in [_swatch_pixel(entry, self.height)]
            for i in range(CELL)
            for j in range(CELL)
        ]
        if board.eraser:  # a checker of white and light grey
            ex, ey = _swatch_pixel(board.eraser, self.height)
            swatches += [(ex + i, ey + j, AXIS if i == j else OPEN) for i in range(CELL) for j in range(CELL)]
        sx, sy = _swatch_pixel(board.selected, self.height)
        sprites = [
            Sprite(pixels, name="board", x=0, y=0, layer=1, tags=[]),
            layer_sprite([(x, y, AXIS) for x, y in line] + swatches, "marks", viewport),
            Sprite([[AXIS] * CELL], name="selected", x=sx, y=sy + CELL, layer=2, tags=[]),
        ]
        super().__init__(SymmetryDraw.id, sprites, viewport, actions=(6,), background=GROUND, letterbox=EDGE)

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Select a swatch, or paint or empty a cell of the editable half; then look for symmetry."""
        if cell is None:
            return True
        col, inner_x = divmod(cell[0] - 1, STEP)
        row, inner_y = divmod(cell[1] - 1, STEP)
        if inner_x == CELL or inner_y == CELL or col < 0:
            return True  # a gap between cells or swatches
        mark = self.sprite("selected")
        if row == self.height and col < len(self.hues) + bool(self.eraser):
            mark.set_position(1 + STEP * col, mark.y)
            return True
        if (col, row) not in self.open_cells:
            return True
        board = self.sprite("board")
        y, x = 1 + STEP * row, 1 + STEP * col
        entry = 1 + (mark.x - 1) // STEP
        chosen = OPEN if entry == self.eraser else self.hues[entry - 1]
        board.pixels[y : y + CELL, x : x + CELL] = OPEN if board.pixels[y, x] == chosen else chosen
        if self._symmetric(board.pixels):
            self.next_level()
        return True

    def _symmetric(self, pixels: np.ndarray) -> bool:
        """Whether every cell shows what its mirrors show (an empty cell is empty on either half)."""
        axes = (0, 1) if self.axis == BOTH else (self.axis,)
        for x, y in _cells(self.width, self.height):
            for axis in axes:
                mx, my = _mirror((x, y), self.width, self.height, axis)
                here, there = (pixels[1 + STEP * b, 1 + STEP * a] for a, b in ((x, y), (mx, my)))
                if here != there and not {int(here), int(there)} <= {OPEN, FIXED}:
                    return False
        return True
