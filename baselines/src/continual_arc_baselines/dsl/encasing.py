"""Encasing: every shape gets a ring around its outside, and its holes may fill in another colour.

A halo paints the background next to a shape on every side, its holes included; a case paints
only the *outside*: the background cells beside the foreground (``8``: also diagonally, ``4``:
only edgewise) that lie in a background region reaching the grid's edge. ``encase(n){r}`` paints
that ring ``r``; ``encase(n){r,h}`` also fills every enclosed background region (a hole, not
reaching the edge) with ``h`` (shapes cased in green with their insides yellow). The colours are
literals the demonstrations fix. A grid with no ring to paint gives ``None``. The fitter offers a
step only when the cells it changes are exactly those every demonstration changes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .catalogue import FitInput, Fitter, changing_answers
from .family import Op, Prim
from .grid import SENTINEL, Array, Context, Mask, bg_for
from .objects import label

__all__ = ["ENCASE_COST", "FITTER", "NEIGHBOURS", "encase_op", "fit_encase", "parse_encase", "ring_and_holes"]

NEIGHBOURS = ("8", "4")
"""Which cells beside the foreground the ring takes: all eight around, or the four edgewise."""

ENCASE_COST = 3.0
"""The base cost of a case: a neighbourhood and one or two fitted colours."""


def ring_and_holes(a: Array, bg: int, neighbours: str) -> tuple[Mask, Mask]:
    """The outside ring of ``a``'s foreground and its holes (enclosed background)."""
    empty = a == bg
    labels = label(a, empty, False, True)
    border = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    outside = np.isin(labels, border[border >= 0]) & empty
    fg = np.pad(~empty, 1)
    h, w = a.shape
    near = np.zeros((h, w), dtype=bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if (dy or dx) and (neighbours == "8" or not (dy and dx)):
                near |= fg[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
    return near & outside, empty & ~outside


def encase_op(neighbours: str, ring: int, hole: int | None) -> Op:
    """The step ``encase(neighbours){ring}`` or ``encase(neighbours){ring,hole}``."""

    def prim(a: Array, ctx: Context) -> Array | None:
        if int(a.max()) >= SENTINEL:
            return None
        outer, holes = ring_and_holes(a, bg_for(a, ctx), neighbours)
        if not outer.any():
            return None
        out = np.where(outer, np.uint8(ring), a)
        if hole is not None:
            out = np.where(holes, np.uint8(hole), out)
        return out.astype(np.uint8)

    step: Prim = prim
    colours = str(ring) if hole is None else f"{ring},{hole}"
    return Op(f"encase({neighbours}){{{colours}}}", ENCASE_COST + (hole is not None) / 2, step, "same")


def _one_colour(values: npt.NDArray[np.uint8]) -> int | None:
    """The one value of ``values`` (``None`` if it holds none or several)."""
    found = np.unique(values).tolist()
    return int(found[0]) if len(found) == 1 else None


def fit_encase(given: FitInput) -> list[Op]:
    """The cases that reproduce every demonstration and change the test input, cheapest first."""
    if not given.keeps_size:
        return []
    demos = given.demos()
    kept: list[Op] = []
    for neighbours in NEIGHBOURS:
        rings: set[int] = set()
        holes: set[int] = set()
        filled = False
        ok = True
        for a, b, ctx in demos:
            outer, inner = ring_and_holes(a, ctx.bg, neighbours)
            changed = a != b
            # Only ring and hole cells change, the whole ring changes, and holes all or none.
            if not outer.any() or (changed & ~outer & ~inner).any() or not changed[outer].all():
                ok = False
                break
            r = _one_colour(b[outer])
            if r is None:
                ok = False
                break
            rings.add(r)
            if inner.any():
                h = _one_colour(b[inner])
                if h is None or (h == ctx.bg) != (not changed[inner].any()):
                    ok = False
                    break
                if h != ctx.bg:
                    filled = True
                    holes.add(h)
        if not ok or len(rings) != 1 or len(holes) > 1:
            continue
        hole = holes.pop() if filled else None
        kept.append(encase_op(neighbours, rings.pop(), hole))
    return changing_answers(given, kept)


def parse_encase(text: str) -> Op | None:
    """The case written as ``text``, or ``None`` when it is malformed."""
    head, sep, body = text.partition("){")
    neighbours = head.removeprefix("encase(")
    if not (sep and head.startswith("encase(") and body.endswith("}")) or neighbours not in NEIGHBOURS:
        return None
    parts = body[:-1].split(",")
    if not 1 <= len(parts) <= 2 or not all(p.isdigit() and len(p) == 1 for p in parts):
        return None
    op = encase_op(neighbours, int(parts[0]), int(parts[1]) if len(parts) == 2 else None)
    return op if op.text == text else None


FITTER = Fitter("encase(", {f"encase({n})": ENCASE_COST for n in NEIGHBOURS}, fit_encase, parse_encase)
"""The fitter of cases."""
