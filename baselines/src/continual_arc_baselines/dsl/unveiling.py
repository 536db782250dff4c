"""Unveiling: a repeating pattern under several solid patches of different colours, read back.

`repairing`'s ``repair(lat)`` completes a pattern whose mask is one colour, the same in every
demonstration, so a fitted hole colour names it. Some tasks lay several solid patches over a
tiled pattern, each in its own colour, and the colours change from pair to pair: the answer is
what the largest patch hides, or the pattern with every patch lifted.

A *patch* is a one-colour 4-connected piece that fills its bounding box exactly, at least 2 x 2.
The patches are masked largest first, one more at a time, until the masked grid completes
through the smallest lattice that fits (`repairing.lattices`, or the upright row and column
periods for a tile larger than `repairing.MAX_SMALL`): a patch left unmasked breaks every
lattice, so the first fit masks all of them, and a pattern's own small solid blocks stay known
as long as the real patches outsize them.

* ``unveil(crop)``: the completed cells under the largest patch (its bounding box); the
  largest must be alone (on a tie which patch is meant is a guess).
* ``unveil(fill)``: the completed grid.

Both act on the program's input only (a first step), and give nothing when no lattice fits or the
answer is a single colour.
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import SENTINEL, Array, Context, key_of
from .objects import objects
from .repairing import MAX_SMALL, _fill, lattices
from .tiling import period

__all__ = ["FAMILIES", "FORMS", "MAX_PATCHES", "UNVEIL_COST", "patches", "unveil"]

FORMS = ("crop", "fill")
"""What the step answers: the cells under the largest patch, or the whole completed grid."""

MAX_PATCHES = 6
"""The most patches masked: more solid pieces than this are the pattern's own blocks."""

UNVEIL_COST = 2.0
"""The cost of an unveiling step: as ``symcrop``, another completion of a masked pattern."""

_HOLE = 15
"""The value masked cells take: no colour, so no known cell matches it."""

Box = tuple[int, int, int, int]
"""A rectangle as (top, left, bottom, right), bottom and right exclusive."""


def patches(a: Array) -> list[Box]:
    """The solid one-colour rectangles of ``a`` (at least 2 x 2), largest first, ties in reading order."""
    # With a background no cell holds, every one-colour 4-connected piece is an object.
    objs = objects(a, _HOLE, "4")
    tall, wide = objs.bottoms - objs.tops, objs.rights - objs.lefts
    solid = (tall >= 2) & (wide >= 2) & (objs.sizes == tall * wide)
    found = [
        (
            -int(tall[i] * wide[i]),
            (int(objs.tops[i]), int(objs.lefts[i]), int(objs.bottoms[i]), int(objs.rights[i])),
        )
        for i in np.flatnonzero(solid).tolist()
    ]
    found.sort()
    return [box for _, box in found]


def _complete(m: Array) -> Array | None:
    """``m`` with its `_HOLE` cells filled through the smallest lattice that fits, if any."""
    h, w = m.shape
    known = m != _HOLE
    # Every lattice holds a row and a column translation, so a grid with no row or column
    # period has none: two cheap checks spare most grids the lattices' enumeration.
    py, px = period(m, known), period(m.T, known.T)
    if py == h or px == w:
        return None
    limit = min(MAX_SMALL, py * px - 1, int(np.count_nonzero(known)) // 2)
    for p, q, s in lattices(h, w, limit):
        done = _fill(m, _HOLE, p, q, s)
        if done is not None:
            return done
    # Periods of 1 both ways would fill every hole with the one colour left: a colour map, not a
    # repair (`repairing.lattices` leaves that lattice out for the same reason).
    return _fill(m, _HOLE, px, py, 0) if px * py > 1 else None


_CACHE: dict[bytes, tuple[Array, list[Box]] | None] = {}
_CACHE_LIMIT = 256


def _reveal(a: Array) -> tuple[Array, list[Box]] | None:
    """``a`` completed with its patches masked, largest first, until a lattice fits; and the patches."""
    key = key_of(a)
    if key not in _CACHE:
        # One fit a grid, shared by the crop and the fill.
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = None
        boxes = patches(a)[:MAX_PATCHES]
        masked = a.copy()
        for n, (top, left, bottom, right) in enumerate(boxes):
            masked[top:bottom, left:right] = _HOLE
            done = _complete(masked)
            if done is not None:
                # Read-only: the cached grid is shared by every later call on the same input.
                done.setflags(write=False)
                _CACHE[key] = (done, boxes[: n + 1])
                break
    return _CACHE[key]


def unveil(a: Array, form: str) -> Array | None:
    """The pattern under ``a``'s patches: under the largest (``crop``) or everywhere (``fill``)."""
    if min(a.shape) < 3 or int(a.max()) >= SENTINEL:
        return None
    found = _reveal(a)
    if found is None:
        return None
    done, boxes = found
    if form == "fill":
        out = done.copy()
    else:
        area = [(b[2] - b[0]) * (b[3] - b[1]) for b in boxes]
        if len(area) > 1 and area[0] == area[1]:
            return None
        top, left, bottom, right = boxes[0]
        out = done[top:bottom, left:right].copy()
    # One colour hides nothing a person would read as a pattern.
    return out if np.unique(out).size > 1 else None


def _unveil(form: str) -> Prim:
    """The step ``unveil(form)``: only on the program's input (a masked pattern is what a task shows)."""

    def prim(a: Array, ctx: Context) -> Array | None:
        if a.shape != ctx.original.shape or not np.array_equal(a, ctx.original):
            return None
        return unveil(a, form)

    return prim


FAMILIES = (
    Family(
        "unveil",
        (("crop",),),
        UNVEIL_COST,
        _unveil,
        "the tiled pattern under the largest of several solid patches of any colours",
        "shrink",
    ),
    Family(
        "unveil",
        (("fill",),),
        UNVEIL_COST,
        _unveil,
        "a tiled pattern with its solid patches of any colours lifted",
        "same",
    ),
)
"""The unveiling steps (in ``wide``, the default): one family a form, so each has its shape."""
