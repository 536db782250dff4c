"""Trails: a motif repeated from every seed cell at a fixed step until it leaves the grid.

Some tasks grow each lone cell into a periodic pattern: a zigzag running down from a cell in the
top row, a staircase climbing from a cell to the corner and descending the other way. The
pattern is a *motif* (a few cells at offsets from the seed, each the seed's own colour ``=`` or a
fixed colour) painted at the seed, then again shifted by the *step* ``(dy, dx)``, again by twice
the step, and so on while any of it is inside the grid. ``trail(one)`` runs one way; ``trail(two)``
also runs the motif turned by a half turn the opposite way (the staircase's two arms);
``trail(edge)`` writes the motif and step for a seed on the top edge and turns them for each seed
to point away from the one edge it lies on (seeds on several edges shooting inwards).

The motif and step are fitted (`fit_trail`) from a seed's pattern: the cells a demonstration's
output adds, with the seed (a demonstration with one seed first, else each added cell read as its
nearest seed's); the smallest step that regenerates the
whole pattern from the cells it cannot explain by an earlier repetition gives the motif. The
step is kept only when it is verified on every demonstration, where each foreground cell is a
seed. Text: ``trail(one){2,0;0:0:=,1:-1:=,1:1:=}``. Trails paint only background cells; two
trails painting one cell two ways make the step not apply.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .catalogue import FitInput, Fitter, one_per_answer
from .family import Op
from .grid import Array, Context, bg_for

__all__ = ["FITTER", "MODES", "TRAIL_COST", "fit_trail", "parse_trail", "trail_op"]

MODES = ("one", "two", "edge")
"""One-way trails, two-way trails whose second arm is the first turned by a half turn, and trails
read in each seed's own frame: away from the one grid edge the seed lies on."""

TRAIL_COST = 3
"""The base cost of a trail: a fitted step and motif."""

_MAX_STEP = 4
"""The largest step along either axis that is tried."""

_MAX_MOTIF = 12
"""A motif with more cells than this is a picture, not a repeating unit."""

_MAX_SEEDS = 30
"""Grids with more foreground cells than this are not seeds on a blank grid."""

_SAME = -1
"""A motif cell painted in its seed's colour (written ``=``)."""

Cell = tuple[int, int]
"""An offset or a position: ``(dy, dx)`` or ``(y, x)``."""

Motif = tuple[tuple[int, int, int], ...]
"""The motif's cells: ``(dy, dx, colour)``, ``colour`` being ``_SAME`` for the seed's own."""


def _edge_turns(y: int, x: int, h: int, w: int) -> int | None:
    """Quarter turns (counter-clockwise) that bring the one edge cell ``(y, x)`` lies on to the top.

    ``None`` for a cell on no edge or on two (a corner cannot say which way is inward).
    """
    sides = [y == 0, x == w - 1, y == h - 1, x == 0]  # top, right, bottom, left: 0 to 3 turns
    if sum(sides) != 1:
        return None
    return sides.index(True)


def _turned_back(dy: int, dx: int, turns: int) -> Cell:
    """An offset of the turned frame as an offset of the grid: ``turns`` clockwise quarter turns."""
    for _ in range(turns):
        dy, dx = dx, -dy
    return dy, dx


def _turned(dy: int, dx: int, turns: int) -> Cell:
    """An offset of the grid as an offset of the frame turned ``turns`` times counter-clockwise."""
    for _ in range(turns):
        dy, dx = -dx, dy
    return dy, dx


