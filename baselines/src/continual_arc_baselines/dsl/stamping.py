"""Stamping: a template object copied wherever the grid marks a place for it.

The step is ``place(how,conn,keep)``. A *template* is an object of the most colours in the grid,
two or more (its cells under 4- or 8-connectivity, whatever their colours), small beside the grid.
Four ways to find where its copies go:

* ``copy`` (complete the partial copies): wherever a *mark* of the template (all the cells of one
  of its colours, or all the cells but those of its main colour) appears elsewhere in the same
  arrangement, the rest of the template's footprint there is background or already agrees with it,
  and the objects the mark lies on are wholly parts of the template, the template is painted there.
  A lone cell of a colour the template holds once is the simplest mark. A lone template is also
  copied scaled by 2 or 3 where its mark recurs at that scale.
* ``turn``: the same, the template also turned and reflected; a mark of one cell cannot say which
  turn, and a place two variants fit is left alone.
* ``shape`` (fill the silhouettes): every one-colour object with exactly the template's shape takes
  the template's colours.
* ``centre``: the one largest object is copied centred on every single cell of a colour it does not
  hold (its box must have odd sides); the marks are erased first.

``keep`` leaves the template where it is; ``move`` erases it, so only the copies remain. Copies
are clipped at the grid's edge; two copies painting one cell two ways make the step not apply, and
so does a grid where nothing is placed (the step would change nothing).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import Array, Context, Mask, bg_for, key_of
from .objects import Objects, objects

__all__ = ["FAMILIES", "HOWS", "STAMP_COST"]

HOWS = ("copy", "turn", "shape", "centre")
"""Where the copies go (see the module's docstring)."""

STAMP_COST = 4
"""The cost of one stamping step: dearer than the object steps, so it is tried after them."""

_MAX_OBJECTS = 64
"""Grids with more objects are not stamped: a stamp is about a few things, and the checks grow
with the count."""

_MAX_TEMPLATES = 4
_MAX_CELLS = 36
"""Templates are few and small: a larger multicolour object is a picture, not a stamp, and the
matching work grows with templates times cells."""
_MAX_PLACES = 32
"""A mark found at more places than this marks nothing in particular."""
_SCALES = (1, 2, 3)
"""The scales a copy of a lone template may take."""
_MAX_SCALED = 16
"""Only small templates are tried scaled up: the work grows with the square of the scale."""
_SIDE = 64
"""A stride to number grid cells by, larger than any side."""
_OFF = 255
"""The value of a cell beyond the grid's edge in a padded grid."""

Pattern = npt.NDArray[np.int16]
"""A template's box: its own cells hold their colours, every other cell -1."""

Placement = tuple[Pattern, int, int]
"""A pattern and the grid row and column its top-left corner lands on."""

_CACHE: dict[tuple[bytes, int, str, str], list[Placement]] = {}
_CACHE_LIMIT = 256
"""Places found, by grid, background, cut and kind: ``keep`` and ``move`` ask for the same."""


def _template(arr: Array, objs: Objects, i: int) -> Pattern:
    """Object ``i``'s box, its own cells holding their colours and every other cell -1."""
    box = objs.box(i)
    return np.where(objs.labels[box] == i, arr[box].astype(np.int16), np.int16(-1))


def _templates(objs: Objects) -> npt.NDArray[np.intp] | None:
    """The objects with the most colours, when that is two or more and they are few."""
    if len(objs) == 0 or len(objs) > _MAX_OBJECTS:
        return None
    most = int(objs.ncolours.max())
    if most < 2:
        return None
    found = np.flatnonzero(objs.ncolours == most)
    if len(found) > _MAX_TEMPLATES or objs.sizes[found].max() > _MAX_CELLS:
        return None
    area = objs.labels.size
    boxes = (objs.bottoms[found] - objs.tops[found]) * (objs.rights[found] - objs.lefts[found])
    return found if 4 * int(boxes.max()) <= area else None  # room for a copy beside it


def _variants(pattern: Pattern, how: str, limit: int) -> list[Pattern]:
    """The pattern scaled up to sides of ``limit`` and, for ``turn``, each turned and reflected (distinct)."""
    found: list[Pattern] = []
    for scale in _SCALES:
        if scale > 1 and max(pattern.shape) * scale > limit:
            break
        if scale > 1 and np.count_nonzero(pattern >= 0) > _MAX_SCALED:
            break
        grown = np.kron(pattern, np.ones((scale, scale), dtype=np.int16)) if scale > 1 else pattern
        for flipped in (grown, grown[:, ::-1]) if how == "turn" else (grown,):
            for k in range(4 if how == "turn" else 1):
                made = np.ascontiguousarray(np.rot90(flipped, k))
                if not any(m.shape == made.shape and np.array_equal(m, made) for m in found):
                    found.append(made)
    return found


def _marks(pattern: Pattern) -> list[Mask]:
    """The parts of a pattern that mark where a copy goes.

    Each colour class, then every cell not of its most frequent colour (a body with several
    coloured studs is marked by the studs alone).
    """
    values = pattern[pattern >= 0]
    colours, counts = np.unique(values, return_counts=True)
    marks = [pattern == c for c in colours.tolist()]
    if len(colours) > 2:
        main = int(colours[np.argmax(counts)])
        marks.append((pattern >= 0) & (pattern != main))
    return marks


def _copies(arr: Array, bg: int, objs: Objects, templates: npt.NDArray[np.intp], how: str) -> list[Placement]:
    """Where a template's mark recurs (turned, for ``turn``), the rest of its footprint free or agreeing."""
    h, w = arr.shape
    taken = np.isin(objs.labels, templates)
    # Padded once by the grid's longer side: every variant's box fits within it (`_variants`).
    side = max(h, w)
    big = np.pad(arr, side, constant_values=_OFF)
    big_taken = np.pad(taken, side)
    claimed: dict[tuple[int, ...], Placement | None] = {}
    for i in templates.tolist():
        # Scaled copies only of a lone template: the variants to match grow with both.
        limit = side if len(templates) == 1 else 0
        for pattern in _variants(_template(arr, objs, i), how, limit):
            bh, bw = pattern.shape
            # Views padded by the box on every side, so a copy may hang over the edge (its off-grid
            # part is dropped) while the mark that places it lies inside.
            pad = big[side - bh : side + h + bh, side - bw : side + w + bw]
            pad_taken = big_taken[side - bh : side + h + bh, side - bw : side + w + bw]
            n_y, n_x = h + bh + 1, w + bw + 1
            for mark in _marks(pattern):
                my, mx = np.nonzero(mark)
                if how == "turn" and len(my) < 2:
                    continue  # a lone cell fits every turn of its template: it cannot say which
                # The places where the mark's first cell matches, then those where all of it does;
                # a mark inside a template is that template, not a place for a copy.
                y0, x0 = int(my[0]), int(mx[0])
                first = pad[y0 : y0 + n_y, x0 : x0 + n_x] == pattern[y0, x0]
                tops, lefts = np.nonzero(first & ~pad_taken[y0 : y0 + n_y, x0 : x0 + n_x])
                cy, cx = tops[:, None] + my[None, :], lefts[:, None] + mx[None, :]
                ok = np.all((pad[cy, cx] == pattern[my, mx]) & ~pad_taken[cy, cx], axis=1)
                tops, lefts = tops[ok], lefts[ok]
                if len(tops) > _MAX_PLACES:
                    continue  # marked everywhere: not a mark
                for top, left in zip(tops.tolist(), lefts.tolist(), strict=True):
                    # The rest of the footprint must be background, off the grid, or agree already.
                    at = pad[top : top + bh, left : left + bw]
                    if not np.all((pattern < 0) | (at == pattern) | (at == bg) | (at == _OFF)):
                        continue
                    # And the copy must hold all of every object the mark touches, as it is: a
                    # partial copy is part of the template, not a piece of something else.
                    if not _holds(objs, pattern, my + top - bh, mx + left - bw, top - bh, left - bw, arr):
                        continue
                    # One place, one copy: a set of marked cells two variants fit is ambiguous.
                    key = tuple(sorted(((my + top - bh) * _SIDE + mx + left - bw).tolist()))
                    placed = (pattern, top - bh, left - bw)
                    if key not in claimed:
                        claimed[key] = placed
                    elif not _same(claimed[key], placed):
                        claimed[key] = None
    return [p for p in claimed.values() if p is not None]


def _holds(
    objs: Objects,
    pattern: Pattern,
    ys: npt.NDArray[np.intp],
    xs: npt.NDArray[np.intp],
    top: int,
    left: int,
    arr: Array,
) -> bool:
    """Whether ``pattern`` at ``(top, left)`` covers, colour for colour, every object under ``ys, xs``."""
    touched = np.unique(objs.labels[ys, xs])
    cy, cx = np.nonzero(np.isin(objs.labels, touched))
    py, px = cy - top, cx - left
    bh, bw = pattern.shape
    if py.min() < 0 or px.min() < 0 or py.max() >= bh or px.max() >= bw:
        return False
    return bool(np.all(pattern[py, px] == arr[cy, cx]))


def _same(a: Placement | None, b: Placement) -> bool:
    """Whether two placements paint the same cells the same way."""
    return a is not None and a[1:] == b[1:] and a[0].shape == b[0].shape and np.array_equal(a[0], b[0])


def _silhouettes(arr: Array, objs: Objects, templates: npt.NDArray[np.intp]) -> list[Placement]:
    """The one-colour objects whose cells are exactly some template's, at their own place."""
    found: list[Placement] = []
    shapes: dict[bytes, int] = {}
    for i in templates.tolist():
        box = objs.box(i)
        shapes.setdefault((objs.labels[box] == i).tobytes() + bytes(_size(objs, i)), i)
    for j in np.flatnonzero(objs.ncolours == 1).tolist():
        box = objs.box(j)
        i = shapes.get((objs.labels[box] == j).tobytes() + bytes(_size(objs, j)))
        if i is not None:
            found.append((_template(arr, objs, i), int(objs.tops[j]), int(objs.lefts[j])))
    return found


def _size(objs: Objects, i: int) -> tuple[int, int]:
    return int(objs.bottoms[i] - objs.tops[i]), int(objs.rights[i] - objs.lefts[i])


def _paint(arr: Array, objs: Objects, placements: list[Placement]) -> npt.NDArray[np.int16] | None:
    """What the placements paint (-1: nothing), clipped at the edge; ``None`` if two disagree."""
    h, w = arr.shape
    paint = np.full((h, w), -1, dtype=np.int16)
    for pattern, top, left in placements:
        bh, bw = pattern.shape
        y0, x0 = max(top, 0), max(left, 0)
        y1, x1 = min(top + bh, h), min(left + bw, w)
        if y0 >= y1 or x0 >= x1:
            continue
        part = pattern[y0 - top : y1 - top, x0 - left : x1 - left]
        at = paint[y0:y1, x0:x1]
        if np.any((part >= 0) & (at >= 0) & (part != at)):
            return None
        paint[y0:y1, x0:x1] = np.where(part >= 0, part, at)
    return paint


def _stamp(how: str, conn: str, keep: bool) -> Prim:
    mode = "m" + conn

    def prim(grid: Array, ctx: Context) -> Array | None:
        bg = bg_for(grid, ctx)
        objs = objects(grid, bg, mode)
        if how == "centre":
            return _centre(grid, bg, objs, keep)
        templates = _templates(objs)
        if templates is None:
            return None
        if how == "shape":
            placements = _silhouettes(grid, objs, templates)
        else:
            # ``keep`` and ``move`` find the same places: the second asks the cache.
            key = (key_of(grid), bg, mode, how)
            found = _CACHE.get(key)
            if found is None:
                if len(_CACHE) >= _CACHE_LIMIT:
                    _CACHE.clear()
                found = _CACHE[key] = _copies(grid, bg, objs, templates, how)
            placements = found
        if not placements:
            return None
        erase = np.isin(objs.labels, templates) if not keep else np.zeros(grid.shape, dtype=bool)
        return _render(grid, bg, objs, placements, erase)

    return prim


def _render(grid: Array, bg: int, objs: Objects, placements: list[Placement], erase: Mask) -> Array | None:
    paint = _paint(grid, objs, placements)
    if paint is None:
        return None
    out = np.where(erase, bg, grid)
    out = np.where(paint >= 0, paint, out).astype(np.uint8)
    return None if np.array_equal(out, grid) else out


def _centre(grid: Array, bg: int, objs: Objects, keep: bool) -> Array | None:
    if len(objs) < 2 or len(objs) > _MAX_OBJECTS:
        return None
    big = np.flatnonzero(objs.sizes == objs.sizes.max())
    if len(big) != 1 or objs.sizes[big[0]] < 2:
        return None
    i = int(big[0])
    bh, bw = _size(objs, i)
    if bh % 2 == 0 or bw % 2 == 0:
        return None
    held = np.unique(grid[objs.labels == i])
    marks = np.flatnonzero((objs.sizes == 1) & ~np.isin(objs.colours, held))
    if len(marks) == 0:
        return None
    pattern = _template(grid, objs, i)
    placements = [
        (pattern, int(objs.tops[j]) - bh // 2, int(objs.lefts[j]) - bw // 2) for j in marks.tolist()
    ]
    erase = np.isin(objs.labels, marks)
    if not keep:
        erase |= objs.labels == i
    return _render(grid, bg, objs, placements, erase)


FAMILIES: tuple[Family, ...] = (
    Family(
        "place",
        (HOWS, ("4", "8"), ("keep", "move")),
        STAMP_COST,
        lambda how, conn, keep: _stamp(how, conn, keep == "keep"),
        "copy a template object wherever the grid marks a place for it",
        "same",
    ),
)
"""The stamping families, in search order."""
