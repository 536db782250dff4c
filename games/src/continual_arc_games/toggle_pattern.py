"""toggle-pattern: click tiles, each flipping a set of tiles its kind sets, to copy a pattern.

Legend of the level grid (n x n, one code per tile): bit 0 is the tile's state now (1 lit), bit 1
its state in the pattern to reach (so 0 and 3 are tiles already right, 1 and 2 tiles to change),
and bits 2-3 the tile's kind, which sets what a click on it flips (`KINDS`):

- 0 a plain tile flips itself and the tiles beside it (above, below, left, right);
- 1 a pinned tile, marked by a dot in its middle, ignores clicks (its neighbours still flip it);
- 2 a cross tile, marked by an X, flips itself and the four tiles diagonally beside it;
- 3 a line tile, marked by a +, flips its whole row and its whole column.

Each difficulty adds a kind: plain tiles only at 0, pinned tiles from 1, cross tiles from 2, line
tiles at 3, so the rule learned at one difficulty is not the whole rule of the next.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from arcengine import ARCBaseGame, Sprite

from .base import CLICK, Level, Move, RejectLevel, knobs_at, retry
from .engine import GridGame, frame_point, layer_sprite
from .layouts import Cell

__all__ = ["KINDS", "TogglePattern"]

LIT, DARK, GROUND, FRAME, EDGE, MARK = 11, 3, 5, 2, 4, 9

#: The tile kinds in code order (bits 2-3 of a tile's code): what a click on each flips.
KINDS = ("plain", "pinned", "cross", "line")
PLAIN, PINNED, CROSS, LINE = range(len(KINDS))

# The pixels of a tile (x, y in 0..TILE-1) drawn in MARK for each kind: a plain tile has none.
_MARKS: tuple[tuple[tuple[int, int], ...], ...] = (
    (),
    ((1, 1),),
    ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
)
TILE, PANEL_TILE = 3, 2  # pixels per tile on the board, and on the pattern panel (gaps of 1)


@dataclass(frozen=True)
class _Knobs:
    side: int  # tiles per side of the board
    clicks: int  # distinct random clicks applied to the pattern to make the start
    lit: float  # share of the pattern's tiles that are lit
    kinds: tuple[int, int, int]  # how many pinned, cross and line tiles the board holds
    special: int  # of the scramble's clicks, how many at least fall on cross or line tiles


_KNOBS = (
    _Knobs(3, 2, 0.3, (0, 0, 0), 0),
    _Knobs(4, 3, 0.35, (3, 0, 0), 0),
    _Knobs(5, 4, 0.4, (2, 3, 0), 1),
    _Knobs(5, 5, 0.4, (2, 2, 2), 2),
)

_SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))
_CORNERS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def _effect(n: int, tile: int, kind: int = PLAIN) -> int:
    """The bitmask of the tiles a click on ``tile`` (row-major index) of ``kind`` flips."""
    r, c = divmod(tile, n)
    if kind == PINNED:
        return 0
    if kind == LINE:
        return sum(1 << (r * n + k) for k in range(n)) | sum(1 << (k * n + c) for k in range(n))
    mask = 1 << tile
    for dr, dc in _CORNERS if kind == CROSS else _SIDES:
        if 0 <= r + dr < n and 0 <= c + dc < n:
            mask |= 1 << ((r + dr) * n + c + dc)
    return mask


def _kinds(level: Level) -> tuple[int, ...]:
    """Every tile's kind, row-major."""
    return tuple(v >> 2 & 3 for row in level.grid for v in row)


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
        "some tiles, as the tile's blue mark says: an unmarked tile flips itself and the tiles directly "
        "above, below, left and right of it; a tile with a dot is pinned and a click on it does nothing; "
        "a tile with an X flips itself and the four tiles touching its corners; a tile with a + flips "
        "its whole row and its whole column. Clicks elsewhere do nothing. The level is won when the "
        "board shows the same pattern as the panel."
    )
    actions = (CLICK,)
    max_difficulty = len(_KNOBS) - 1
    budget = 1_024

    def generate(self, rng: random.Random, difficulty: int) -> Level:
        """A 3x3 to 5x5 board: a random pattern, scrambled by 2 to 5 distinct clicks.

        Difficulty 0 has plain tiles only; 1 adds 3 pinned tiles (and serves only boards where the
        fewest clicks must flip one); 2 adds 3 cross tiles, 3 two line tiles, and each serves only
        boards whose fewest clicks include a tile of the kind it added.
        """
        knobs = knobs_at(self.id, _KNOBS, difficulty)
        return retry(lambda: self._attempt(rng, knobs), 40)

    def _attempt(self, rng: random.Random, knobs: _Knobs) -> Level:
        n = knobs.side
        kinds = [PLAIN] * (n * n)
        placed = rng.sample(range(n * n), sum(knobs.kinds))
        for kind, count in zip((PINNED, CROSS, LINE), knobs.kinds, strict=True):
            for tile in placed[:count]:
                kinds[tile] = kind
            placed = placed[count:]
        goal = sum(1 << i for i in range(n * n) if rng.random() < knobs.lit)
        board = goal
        clickable = [t for t in range(n * n) if kinds[t] != PINNED]
        for tile in rng.sample(clickable, knobs.clicks):
            board ^= _effect(n, tile, kinds[tile])
        if board == goal:
            raise RejectLevel("the clicks cancelled out")
        codes = [
            [(board >> t & 1) | (goal >> t & 1) << 1 | kinds[t] << 2 for t in range(r * n, r * n + n)]
            for r in range(n)
        ]
        level = Level.make(self.id, codes)
        added = [kind for kind, count in zip((PINNED, CROSS, LINE), knobs.kinds, strict=True) if count]
        newest = max(added, default=PLAIN)
        clicks = _fewest(level, self.budget)
        if clicks is None or not _uses(newest, kinds, clicks, board ^ goal):
            raise RejectLevel(f"the fewest clicks need no {KINDS[newest]} tile")
        return level

    def build(self, level: Level) -> ARCBaseGame:
        """The engine game: the board, and the framed pattern panel to its right."""
        return _ToggleGame(level)

    def solve(self, level: Level, budget: int) -> tuple[Move, ...] | None:
        """The fewest clicks, exactly: clicks commute and undo themselves, so a plan is a set of tiles.

        Gaussian elimination over GF(2) gives one set that works and a basis of the sets that change
        nothing; the smallest plan is among their combinations, ``budget`` of which are examined.
        A pinned tile flips nothing, so no plan clicks one.
        """
        n = level.width
        best = _fewest(level, budget)
        if best is None:
            return None
        viewport, _ = _layout(n)
        step = TILE + 1
        return tuple(
            Move.click(*frame_point(viewport, 1 + (t % n) * step + 1, 1 + (t // n) * step + 1))
            for t in range(n * n)
            if best >> t & 1
        )


def _uses(kind: int, kinds: list[int], clicks: int, wrong: int) -> bool:
    """Whether a plan of ``clicks`` (a tile bitmask) needs tiles of ``kind`` to fix ``wrong``.

    A plan needs a pinned tile when one of the tiles it must change is pinned (so it is changed only
    from beside); any other kind when the plan clicks a tile of it. Plain tiles are always needed.
    """
    if kind == PLAIN:
        return True
    if kind == PINNED:
        return any(wrong >> t & 1 and k == PINNED for t, k in enumerate(kinds))
    return any(clicks >> t & 1 and k == kind for t, k in enumerate(kinds))


def _fewest(level: Level, budget: int) -> int | None:
    """The smallest set of tiles (a bitmask) whose clicks turn the board into the pattern, or None."""
    n = level.width
    effects = [_effect(n, t, kind) for t, kind in enumerate(_kinds(level))]
    found = _elimination(effects, _bits(level, 0) ^ _bits(level, 1))
    if found is None or budget < 1:
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
    return best


def _elimination(effects: list[int], diff: int) -> tuple[int, list[int]] | None:
    """One click set flipping exactly ``diff``, and a basis of the click sets that flip nothing.

    ``effects[t]`` is what a click on tile t flips. A tile whose click flips nothing (a pinned one)
    is left out of the basis: adding it to a plan changes nothing but the plan's length.
    """
    size = len(effects)
    # Row i of the system: the tiles whose click flips tile i (the transpose of ``effects``).
    rows = [[sum((effects[t] >> i & 1) << t for t in range(size)), diff >> i & 1] for i in range(size)]
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
    for free in (c for c in range(size) if c not in pivots and effects[c]):
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
        self.kinds = _kinds(level)
        self.start = _bits(level, 0)
        board = Sprite(_paint(n, self.start, self.kinds), name="board", x=1, y=1, layer=1, tags=[])
        sprites = [layer_sprite(panel + frame, "pattern", viewport), board]
        self.goal = goal
        super().__init__(TogglePattern.id, sprites, viewport, actions=(6,), background=GROUND, letterbox=EDGE)

    def on_set_level(self, level: object) -> None:
        """Every (re)start begins from the level's board (the engine restores the sprite itself)."""
        self.lit = self.start

    def on_action(self, action: int, cell: Cell | None) -> bool:
        """Flip what the clicked tile's kind flips; a click on a gap or off the board does nothing."""
        if cell is None:
            return True
        n, step = self.side, TILE + 1
        col, inner_x = divmod(cell[0] - 1, step)
        row, inner_y = divmod(cell[1] - 1, step)
        if not (0 <= col < n and 0 <= row < n) or inner_x == TILE or inner_y == TILE:
            return True
        tile = row * n + col
        self.lit ^= _effect(n, tile, self.kinds[tile])
        self.sprite("board").pixels = _paint(n, self.lit, self.kinds)
        if self.lit == self.goal:
            self.next_level()
        return True


def _paint(n: int, lit: int, kinds: tuple[int, ...]) -> np.ndarray:
    """The board's pixels: a TILE-pixel square per tile, lit or dark with its kind's mark, and gaps."""
    step = TILE + 1
    pixels = np.full((step * n - 1, step * n - 1), -1, dtype=np.int8)
    for t in range(n * n):
        r, c = divmod(t, n)
        pixels[r * step : r * step + TILE, c * step : c * step + TILE] = LIT if lit >> t & 1 else DARK
        for x, y in _MARKS[kinds[t]]:
            pixels[r * step + y, c * step + x] = MARK
    return pixels
