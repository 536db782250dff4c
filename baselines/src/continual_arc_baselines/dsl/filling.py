"""Filling regions: background regions painted by their shape, their rim, the seed inside them or their owner.

A *region* is a 4-connected component of the background; it is *enclosed* when it does not touch
the grid's edge. The families (``wide`` only) leave the foreground alone, except ``onlyholes``:

* ``shaped(kind,scope)``: every region in scope (``enclosed``, or ``all`` of them) of the kind gets
  the label 11, every other region in scope the label 12, and the fitted colour map names both.
  The kinds: ``square`` (it fills a square box exactly), ``rect`` (it fills its box), ``room`` (a
  rectangle at least two cells across both ways; a lone cell is a gap in a wall), ``even`` (both
  sides of its box even). A square hole becomes red and the rest stays background; a closed room
  of a maze becomes green, the rooms joined through gaps yellow.
* ``byrim``: every enclosed region gets the label ``20 + c`` where ``c`` is the commonest colour
  on its rim (its 4-neighbours outside it), so the map can fill each hole by its border's colour.
* ``seedfill(scope)``: the *walls* are the commonest foreground colour; a *room* is a
  4-connected component of the cells that are not wall. A room whose other foreground cells all
  have one colour (its seed) has its background cells painted in that colour; a room with no seed
  or seeds of two colours is left alone. With ``enclosed`` a room touching the edge is left too.
* ``onlyholes``: the enclosed regions get the label 11 and everything else becomes background.
* ``holeby(prop)``: every enclosed region is labelled by the object on most of its rim (8-connected,
  any colours): by the dense rank of that object's size (11 the largest, 12 the next, ...) or by
  how many holes the object has (11 one, 12 two, ...), up to 15.
* ``touch(c)``: every region one of whose cells is beside a cell of colour ``c`` is painted ``c``
  (a flood from the seed cells of that colour, bounded by every other colour).

Each returns ``None`` when it has nothing to paint, so a grid without regions costs one cheap look.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import SENTINEL, TRUE, Array, Context, bg_for
from .objects import Labels, label

__all__ = ["FAMILIES", "FILL_COST", "RIM_BASE"]

FILL_COST = 3
"""The cost of a filling step: dearer than ``fill`` and ``holesize`` (2), which it refines."""

RIM_BASE = 2 * SENTINEL
"""``byrim`` labels a region ``RIM_BASE + c`` for rim colour ``c`` (clear of the labels 10-19)."""

_MAX_REGIONS = 400
"""Grids with more regions than this are noise, not rooms; the per-region loops stay bounded."""


def _regions(a: Array, bg: int) -> tuple[Labels, int]:
    """The background regions of ``a`` and how many there are."""
    labels = label(a, a == bg, False, True)
    return labels, int(labels.max()) + 1


def _edge_ids(labels: Labels) -> npt.NDArray[np.intp]:
    """The ids of the components that touch the grid's edge."""
    border = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    return np.unique(border[border >= 0]).astype(np.intp)


