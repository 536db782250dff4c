"""toggle-pattern: click tiles, each flipping itself and its four neighbours, to copy a pattern.

Legend of the level grid (n x n, one code per tile): bit 0 is the tile's state now (1 lit), bit 1
its state in the pattern to reach; so 0 and 3 are tiles already right, 1 and 2 tiles to change.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, Sprite

from .base import CLICK, Level, Move, RejectLevel, knobs_at, retry
from .engine import GridGame, frame_point, layer_sprite
from .layouts import Cell

__all__ = ["TogglePattern"]

LIT, DARK, GROUND, FRAME, EDGE = 11, 3, 5, 2, 4
TILE, PANEL_TILE = 3, 2  # pixels per tile on the board, and on the pattern panel (gaps of 1)


@dataclass(frozen=True)
class _Knobs:
    side: int  # tiles per side of the board
    clicks: int  # distinct random clicks applied to the pattern to make the start
    lit: float  # share of the pattern's tiles that are lit


_KNOBS = (_Knobs(3, 2, 0.3), _Knobs(4, 3, 0.35), _Knobs(5, 4, 0.4), _Knobs(5, 6, 0.4))


def _effect(n: int, tile: int) -> int:
    """The bitmask of the tiles a click on ``tile`` (row-major index) flips: it and its neighbours."""
    r, c = divmod(tile, n)
    mask = 1 << tile
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            mask |= 1 << ((r + dr) * n + c + dc)
    return mask


def _bits(level: Level, bit: int) -> int:
    return sum(((v >> bit) & 1) << i for i, v in enumerate(v for row in level.grid for v in row))


def _layout(n: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The viewport size in pixels and the top-left pixel of the pattern panel."""
    board = (TILE + 1) * n - 1
    panel = (PANEL_TILE + 1) * n - 1
    # The board starts at pixel (1, 1); the panel's frame stands one clear pixel off its tiles.
    return (board + panel + 8, board + 2), (board + 5, 2)