def _paint(a: Array, bg: int, step: tuple[int, int], motif: Motif, mode: str) -> Array | None:
    """``a`` with a trail grown from every foreground cell, or ``None``."""
    h, w = a.shape
    ys, xs = np.nonzero(a != bg)
    if not 0 < ys.size <= _MAX_SEEDS:
        return None
    paint = np.full((h, w), -1, dtype=np.int16)
    arms = [(step, motif)]
    if mode == "two":
        arms.append(((-step[0], -step[1]), tuple((-dy, -dx, c) for dy, dx, c in motif)))
    reach = max(h, w) + max(abs(dy) + abs(dx) for dy, dx, _ in motif)
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        seed = int(a[y, x])
        if mode == "edge":
            # The motif and step are written with the seed's edge at the top, growing down.
            turns = _edge_turns(y, x, h, w)
            if turns is None:
                return None
            arms = [
                (
                    _turned_back(*step, turns),
                    tuple((*_turned_back(dy, dx, turns), c) for dy, dx, c in motif),
                )
            ]
        for (sy, sx), cells in arms:
            for k in range(reach):
                inside = False
                for dy, dx, c in cells:
                    ty, tx = y + k * sy + dy, x + k * sx + dx
                    if not (0 <= ty < h and 0 <= tx < w):
                        continue
                    inside = True
                    colour = seed if c == _SAME else c
                    if paint[ty, tx] not in (-1, colour):
                        return None
                    paint[ty, tx] = colour
                if not inside:
                    break
    out = np.where((paint >= 0) & (a == bg), paint, a).astype(a.dtype)
    if np.array_equal(out, a):
        return None
    return out


def _text(mode: str, step: tuple[int, int], motif: Motif) -> str:
    cells = ",".join(f"{dy}:{dx}:{'=' if c == _SAME else c}" for dy, dx, c in motif)
    return f"trail({mode}){{{step[0]},{step[1]};{cells}}}"


