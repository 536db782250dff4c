"""Objects: connected components of a grid's foreground, and choosing among them by a property.

Five ways to cut a grid into objects (`MODES`): single-colour components under 4- or
8-connectivity (``"4"``, ``"8"``), multicolour components of the non-background cells
(``"m4"``, ``"m8"``), and colour classes (``"c"``: all the cells of one colour, connected or
not). Components are labelled with NumPy label propagation plus pointer jumping, so no per-cell
Python loop runs; the result is cached by the grid's bytes, since many primitives of one search
ask for the same cut of the same grid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .grid import Array, Mask, key_of

__all__ = [
    "CHOOSERS",
    "FILTERS",
    "MODES",
    "Objects",
    "choose",
    "filter_objects",
    "label",
    "objects",
    "shape_keys",
]

MODES = ("4", "8", "m4", "m8", "c")
"""Ways to cut a grid into objects: single-colour 4/8-connected, multicolour 4/8-connected, or
one object per colour."""

CHOOSERS = ("big", "small", "top", "bottom", "left", "right", "rare", "odd", "many", "holes", "sym", "asym")
"""Properties that pick exactly one object (the program does not apply when none or several do);
``sym`` is the one object whose box reads the same reflected left to right, ``asym`` the one that
does not."""

FILTERS = ("big", "small", "holes", "border", "rect", "dot", "multi", "odd")
"""Properties that pick any number of objects (all of the largest, all with holes, ...)."""

Labels = npt.NDArray[np.int32]
_HALF4 = ((0, 1), (1, 0))
_HALF8 = (*_HALF4, (1, 1), (1, -1))
_CACHE: dict[tuple[bytes, int, str], Objects] = {}
_CACHE_LIMIT = 4096


@dataclass(frozen=True, eq=False)
class Objects:
    """The objects of one grid, in reading order of their first cell.

    Attributes:
        labels: per cell, the index of its object, or -1 for background.
        sizes, tops, lefts, bottoms, rights, colours: per object (bottom and right exclusive;
            colour is the object's most frequent colour).
        ncolours: per object, how many colours it holds.
        memo: choices and filters already computed on these objects.
    """

    labels: Labels
    sizes: npt.NDArray[np.intp]
    tops: npt.NDArray[np.intp]
    lefts: npt.NDArray[np.intp]
    bottoms: npt.NDArray[np.intp]
    rights: npt.NDArray[np.intp]
    colours: npt.NDArray[np.intp]
    ncolours: npt.NDArray[np.intp]
    memo: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.sizes)

    def box(self, i: int) -> tuple[slice, slice]:
        """The slices of object ``i``'s bounding box."""
        return slice(self.tops[i], self.bottoms[i]), slice(self.lefts[i], self.rights[i])

    def mask(self, i: int) -> Mask:
        """The cells of object ``i``, over the whole grid."""
        cells: Mask = self.labels == i
        return cells


def _edges(arr: Array, fg: Mask, eight: bool, same_colour: bool) -> tuple[Any, Any]:
    """The pairs of flat cell indices that are linked: both in ``fg``, adjacent, same colour if asked."""
    h, w = arr.shape
    idx = np.arange(h * w).reshape(h, w)
    us, vs = [], []
    for dy, dx in _HALF8 if eight else _HALF4:
        a = slice(0, h - dy), slice(max(0, -dx), w - max(0, dx))
        b = slice(dy, h), slice(max(0, dx), w + min(0, dx))
        ok = fg[a] & fg[b]
        if same_colour:
            ok &= arr[a] == arr[b]
        us.append(idx[a][ok])
        vs.append(idx[b][ok])
    return np.concatenate(us), np.concatenate(vs)


def label(arr: Array, fg: Mask, eight: bool, same_colour: bool) -> Labels:
    """Label the connected components of the cells in ``fg``.

    Args:
        arr: the grid.
        fg: which cells belong to some component.
        eight: whether diagonal neighbours connect.
        same_colour: whether neighbours connect only when they hold the same value.

    Returns:
        Per cell, its component's index (-1 off ``fg``), numbered in reading order of each
        component's first cell.
    """
    h, w = arr.shape
    u, v = _edges(arr, fg, eight, same_colour)
    parent = np.arange(h * w)
    # Hook the larger root of every edge that still joins two trees onto the smaller, then
    # flatten the trees; the number of rounds grows with the log of a component's size.
    while len(u):
        pu, pv = parent[u], parent[v]
        apart = pu != pv
        if not apart.any():
            break
        u, v, pu, pv = u[apart], v[apart], pu[apart], pv[apart]
        parent[np.maximum(pu, pv)] = np.minimum(pu, pv)
        while True:
            flat = parent[parent]
            if np.array_equal(flat, parent):
                break
            parent = flat
    out = np.full((h, w), -1, dtype=np.int32)
    if fg.any():
        _, inverse = np.unique(parent.reshape(h, w)[fg], return_inverse=True)
        out[fg] = inverse.ravel()
    return out


def _colour_classes(arr: Array, fg: Mask) -> Labels:
    """Per cell, the index of its colour among the foreground colours in reading order of first cell."""
    flat = arr.ravel()[fg.ravel()]
    _, first = np.unique(flat, return_index=True)
    order = np.full(256, -1, dtype=np.int32)
    order[flat[np.sort(first)]] = np.arange(len(first), dtype=np.int32)
    out: Labels = np.where(fg, order[arr], -1).astype(np.int32)
    return out


def _build(arr: Array, bg: int, mode: str) -> Objects:
    fg = arr != bg
    if mode == "c":
        labels = _colour_classes(arr, fg)
    else:
        labels = label(arr, fg, mode.endswith("8"), not mode.startswith("m"))
    n = int(labels.max()) + 1
    ys, xs = np.nonzero(fg)
    ls = labels[ys, xs]
    order = np.argsort(ls, kind="stable")
    sizes = np.bincount(ls, minlength=n)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])) if n else np.zeros(0, dtype=np.intp)
    ys, xs = ys[order], xs[order]
    table = np.bincount(ls * 256 + arr[fg].astype(np.intp), minlength=n * 256).reshape(n, 256)
    if n == 0:
        empty = np.zeros(0, dtype=np.intp)
        return Objects(labels, sizes, empty, empty, empty, empty, empty, empty)
    return Objects(
        labels=labels,
        sizes=sizes,
        tops=np.minimum.reduceat(ys, starts),
        lefts=np.minimum.reduceat(xs, starts),
        bottoms=np.maximum.reduceat(ys, starts) + 1,
        rights=np.maximum.reduceat(xs, starts) + 1,
        colours=np.argmax(table, axis=1),
        ncolours=np.count_nonzero(table, axis=1),
    )