class TogglePattern:
    """The toggle-pattern game (see the module docstring for its level legend)."""

    id = "toggle-pattern"
    title = "Copy the pattern"
    rules = (
        "The large board on the left is a square of tiles, each lit (yellow) or dark; the small framed "
        "panel on the right shows a pattern of the same size. Clicking a board tile (ACTION6) flips "
        "it and the tiles directly above, below, left and right of it. Clicks elsewhere do nothing. "
        "The level is won when the board shows the same pattern as the panel."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 1_024

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A 3x3 to 5x5 board: a random pattern, scrambled by 2 to 6 distinct clicks."""
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 20)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        n = knobs.side
        goal = sum(1 << i for i in range(n * n) if rng.random() < knobs.lit)
        board = goal
        for tile in rng.sample(range(n * n), knobs.clicks):
            board ^= _effect(n, tile)
        if board == goal:
            raise RejectLevel("the clicks cancelled out")
        codes = [
            [(board >> (r * n + c) & 1) | (goal >> (r * n + c) & 1) << 1 for c in range(n)] for r in range(n)
        ]
        return Level.make(self.id, codes)

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the board, and the framed pattern panel to its right."""
        return _ToggleGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest clicks, exactly: clicks commute and undo themselves, so a plan is a set of tiles.

        Gaussian elimination over GF(2) gives one set that works and a basis of the sets that change
        nothing; the smallest plan is among their combinations, ``budget`` of which are examined.
        """
        n = level.width
        found = _elimination(n, _bits(level, 0) ^ _bits(level, 1))
        if found is None:
            return None
        particular, basis = found
        best = particular
        for combo in range(1, min(1 << len(basis), budget)):
            candidate = particular
            for i, vector in enumerate(basis):
                if combo >> i & 1:
                    candidate ^= vector
            if (candidate.bit_count(), candidate) < (best.bit_count(), best):
                best = candidate
        viewport, _ = _layout(n)
        step = TILE + 1
        return tuple(
            Move.click(*frame_point(viewport, 1 + (t % n) * step + 1, 1 + (t // n) * step + 1))
            for t in range(n * n)
            if best >> t & 1
        )


def _elimination(n: int, diff: int) -> tuple[int, list[int]] | None:
    """One click set flipping exactly ``diff``, and a basis of the click sets that flip nothing."""
    size = n * n
    rows = [[_effect(n, tile), diff >> tile & 1] for tile in range(size)]  # a symmetric system
    pivots: list[int] = []
    for col in range(size):
        rank = len(pivots)
        pick = next((i for i in range(rank, size) if rows[i][0] >> col & 1), None)
        if pick is None:
            continue
        rows[rank], rows[pick] = rows[pick], rows[rank]
        for i in range(size):
            if i != rank and rows[i][0] >> col & 1:
                rows[i] = [rows[i][0] ^ rows[rank][0], rows[i][1] ^ rows[rank][1]]
        pivots.append(col)
    if any(rhs for mask, rhs in rows[len(pivots) :] if mask == 0):
        return None
    particular = sum(rows[i][1] << col for i, col in enumerate(pivots))
    basis = []
    for free in (c for c in range(size) if c not in pivots):
        vector = 1 << free
        for i, col in enumerate(pivots):
            if rows[i][0] >> free & 1:
                vector |= 1 << col
        basis.append(vector)
    return particular, basis


class _ToggleGame(GridGame):
    """The engine side of toggle-pattern: the board is one sprite whose pixels are repainted."""

    def __init__(self, level: Level) -> None:
        n = level.width
        self.side = n
        viewport, (px, py) = _layout(n)
        goal = _bits(level, 1)
        panel = [
            (
                px + c * (PANEL_TILE + 1) + i,
                py + r * (PANEL_TILE + 1) + j,
                LIT if goal >> (r * n + c) & 1 else DARK,
            )
            for r in range(n)
            for c in range(n)
            for i in range(PANEL_TILE)
            for j in range(PANEL_TILE)
        ]
        right, bottom = px + (PANEL_TILE + 1) * n, py + (PANEL_TILE + 1) * n
        frame = [(x, y, FRAME) for x in range(px - 2, right + 1) for y in (py - 2, bottom)]
        frame += [(x, y, FRAME) for y in range(py - 2, bottom + 1) for x in (px - 2, right)]
        board = Sprite(_paint(n, _bits(level, 0)), name="board", x=1, y=1, layer=1, tags=[])
        sprites = [layer_sprite(panel + frame, "pattern", viewport), board]
        self.goal = goal
        super().__init__(TogglePattern.id, sprites, viewport, actions=(6,), background=GROUND, letterbox=EDGE)

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Flip the clicked tile and its neighbours; a click on a gap or off the board does nothing."""
        if cell is None:
            return True
        n, step = self.side, TILE + 1
        col, inner_x = divmod(cell[0] - 1, step)
        row, inner_y = divmod(cell[1] - 1, step)
        if not (0 <= col < n and 0 <= row < n) or inner_x == TILE or inner_y == TILE:
            return True
        board = self.sprite("board")
        lit = sum(
            int(board.pixels[r * step, c * step] == LIT) << (r * n + c) for r in range(n) for c in range(n)
        )
        lit ^= _effect(n, row * n + col)
        board.pixels = _paint(n, lit)
        if lit == self.goal:
            self.next_level()
        return True


def _paint(n: int, lit: int) -> np.ndarray:
    """The board's pixels: a TILE-pixel square per tile, lit or dark, with clear gaps between."""
    step = TILE + 1
    pixels = np.full((step * n - 1, step * n - 1), -1, dtype=np.int8)
    for t in range(n * n):
        r, c = divmod(t, n)
        pixels[r * step : r * step + TILE, c * step : c * step + TILE] = LIT if lit >> t & 1 else DARK
    return pixels
