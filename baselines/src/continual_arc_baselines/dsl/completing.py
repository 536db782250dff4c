"""Completing: each fragment of a template, wherever it lies, grows back into the whole template.

The step is ``complete(how,conn)``, ``how`` one of ``fixed``, ``turn`` and ``grow``. For the first
two the *template* is the largest object of the most colours in the grid (two or more, and no
other of them as large; its cells under 4- or 8-connectivity, whatever their colours). Every
other, smaller object is a *fragment* when it fits inside the template (``turn``: inside one of
its turns and reflections) colour for colour, with the rest of that footprint background, off the
grid or already agreeing. A fragment that fits in exactly one way is painted into the whole
template there; a fragment that fits in two ways that paint differently is ambiguous and the step
does not apply to the grid at all (it cannot say which copy the grid means).

``grow`` finds copies that are scaled up and recoloured: every object of the most colours (a few
at most) is a template, scaled by 1 to 5; a fragment with two or more colours fits one when its
cells cover whole blocks of the scaled template under a one-to-one map of colours that keeps at
least one colour (the stud that says which template it is), and the copy is painted in the
fragment's colours. A template that itself fits inside the fragment as that stands (recoloured)
does not say which of the two is the template, and is not grown onto it.

This differs from `stamping`'s ``place(copy|turn)``, which finds copies by one fixed *mark* (a
colour class of the template): here the fragment as it stands is the mark, whatever colours it
happens to keep, so a copy reduced to its body and one coloured stud is still placed, turned the
way the stud says.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import Objects, objects

__all__ = ["COMPLETE_COST", "FAMILIES", "HOWS"]

COMPLETE_COST = 2.5
"""The cost of one completing step: as dear as the other round-one placing steps."""

_MAX_OBJECTS = 48
"""Grids with more objects are not completed: the fragments of one template are few."""
_MAX_CELLS = 49
"""A larger multicolour object is a picture, not a template."""

_MAX_TEMPLATES = 4
"""``grow`` tries every object of the most colours as a template: a few at most."""
_MAX_SCALE = 5
"""The largest scale a ``grow`` copy may take."""

HOWS = ("fixed", "turn", "grow")
"""How a fragment may sit in its template (see the module's docstring)."""

Pattern = npt.NDArray[np.int16]
"""A template's box: its own cells hold their colours, every other cell -1."""


def _variants(pattern: Pattern, turn: bool) -> list[Pattern]:
    """The pattern and, for ``turn``, its distinct turns and reflections."""
    found: list[Pattern] = []
    for flipped in (pattern, pattern[:, ::-1]) if turn else (pattern,):
        for k in range(4 if turn else 1):
            made = np.ascontiguousarray(np.rot90(flipped, k))
            if not any(m.shape == made.shape and np.array_equal(m, made) for m in found):
                found.append(made)
    return found


def _template(grid: Array, objs: Objects) -> int | None:
    """The largest object of the most colours, when that is two or more, it is alone and small."""
    if len(objs) < 2 or len(objs) > _MAX_OBJECTS:
        return None
    most = int(objs.ncolours.max())
    if most < 2:
        return None
    # A fragment may keep every colour of the template: of those, the template is the largest.
    found = np.flatnonzero(objs.ncolours == most)
    sizes = objs.sizes[found]
    top = np.flatnonzero(sizes == sizes.max())
    if len(top) != 1 or int(sizes[top[0]]) > _MAX_CELLS:
        return None
    return int(found[top[0]])


def _fits(
    grid: Array,
    bg: int,
    pattern: Pattern,
    ys: npt.NDArray[np.intp],
    xs: npt.NDArray[np.intp],
    recolour: bool,
    scale: int = 1,
) -> list[tuple[int, int, Pattern]]:
    """Each top-left corner where ``pattern`` holds the cells ``ys, xs``, with the pattern it paints.

    Colour for colour, or with ``recolour`` under a one-to-one map of the pattern's colours onto
    the fragment's that keeps at least one colour (the stud that says it is this template); a
    colour the fragment lacks keeps its own. The rest of the footprint within the grid must be
    background or already what the (mapped) pattern paints. A pattern grown by ``scale`` holds
    the fragment only in whole blocks: a fragment is a scaled copy's part, not a shifted one.
    """
    h, w = grid.shape
    bh, bw = pattern.shape
    colours = grid[ys, xs].astype(np.int16)
    found: list[tuple[int, int, Pattern]] = []
    # The fragment's first cell lands on a template cell (of its colour, unless recoloured).
    py, px = np.nonzero(pattern >= 0) if recolour else np.nonzero(pattern == colours[0])
    for ay, ax in zip(py.tolist(), px.tolist(), strict=True):
        top, left = int(ys[0]) - ay, int(xs[0]) - ax
        ry, rx = ys - top, xs - left
        if ry.min() < 0 or rx.min() < 0 or ry.max() >= bh or rx.max() >= bw:
            continue
        under = pattern[ry, rx]
        if np.any(under < 0):
            continue
        if scale > 1:
            mask = np.zeros((bh, bw), dtype=np.int32)
            mask[ry, rx] = 1
            blocks = mask.reshape(bh // scale, scale, bw // scale, scale).sum(axis=(1, 3))
            if np.any((blocks > 0) & (blocks < scale * scale)):
                continue
        painted = pattern
        if recolour:
            pairs = np.unique(np.stack([under, colours]), axis=1)
            # A function (each template colour one fragment colour), one to one, keeping a colour.
            if len(np.unique(pairs[0])) != pairs.shape[1] or len(np.unique(pairs[1])) != pairs.shape[1]:
                continue
            if not np.any(pairs[0] == pairs[1]):
                continue
            lut = np.arange(256, dtype=np.int16)  # any uint8 value: some steps write colours past 9
            lut[pairs[0]] = pairs[1]
            painted = np.where(pattern >= 0, lut[np.maximum(pattern, 0)], np.int16(-1)).astype(np.int16)
        elif not np.all(under == colours):
            continue
        y0, x0 = max(top, 0), max(left, 0)
        y1, x1 = min(top + bh, h), min(left + bw, w)
        part = painted[y0 - top : y1 - top, x0 - left : x1 - left]
        at = grid[y0:y1, x0:x1]
        if np.all((part < 0) | (at == part) | (at == bg)):
            found.append((top, left, painted))
    return found


def _pattern(grid: Array, objs: Objects, i: int) -> Pattern:
    """Object ``i``'s box, its own cells holding their colours and every other cell -1."""
    box = objs.box(i)
    return np.where(objs.labels[box] == i, grid[box].astype(np.int16), np.int16(-1))


def _grown(grid: Array, objs: Objects) -> tuple[list[int], list[tuple[int, int, Pattern]]] | None:
    """For ``grow``: every object of the most colours (few, small), each scaled while it fits.

    Each pattern comes with the object it was cut from: a grown copy is as multicoloured as its
    template, so every such object is both a template and, for the others, a fragment.
    """
    if len(objs) < 2 or len(objs) > _MAX_OBJECTS:
        return None
    most = int(objs.ncolours.max())
    found = np.flatnonzero(objs.ncolours == most).tolist()
    if most < 2 or len(found) > _MAX_TEMPLATES or int(objs.sizes[found].max()) > _MAX_CELLS:
        return None
    h, w = grid.shape
    patterns: list[tuple[int, int, Pattern]] = []
    for i in found:
        base = _pattern(grid, objs, i)
        for scale in range(1, _MAX_SCALE + 1):
            if base.shape[0] * scale > h or base.shape[1] * scale > w:
                break
            patterns.append((i, scale, np.kron(base, np.ones((scale, scale), dtype=np.int16))))
    return found, patterns


def _inside(grid: Array, bg: int, objs: Objects, i: int, j: int) -> bool:
    """Whether object ``i`` fits inside object ``j`` as it stands, recoloured (see `_fits`)."""
    if int(objs.sizes[i]) >= int(objs.sizes[j]):
        return False
    ys, xs = np.nonzero(objs.labels == i)
    return bool(_fits(grid, bg, _pattern(grid, objs, j), ys, xs, True))


def _complete(how: str, conn: str) -> Prim:
    mode = "m" + conn
    grow = how == "grow"

    def prim(grid: Array, ctx: Context) -> Array | None:
        bg = bg_for(grid, ctx)
        objs = objects(grid, bg, mode)
        if grow:
            made = _grown(grid, objs)
            if made is None:
                return None
            templates: list[int] = []
            patterns = made[1]
        else:
            t = _template(grid, objs)
            if t is None:
                return None
            templates = [t]
            patterns = [(t, 1, p) for p in _variants(_pattern(grid, objs, t), how == "turn")]
        h, w = grid.shape
        paint = np.full((h, w), -1, dtype=np.int16)
        placed = 0
        for j in range(len(objs)):
            if j in templates or (grow and int(objs.ncolours[j]) < 2):
                continue  # a one-colour fragment cannot say which of its colours is which
            ys, xs = np.nonzero(objs.labels == j)
            ways: list[npt.NDArray[np.int16]] = []
            for source, scale, pattern in patterns:
                if source == j or np.count_nonzero(pattern >= 0) <= len(ys):
                    continue  # not a fragment of this pattern: as large already
                if grow and _inside(grid, bg, objs, source, j):
                    continue  # each fits the other: which is the template is not said
                for top, left, painted in _fits(grid, bg, pattern, ys, xs, grow, scale):
                    one = np.full((h, w), -1, dtype=np.int16)
                    bh, bw = painted.shape
                    y0, x0 = max(top, 0), max(left, 0)
                    y1, x1 = min(top + bh, h), min(left + bw, w)
                    one[y0:y1, x0:x1] = painted[y0 - top : y1 - top, x0 - left : x1 - left]
                    if not any(np.array_equal(one, seen) for seen in ways):
                        ways.append(one)
            if len(ways) > 1:
                return None  # the fragment fits two copies: the grid does not say which
            if not ways:
                continue
            one = ways[0]
            if np.any((one >= 0) & (paint >= 0) & (one != paint)):
                return None  # two copies paint one cell two ways
            paint = np.where(one >= 0, one, paint)
            placed += 1
        if placed == 0:
            return None
        out = np.where(paint >= 0, paint, grid).astype(np.uint8)
        return None if np.array_equal(out, grid) else out

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "complete",
        (HOWS, ("4", "8")),
        COMPLETE_COST,
        lambda how, conn: _complete(how, conn),
        "grow every fragment of the template object back into a whole copy of it",
        "same",
    ),
)
"""The completing families, in search order."""