def _boxes(labels: Labels, n: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Per component: its cell count and its bounding box's height and width."""
    ys, xs = np.nonzero(labels >= 0)
    ids = labels[ys, xs]
    sizes = np.bincount(ids, minlength=n)
    top = np.full(n, 99, dtype=np.intp)
    left = np.full(n, 99, dtype=np.intp)
    bottom = np.full(n, -1, dtype=np.intp)
    right = np.full(n, -1, dtype=np.intp)
    np.minimum.at(top, ids, ys)
    np.minimum.at(left, ids, xs)
    np.maximum.at(bottom, ids, ys)
    np.maximum.at(right, ids, xs)
    return sizes, bottom - top + 1, right - left + 1


def _shaped(kind: str, scope: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        labels, n = _regions(a, bg_for(a, ctx))
        if not 0 < n <= _MAX_REGIONS:
            return None
        sizes, heights, widths = _boxes(labels, n)
        if kind == "even":
            # Parity of the box's sides: a square hole of even side one way, of odd side another.
            good = (heights % 2 == 0) & (widths % 2 == 0)
        else:
            good = sizes == heights * widths
            if kind == "square":
                good &= heights == widths
            elif kind == "room":
                # A room is at least two cells across both ways: a lone cell is a gap in a wall.
                good &= (heights > 1) & (widths > 1)
        inscope = np.ones(n, dtype=bool)
        if scope == "enclosed":
            inscope[_edge_ids(labels)] = False
        # A grid with no region in scope has nothing to label (one with no region of the kind
        # still has: its regions all become 12, as a demonstration without such holes needs).
        if not inscope.any():
            return None
        tags = np.where(good, TRUE, TRUE + 1).astype(np.uint8)
        inside = labels >= 0
        paint = inside & inscope[np.where(inside, labels, 0)]
        return np.where(paint, tags[np.where(inside, labels, 0)], a).astype(np.uint8)

    return prim


def _rim_colours(a: Array, labels: Labels, n: int) -> npt.NDArray[np.intp]:
    """Per region, the commonest colour of the cells beside it (the lower one on a tie; -1: none)."""
    h, w = a.shape
    counts = np.zeros((n, 256), dtype=np.intp)
    for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        # Cell (y, x) of a region and its neighbour (y + dy, x + dx), where both are in the grid.
        src = labels[max(0, -dy) : h - max(0, dy), max(0, -dx) : w - max(0, dx)]
        nbr = a[max(0, dy) : h + min(0, dy), max(0, dx) : w + min(0, dx)]
        other = labels[max(0, dy) : h + min(0, dy), max(0, dx) : w + min(0, dx)]
        take = (src >= 0) & (other != src)
        np.add.at(counts, (src[take], nbr[take].astype(np.intp)), 1)
    rim = np.argmax(counts, axis=1).astype(np.intp)
    return np.where(counts.max(axis=1) > 0, rim, -1)


def _byrim() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        labels, n = _regions(a, bg_for(a, ctx))
        if not 0 < n <= _MAX_REGIONS:
            return None
        rim = _rim_colours(a, labels, n)
        rim[_edge_ids(labels)] = -1
        if not (rim >= 0).any():
            return None
        tags = np.where(rim >= 0, RIM_BASE + rim, -1)
        inside = labels >= 0
        per_cell = np.where(inside, tags[np.where(inside, labels, 0)], -1)
        return np.where(per_cell >= 0, per_cell, a).astype(np.uint8)

    return prim


def _seedfill(scope: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        bg = bg_for(a, ctx)
        counts = np.bincount(a.ravel(), minlength=SENTINEL)
        counts[bg] = 0
        if np.count_nonzero(counts) < 2:
            return None
        wall = int(np.argmax(counts))
        rooms = label(a, a != wall, False, False)
        n = int(rooms.max()) + 1
        if not 0 < n <= _MAX_REGIONS:
            return None
        seeds = (a != wall) & (a != bg)
        # Per room, which seed colours it holds: a room with exactly one is filled with it.
        held = np.zeros((n, SENTINEL), dtype=bool)
        held[rooms[seeds], a[seeds]] = True
        single = held.sum(axis=1) == 1
        if scope == "enclosed":
            single[_edge_ids(rooms)] = False
        if not single.any():
            return None
        colour = np.argmax(held, axis=1).astype(np.uint8)
        inroom = rooms >= 0
        ids = np.where(inroom, rooms, 0)
        paint = inroom & (a == bg) & single[ids]
        if not paint.any():
            return None
        return np.where(paint, colour[ids], a).astype(np.uint8)

    return prim


def _onlyholes() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        labels, n = _regions(a, bg)
        if n == 0:
            return None
        edge = np.zeros(n, dtype=bool)
        edge[_edge_ids(labels)] = True
        inside = labels >= 0
        holes = inside & ~edge[np.where(inside, labels, 0)]
        if not holes.any():
            return None
        return np.where(holes, np.uint8(TRUE), np.uint8(bg)).astype(np.uint8)

    return prim


def _owners(a: Array, bg: int, labels: Labels, n: int) -> tuple[Labels, npt.NDArray[np.intp]]:
    """The foreground objects (8-connected, any colours) and, per region, the one on most of its rim."""
    objs = label(a, a != bg, True, False)
    m = int(objs.max()) + 1
    h, w = a.shape
    counts = np.zeros((n, max(m, 1)), dtype=np.intp)
    for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        src = labels[max(0, -dy) : h - max(0, dy), max(0, -dx) : w - max(0, dx)]
        nbr = objs[max(0, dy) : h + min(0, dy), max(0, dx) : w + min(0, dx)]
        take = (src >= 0) & (nbr >= 0)
        np.add.at(counts, (src[take], nbr[take]), 1)
    owner = np.argmax(counts, axis=1).astype(np.intp)
    return objs, np.where(counts.max(axis=1) > 0, owner, -1)


def _holeby(prop: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        bg = bg_for(a, ctx)
        labels, n = _regions(a, bg)
        if not 0 < n <= _MAX_REGIONS:
            return None
        enclosed = np.ones(n, dtype=bool)
        enclosed[_edge_ids(labels)] = False
        if not enclosed.any():
            return None
        objs, owner = _owners(a, bg, labels, n)
        m = int(objs.max()) + 1
        owner = np.where(enclosed, owner, -1)
        if prop == "size":
            sizes = np.bincount(objs[objs >= 0], minlength=m)
            # Dense rank of the owner's size, largest first: equal sizes share a label.
            distinct = np.unique(sizes)[::-1]
            value = np.searchsorted(-distinct, -sizes)
        else:
            # How many enclosed regions each object owns.
            value = np.bincount(owner[owner >= 0], minlength=m)
            value = np.maximum(value - 1, 0)
        tags = np.where(owner >= 0, TRUE + np.minimum(value[np.maximum(owner, 0)], 4), -1)
        inside = labels >= 0
        per_cell = np.where(inside, tags[np.where(inside, labels, 0)], -1)
        if not (per_cell >= 0).any():
            return None
        return np.where(per_cell >= 0, per_cell, a).astype(np.uint8)

    return prim


def _touch(colour_text: str) -> Prim:
    colour = int(colour_text)

    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        if colour == bg or not (a == colour).any():
            return None
        seed = np.pad(a == colour, 1)
        near = seed[:-2, 1:-1] | seed[2:, 1:-1] | seed[1:-1, :-2] | seed[1:-1, 2:]
        labels, n = _regions(a, bg)
        if n == 0:
            return None
        hit = np.zeros(n, dtype=bool)
        hit[labels[near & (labels >= 0)]] = True
        if not hit.any():
            return None
        inside = labels >= 0
        paint = inside & hit[np.where(inside, labels, 0)]
        return np.where(paint, np.uint8(colour), a).astype(np.uint8)

    return prim


FAMILIES: tuple[Family, ...] = (
    Family(
        "shaped",
        (("square", "rect", "room", "even"), ("enclosed", "all")),
        FILL_COST,
        _shaped,
        "label background regions 11 if square (or rectangular), the rest in scope 12",
        "same",
    ),
    Family(
        "byrim", (), FILL_COST, _byrim, "label each enclosed background region by its rim's colour", "same"
    ),
    Family(
        "seedfill",
        (("enclosed", "all"),),
        FILL_COST,
        _seedfill,
        "paint each room between walls in the one seed colour it holds",
        "same",
    ),
    Family("onlyholes", (), FILL_COST, _onlyholes, "label enclosed background 11, clear the rest", "same"),
    Family(
        "holeby",
        (("size", "holes"),),
        FILL_COST,
        _holeby,
        "label each hole by its object's size rank or hole count (11 up)",
        "same",
    ),
    Family(
        "touch",
        (tuple(str(c) for c in range(1, SENTINEL)),),
        FILL_COST,
        _touch,
        "paint every background region beside a cell of one colour in that colour",
        "same",
    ),
)
"""The filling families, in the order the search tries them."""
