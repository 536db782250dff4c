"""Lists of objects: keep or erase the objects with a property, label them, rank them by size.

Each primitive cuts the grid into objects (`MODES`), decides per object, and
paints the result back in place, so the grid keeps its shape.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import SENTINEL, TRUE, Array, Context, bg_for
from .objects import FILTERS, MODES, Objects, filter_objects, label, objects, shape_keys

__all__ = ["FAMILIES"]

_MAX_LABEL = 255


def _keep(mode: str, prop: str, erase: bool) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, mode)
        chosen = filter_objects(a, objs, prop)
        if not chosen.any() or chosen.all():
            return None
        hit = chosen[objs.labels] & (objs.labels >= 0)
        drop = hit if erase else (objs.labels >= 0) & ~hit
        return np.where(drop, np.uint8(bg), a).astype(np.uint8)

    return prim


def _mark(mode: str, prop: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, mode)
        chosen = filter_objects(a, objs, prop)
        if not chosen.any():
            return None
        hit = chosen[objs.labels] & (objs.labels >= 0)
        return np.where(hit, np.uint8(TRUE), a).astype(np.uint8)

    return prim


RELABELS = ("rank", "size", "holes", "border", "height", "width", "shape", "nholes", "ends")
"""What ``relabel`` names each object by: its size's dense rank (largest first), its size, whether
it has holes, whether it touches the border, its height, its width, how common its shape is
(the commonest shape first), how many holes it has, or whether it is the largest (1), the
smallest (2) or neither (0)."""


def _hole_count(objs: Objects, i: int) -> int:
    """How many separate regions of other cells object ``i`` encloses within its box."""
    ys, xs = objs.box(i)
    free = objs.labels[ys, xs] != i
    if not free[1:-1, 1:-1].any():
        return 0
    regions = label(free.astype(np.uint8), free, False, False)
    edge = np.concatenate([regions[0], regions[-1], regions[:, 0], regions[:, -1]])
    inner = np.setdiff1d(regions[regions >= 0], edge)
    return len(inner)


def _shape_rank(arr: Array, objs: Objects) -> npt.NDArray[np.intp]:
    keys = shape_keys(arr, objs)
    counts = {k: keys.count(k) for k in keys}
    # Commonest shape first; among equally common shapes, the one met first in reading order.
    order = sorted(dict.fromkeys(keys), key=lambda k: -counts[k])
    rank = {k: i for i, k in enumerate(order)}
    return np.array([rank[k] for k in keys], dtype=np.intp)


def _property(arr: Array, objs: Objects, by: str) -> npt.NDArray[np.intp]:
    if by == "rank":
        sizes = np.unique(objs.sizes)[::-1]
        return np.asarray(np.searchsorted(-sizes, -objs.sizes))
    if by == "size":
        return objs.sizes
    if by in ("holes", "border"):
        return filter_objects(arr, objs, by).astype(np.intp)
    if by == "height":
        return np.asarray(objs.bottoms - objs.tops)
    if by == "width":
        return np.asarray(objs.rights - objs.lefts)
    if by == "ends":
        big, small = objs.sizes == objs.sizes.max(), objs.sizes == objs.sizes.min()
        return np.where(big, 1, np.where(small, 2, 0)).astype(np.intp)
    if by == "nholes":
        return np.array([_hole_count(objs, i) for i in range(len(objs))], dtype=np.intp)
    return _shape_rank(arr, objs)


def _relabel(mode: str, by: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, mode)
        if len(objs) < 2:
            return None
        values = _property(a, objs, by)
        if values.min() == values.max():
            return None  # every object alike: nothing to tell apart
        labels = np.minimum(SENTINEL + values, _MAX_LABEL).astype(np.uint8)
        return np.where(objs.labels >= 0, labels[objs.labels], a).astype(np.uint8)

    return prim


def _boxfill(mode: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, mode)
        inside = np.zeros(a.shape, dtype=bool)
        for i in range(len(objs)):
            inside[objs.box(i)] = True
        paint = inside & (a == bg)
        if not paint.any():
            return None
        return np.where(paint, np.uint8(TRUE), a).astype(np.uint8)

    return prim


def _hull(mode: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, mode)
        if not 0 < len(objs) <= 30:
            return None
        out = a.copy()
        # Smallest boxes last, so a box inside another keeps its own colour.
        areas = (objs.bottoms - objs.tops) * (objs.rights - objs.lefts)
        for i in np.argsort(-areas, kind="stable").tolist():
            box = objs.box(i)
            out[box] = np.where(out[box] == bg, np.uint8(objs.colours[i]), out[box])
        return None if np.array_equal(out, a) else out

    return prim


def _swap(mode: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, mode)
        out = a.copy()
        swapped = False
        for i in range(len(objs)):
            if objs.ncolours[i] != 2:
                continue
            box = objs.box(i)
            cells = objs.labels[box] == i
            first, second = np.unique(a[box][cells]).tolist()
            part = out[box]
            part[cells & (a[box] == first)] = second
            part[cells & (a[box] == second)] = first
            swapped = True
        return out if swapped else None

    return prim


def _degree() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        padded = np.pad(a, 1, constant_values=255)
        centre = padded[1:-1, 1:-1]
        sides = (padded[:-2, 1:-1], padded[2:, 1:-1], padded[1:-1, :-2], padded[1:-1, 2:])
        count = sum((side == centre).astype(np.uint8) for side in sides)
        # A rectangle's corners have two such neighbours, its edges three, its inside four.
        fg = a != bg
        if not fg.any():
            return None
        return np.where(fg, np.uint8(SENTINEL) + count, a).astype(np.uint8)

    return prim


FAMILIES = (
    Family(
        "keep",
        (MODES, FILTERS),
        3,
        lambda m, p: _keep(m, p, erase=False),
        "keep only the objects with a property",
        "same",
    ),
    Family(
        "erase",
        (MODES, FILTERS),
        3,
        lambda m, p: _keep(m, p, erase=True),
        "erase the objects with a property",
        "same",
    ),
    Family("mark", (MODES, FILTERS), 3, _mark, "label the objects with a property", "same"),
    Family(
        "degree", (), 2, _degree, "label each foreground cell by its four neighbours of its colour", "same"
    ),
    Family(
        "boxfill", (MODES,), 3, _boxfill, "label the background cells inside objects' bounding boxes", "same"
    ),
    Family(
        "hull",
        (MODES,),
        2,
        _hull,
        "paint the background inside each object's bounding box in the object's colour",
        "same",
    ),
    Family(
        "swap", (("m4", "m8"),), 2, _swap, "exchange the two colours of every two-coloured object", "same"
    ),
    Family(
        "relabel",
        (MODES, RELABELS),
        2,
        _relabel,
        "label each object by a property (see RELABELS)",
        "same",
    ),
)
