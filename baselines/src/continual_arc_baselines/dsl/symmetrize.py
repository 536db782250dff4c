"""Symmetrizing a figure: the foreground completed under a symmetry group about its fitted centre.

``symfill`` (`symmetry`) completes a masked pattern whose holes have their own colour. Here the
holes are background: a figure drawn on a blank grid is missing parts (a quarter of a rotor, one
half of a mirrored pair), and the task adds them. Background cells cannot tell "missing" from
"empty", so the step never removes or changes a foreground cell; it only adds the images of the
foreground under every element of a group:

* ``h``: the mirror about a vertical axis (left-right), ``v``: about a horizontal axis;
* ``hv``: both mirrors and the half turn (the four-fold symmetry of a rectangle);
* ``r2``: the half turn alone; ``r4``: the quarter turns (a rotor, not mirrored).

The centre is fitted per grid: every pair of foreground cells one element maps onto each other
votes for the centre that element would need (a match when their colours agree, a conflict when
they differ). The chosen centre has no conflict, keeps every image inside the grid, and has the
most matches; a tie between two best centres, or no match at all, gives ``None``, since a guess
between centres is a coin toss. With ``new`` the added cells get the label 11 (a fitted map then
colours them) instead of their sources' colours.

``hub(group)`` takes the centre from the figure's one *pivot*: an object the group maps onto
itself about its own centre (the small shape in the middle that the other parts are mirrored
around), where a figure's larger self-similar parts would outvote it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .family import Family, Prim
from .grid import TRUE, Array, Context, Mask, bg_for
from .objects import label

__all__ = ["FAMILIES", "GROUPS", "PIVOT_GROUPS", "SYMMETRIZE_COST", "pivot", "symmetrize"]

GROUPS = ("h", "v", "hv", "r2", "r4")
"""The symmetry groups a figure may be completed under (see the module's text)."""

SYMMETRIZE_COST = 3
"""The cost of a symmetrizing step: one fitted centre, dearer than the fixed-axis ``sym``."""

_MAX_CELLS = 300
"""Foreground cells beyond this are a texture, not a figure; the pair votes stay cheap."""

# The group elements, each a map of a cell about a centre given in doubled coordinates (Y, X),
# so half-cell centres are integers.
_ELEMENTS = {"h": ("h",), "v": ("v",), "hv": ("h", "v", "r2"), "r2": ("r2",), "r4": ("r1", "r2", "r3")}

Ints = npt.NDArray[np.int64]


def _image(element: str, ys: Ints, xs: Ints, cy: int | Ints, cx: int | Ints) -> tuple[Ints, Ints]:
    """Where ``element`` about the doubled centre ``(cy, cx)`` sends the cells ``(ys, xs)``."""
    if element == "h":
        return ys, cx - xs
    if element == "v":
        return cy - ys, xs
    if element == "r2":
        return cy - ys, cx - xs
    # A quarter turn about (cy/2, cx/2): (y, x) -> (cy/2 + (x - cx/2), cx/2 - (y - cy/2)).
    if element == "r1":
        return (cy - cx) // 2 + xs, (cx + cy) // 2 - ys
    return (cy + cx) // 2 - xs, (cx - cy) // 2 + ys


def _votes(element: str, ys: Ints, xs: Ints, colours: Ints, h: int, w: int) -> tuple[Ints, Ints]:
    """Per doubled centre (a ``(2h - 1) x (2w - 1)`` array): pairs the element matches, pairs it clashes."""
    yi, yj = ys[:, None], ys[None, :]
    xi, xj = xs[:, None], xs[None, :]
    if element == "h":
        cy, cx, valid = np.zeros_like(yi + yj), xi + xj, yi == yj
    elif element == "v":
        cy, cx, valid = yi + yj, np.zeros_like(xi + xj), xi == xj
    elif element == "r2":
        cy, cx, valid = yi + yj, xi + xj, np.ones_like(yi == yj)
    else:
        # Cell j is the quarter turn of cell i (r1) about exactly one centre; r3 is r1 backwards.
        if element == "r3":
            yi, yj, xi, xj = yj, yi, xj, xi
        cy, cx = yj - xi + xj + yi, xj + yi - yj + xi
        valid = np.ones_like(yi == yj)
    valid = valid & ~np.eye(len(ys), dtype=bool)  # a cell mapped onto itself proves nothing
    valid &= (cy >= 0) & (cy <= 2 * h - 2) & (cx >= 0) & (cx <= 2 * w - 2)
    same = colours[:, None] == colours[None, :]
    index = cy * (2 * w - 1) + cx
    size = (2 * h - 1) * (2 * w - 1)
    match = np.bincount(index[valid & same], minlength=size).reshape(2 * h - 1, 2 * w - 1)
    clash = np.bincount(index[valid & ~same], minlength=size).reshape(2 * h - 1, 2 * w - 1)
    return match, clash


def _inside(element: str, box: tuple[int, int, int, int], h: int, w: int) -> Mask:
    """Per doubled centre: whether the element keeps the figure's box inside the grid."""
    top, bottom, left, right = box
    cy, cx = np.meshgrid(np.arange(2 * h - 1), np.arange(2 * w - 1), indexing="ij")
    ok = np.ones(cy.shape, dtype=bool)
    if element in ("r1", "r3"):
        # A quarter turn needs both doubled coordinates of the same parity to land on cells.
        ok &= (cy - cx) % 2 == 0
    for y in (top, bottom):
        for x in (left, right):
            iy, ix = _image(element, np.array(y), np.array(x), cy, cx)
            ok &= (iy >= 0) & (iy < h) & (ix >= 0) & (ix < w)
    return ok


def symmetrize(a: Array, bg: int, group: str, new: bool) -> Array | None:
    """``a`` with its foreground completed under ``group`` about the best-voted centre, or ``None``."""
    h, w = a.shape
    fg = a != bg
    ys, xs = np.nonzero(fg)
    if not 0 < ys.size <= _MAX_CELLS:
        return None
    ys, xs = ys.astype(np.int64), xs.astype(np.int64)
    colours = a[ys, xs].astype(np.int64)
    box = (int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max()))
    score = np.zeros((2 * h - 1, 2 * w - 1), dtype=np.int64)
    ok = np.ones(score.shape, dtype=bool)
    for element in _ELEMENTS[group]:
        match, clash = _votes(element, ys, xs, colours, h, w)
        if element == "h":  # a vertical axis: every row of centres votes alike
            match, clash = np.broadcast_to(match[:1], score.shape), np.broadcast_to(clash[:1], score.shape)
        elif element == "v":
            match, clash = (
                np.broadcast_to(match[:, :1], score.shape),
                np.broadcast_to(clash[:, :1], score.shape),
            )
        score += match
        ok &= (clash == 0) & _inside(element, box, h, w)
    score = np.where(ok, score, 0)
    if group == "h":
        score[1:] = 0  # one centre per axis: the row of centres is irrelevant
    elif group == "v":
        score[:, 1:] = 0
    best = int(score.max())
    if best == 0 or int((score == best).sum()) > 1:
        return None
    cy, cx = (int(v) for v in np.argwhere(score == best)[0])
    out = a.copy()
    paint = TRUE if new else None
    for element in _ELEMENTS[group]:
        iy, ix = _image(element, ys, xs, cy, cx)
        blank = out[iy, ix] == bg
        out[iy[blank], ix[blank]] = paint if paint is not None else colours[blank]
    if np.array_equal(out, a):
        return None
    return out