def objects(arr: Array, bg: int, mode: str) -> Objects:
    """The objects of ``arr`` on background ``bg``, cut as ``mode`` says (cached)."""
    key = (key_of(arr), bg, mode)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        found = _CACHE[key] = _build(arr, bg, mode)
    return found


def _unique_true(values: Mask) -> int | None:
    hits = np.flatnonzero(values)
    return int(hits[0]) if len(hits) == 1 else None


def shape_keys(arr: Array, objs: Objects) -> list[bytes]:
    """Per object, bytes naming its shape (its box's size and which cells of the box it holds)."""
    keys = []
    for i in range(len(objs)):
        ys, xs = objs.box(i)
        keys.append(bytes((ys.stop - ys.start, xs.stop - xs.start)) + (objs.labels[ys, xs] == i).tobytes())
    return keys


def _odd_one(keys: list[bytes] | list[int]) -> int | None:
    """The index of the one item whose key no other item shares, if exactly one is alone."""
    alone = [i for i, k in enumerate(keys) if keys.count(k) == 1]  # type: ignore[arg-type]
    return alone[0] if len(alone) == 1 and len(keys) > 2 else None


def choose(arr: Array, objs: Objects, prop: str) -> int | None:
    """The index of the one object with property ``prop`` (one of `CHOOSERS`), or ``None``."""
    key = "choose:" + prop
    if key not in objs.memo:
        objs.memo[key] = _choose(arr, objs, prop)
    result: int | None = objs.memo[key]
    return result


def _choose(arr: Array, objs: Objects, prop: str) -> int | None:
    if len(objs) == 0:
        return None
    if prop in ("big", "small", "many"):
        values = objs.ncolours if prop == "many" else objs.sizes
        target = values.min() if prop == "small" else values.max()
        return _unique_true(values == target)
    if prop in ("top", "bottom", "left", "right"):
        values = {"top": objs.tops, "left": objs.lefts, "bottom": -objs.bottoms, "right": -objs.rights}[prop]
        return _unique_true(values == values.min())
    if prop == "rare":
        return _odd_one([int(c) for c in objs.colours])
    if prop == "holes":
        return _unique_true(filter_objects(arr, objs, "holes"))
    if prop in ("sym", "asym"):
        mirrored = np.array([_symmetric(arr[objs.box(i)]) for i in range(len(objs))], dtype=bool)
        return _unique_true(mirrored if prop == "sym" else ~mirrored)
    return _odd_one(shape_keys(arr, objs))


def _symmetric(box: Array) -> bool:
    return bool(np.array_equal(box, box[:, ::-1]))


def _has_holes(objs: Objects, i: int) -> bool:
    ys, xs = objs.box(i)
    if ys.stop - ys.start < 3 or xs.stop - xs.start < 3:
        return False
    free = objs.labels[ys, xs] != i
    if not free[1:-1, 1:-1].any():
        return False
    # Grow the free cells reached from the box's edge; any free cell never reached is enclosed.
    reach = free.copy()
    reach[1:-1, 1:-1] = False
    while True:
        grown = reach.copy()
        grown[1:] |= reach[:-1]
        grown[:-1] |= reach[1:]
        grown[:, 1:] |= reach[:, :-1]
        grown[:, :-1] |= reach[:, 1:]
        grown &= free
        if np.array_equal(grown, reach):
            return bool((free & ~reach).any())
        reach = grown


def filter_objects(arr: Array, objs: Objects, prop: str) -> Mask:
    """Which objects have property ``prop`` (one of `FILTERS`)."""
    key = "filter:" + prop
    if key not in objs.memo:
        objs.memo[key] = _filter(arr, objs, prop)
    result: Mask = objs.memo[key]
    return result


def _filter(arr: Array, objs: Objects, prop: str) -> Mask:
    n = len(objs)
    if n == 0:
        return np.zeros(0, dtype=bool)
    if prop == "big":
        return np.asarray(objs.sizes == objs.sizes.max())
    if prop == "small":
        return np.asarray(objs.sizes == objs.sizes.min())
    if prop == "dot":
        return np.asarray(objs.sizes == 1)
    if prop == "multi":
        return np.asarray(objs.sizes > 1)
    if prop == "odd":
        keys = shape_keys(arr, objs)
        alone = _odd_one(keys)
        return np.arange(n) == alone if alone is not None else np.zeros(n, dtype=bool)
    if prop == "rect":
        return np.asarray((objs.bottoms - objs.tops) * (objs.rights - objs.lefts) == objs.sizes)
    if prop == "border":
        h, w = arr.shape
        return np.asarray((objs.tops == 0) | (objs.lefts == 0) | (objs.bottoms == h) | (objs.rights == w))
    return np.array([_has_holes(objs, i) for i in range(n)], dtype=bool)