def trail_op(mode: str, step: tuple[int, int], motif: Motif) -> Op:
    """The step that grows ``motif`` from every seed by ``step`` (both ways with ``two``)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        return _paint(a, bg_for(a, ctx), step, motif, mode)

    return Op(_text(mode, step, motif), TRAIL_COST, prim, "same")


def parse_trail(text: str) -> Op | None:
    """The step a ``trail(...){...}`` text names, or ``None`` when it names none."""
    head, _, body = text.partition("){")
    mode = head.removeprefix("trail(")
    step_text, _, cells_text = body.removesuffix("}").partition(";")
    try:
        sy, sx = (int(v) for v in step_text.split(","))
        motif = tuple(
            (int(dy), int(dx), _SAME if c == "=" else int(c))
            for dy, dx, c in (cell.split(":") for cell in cells_text.split(","))
        )
    except ValueError:
        return None
    if mode not in MODES or (sy, sx) == (0, 0) or not 0 < len(motif) <= _MAX_MOTIF:
        return None
    if any(not (c == _SAME or 0 <= c <= 9) for _, _, c in motif):
        return None
    op = trail_op(mode, (sy, sx), motif)
    return op if op.text == text else None


def _steps() -> list[tuple[int, int]]:
    """Every step tried, shortest first (ties in a fixed order)."""
    span = range(-_MAX_STEP, _MAX_STEP + 1)
    steps = [(dy, dx) for dy in span for dx in span if (dy, dx) != (0, 0)]
    return sorted(steps, key=lambda s: (abs(s[0]) + abs(s[1]), s))


def _motif(
    pattern: dict[tuple[int, int], int],
    step: tuple[int, int],
    mode: str,
    shape: tuple[int, int],
    seed: tuple[int, int],
) -> Motif | None:
    """The motif that regenerates ``pattern`` (offsets from the seed) with ``step``, if one does."""
    sy, sx = step
    # The seed's own cell is never painted; its repetitions take the colour one step on.
    pattern = {**pattern, (0, 0): pattern.get(step, _SAME)}
    cells = set(pattern)
    if mode == "two":
        # The first arm is the half of the pattern on the step's side; the second mirrors it.
        cells = {d for d in cells if d[0] * sy + d[1] * sx >= 0}
    # The cells no earlier repetition explains.
    first = [d for d in sorted(cells) if (d[0] - sy, d[1] - sx) not in cells]
    # The seed starts the trail (a motif anchored away from it would move with the grid's size)
    # and the motif lies within one step's slab, so repetitions follow each other, not overlap.
    span = sy * sy + sx * sx
    if (0, 0) not in first or len(first) > _MAX_MOTIF:
        return None
    if any(not 0 <= dy * sy + dx * sx < span for dy, dx in first):
        return None
    motif = tuple((dy, dx, pattern[(dy, dx)]) for dy, dx in first)
    # Regenerate the pattern inside the grid and compare.
    h, w = shape
    y0, x0 = seed
    arms = [(step, motif)]
    if mode == "two":
        arms.append(((-sy, -sx), tuple((-dy, -dx, c) for dy, dx, c in motif)))
    made: dict[tuple[int, int], int] = {}
    repeats = 0
    for (ay, ax), arm in arms:
        for k in range(h + w + 2 * _MAX_STEP):
            for dy, dx, c in arm:
                ty, tx = k * ay + dy, k * ax + dx
                if 0 <= y0 + ty < h and 0 <= x0 + tx < w:
                    repeats = max(repeats, k)
                    if made.setdefault((ty, tx), c) != c:
                        return None
    # Two repetitions at least: one shift of a motif is as well a stamp (a halo) as a trail.
    return motif if made == pattern and repeats >= 2 else None


_MAX_SOURCES = 8
"""Demonstrations with more seeds than this are not read for a pattern (only checked)."""

Found = tuple[dict[Cell, int], Cell, Cell]
"""A seed's pattern (offsets to colours), the grid's shape and the seed."""


def _patterns(given: FitInput) -> list[Found]:
    """The seeds' patterns, those of demonstrations with one seed first.

    With several seeds each added cell goes to its nearest seed (a tie gives it to none), which
    reads a pattern right when trails do not interleave; the fit checks every reading anyway.
    """
    lone: list[Found] = []
    shared: list[Found] = []
    for a, b, ctx in zip(given.inputs, given.outputs, given.contexts, strict=False):
        ys, xs = np.nonzero(a != ctx.bg)
        if not 0 < ys.size <= _MAX_SOURCES or np.any((a != ctx.bg) & (a != b)):
            continue
        ty, tx = np.nonzero(b != a)
        # Manhattan distance from every added cell to every seed; the nearest seed owns the cell.
        far = np.abs(ty[:, None] - ys[None, :]) + np.abs(tx[:, None] - xs[None, :])
        nearest = np.argmin(far, axis=1) if ty.size else np.zeros(0, dtype=np.intp)
        unique = (far == far.min(axis=1, keepdims=True)).sum(axis=1) == 1 if ty.size else nearest == 0
        for i, (y, x) in enumerate(zip(ys.tolist(), xs.tolist(), strict=True)):
            seed = int(a[y, x])
            pattern = {(0, 0): _SAME}
            for cy, cx in zip(
                ty[(nearest == i) & unique].tolist(), tx[(nearest == i) & unique].tolist(), strict=True
            ):
                colour = int(b[cy, cx])
                pattern[(cy - y, cx - x)] = _SAME if colour == seed else colour
            if len(pattern) > 1:
                (lone if ys.size == 1 else shared).append((pattern, a.shape, (y, x)))
    return lone + shared


_MAX_READINGS = 8
"""Seed patterns tried in turn before the fitter gives up."""


def fit_trail(given: FitInput) -> Sequence[Op]:
    """The trails, shortest step first, that turn every demonstration input into its output."""
    if given.n == 0 or not given.keeps_size:
        return []
    for reading in _patterns(given)[:_MAX_READINGS]:
        ops: list[Op] = []
        for mode in MODES:
            framed = _framed(reading) if mode == "edge" else reading
            if framed is None:
                continue
            pattern, shape, seed = framed
            for step in _steps():
                motif = _motif(pattern, step, "one" if mode == "edge" else mode, shape, seed)
                if motif is None:
                    continue
                op = trail_op(mode, step, motif)
                if given.reproduced_by(op):
                    ops.append(op)
        if ops:
            return one_per_answer(given, ops)
    return []


def _framed(reading: Found) -> Found | None:
    """A reading turned so its seed's edge is at the top (``None``: the seed is on no one edge)."""
    pattern, (h, w), (y, x) = reading
    turns = _edge_turns(y, x, h, w)
    if turns is None:
        return None
    for _ in range(turns):
        # One counter-clockwise quarter turn (numpy's rot90): (y, x) -> (w - 1 - x, y), h x w -> w x h.
        (y, x), (h, w) = (w - 1 - x, y), (w, h)
    return {_turned(dy, dx, turns): c for (dy, dx), c in pattern.items()}, (h, w), (y, x)


FITTER = Fitter("trail(", {f"trail({mode})": TRAIL_COST for mode in MODES}, fit_trail, parse_trail)
"""The fitter of trails."""