PIVOT_GROUPS = ("hv", "r2", "r4")
"""The groups a figure may be completed under about a pivot object."""


def _paint(a: Array, bg: int, group: str, cy: int, cx: int, new: bool) -> Array | None:
    """``a`` with the images of its foreground under ``group`` about ``(cy, cx)`` (doubled) added."""
    h, w = a.shape
    ys, xs = np.nonzero(a != bg)
    ys, xs = ys.astype(np.int64), xs.astype(np.int64)
    colours = a[ys, xs].astype(np.int64)
    out = a.copy()
    for element in _ELEMENTS[group]:
        iy, ix = _image(element, ys, xs, cy, cx)
        if np.any((iy < 0) | (iy >= h) | (ix < 0) | (ix >= w)):
            return None
        there = out[iy, ix]
        if np.any((there != bg) & (there != colours) & (a[iy, ix] != bg)):
            return None  # an image lands on a foreground cell of another colour
        blank = there == bg
        out[iy[blank], ix[blank]] = TRUE if new else colours[blank]
    return None if np.array_equal(out, a) else out


_MAX_OBJECTS = 64
"""Figures in more one-colour pieces than this are textures; the pivot search stays cheap."""


def _invariant(a: Array, ys: Ints, xs: Ints, group: str, cy: int, cx: int) -> bool:
    """Whether every element of ``group`` maps the cells onto themselves, colours kept, moving some.

    An element that moves no cell (a flat bar under the mirror along it) proves nothing.
    """
    cells = set(zip(ys.tolist(), xs.tolist(), strict=True))
    for element in _ELEMENTS[group]:
        iy, ix = _image(element, ys, xs, cy, cx)
        if set(zip(iy.tolist(), ix.tolist(), strict=True)) != cells:
            return False
        if not np.array_equal(a[iy, ix], a[ys, xs]) or (np.array_equal(iy, ys) and np.array_equal(ix, xs)):
            return False
    return True


def pivot(a: Array, bg: int, group: str) -> Array | None:
    """``a`` completed under ``group`` about the centre of its one pivot object, or ``None``.

    A *pivot* is a foreground object (8-connected, one colour) that every element of ``group``
    maps onto itself about its box's centre, moving some of its cells: the shape in the middle
    that the other parts are mirrored around. Several pivots with different centres give ``None``.
    """
    labels = label(a, a != bg, True, True)
    n = int(labels.max()) + 1
    if not 2 <= n <= _MAX_OBJECTS:
        return None
    centres = set()
    for i in range(n):
        ys, xs = np.nonzero(labels == i)
        cy, cx = int(ys.min() + ys.max()), int(xs.min() + xs.max())
        if group == "r4" and (cy - cx) % 2:
            continue
        if _invariant(a, ys.astype(np.int64), xs.astype(np.int64), group, cy, cx):
            centres.add((cy, cx))
    if len(centres) != 1:
        return None
    cy, cx = centres.pop()
    return _paint(a, bg, group, cy, cx, False)


def _pivot(group: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return pivot(a, bg_for(a, ctx), group)

    return prim


def _symmetrize(group: str, mode: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return symmetrize(a, bg_for(a, ctx), group, mode == "new")

    return prim


FAMILIES = (
    Family(
        "symmetrize",
        (GROUPS, ("keep", "new")),
        SYMMETRIZE_COST,
        _symmetrize,
        "complete the foreground figure under a symmetry group about its fitted centre",
        "same",
    ),
    Family(
        "hub",
        (PIVOT_GROUPS,),
        SYMMETRIZE_COST,
        _pivot,
        "complete the figure under a symmetry group about the one object it leaves unchanged",
        "same",
    ),
)
"""The figure-symmetrizing families."""
