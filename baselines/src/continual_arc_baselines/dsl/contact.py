"""Objects that move by a rule of their own: toward an anchor until they touch it, or by their own size.

``attract(prop)`` keeps the one object with property ``prop`` (`objects.CHOOSERS`) in place
and slides every other object (multicolour, 4-connected, so diagonal dots move apart) toward it:
straight along the axis on which the two overlap, diagonally when they overlap on neither, until it
touches the anchor or meets another object. ``leap(dir)`` moves every object in one direction by
its own extent that way (its height up or down, its width left or right); what leaves the grid is
cut off. ``leap(away)`` moves each object away from the border it touches, as Re-ARC turns a task's
pairs every way; ``settle`` lets foreground cells fall toward the border that holds the most
foreground (a wall), for the same reason. ``sink(prop)`` lets every other foreground cell fall
toward the chosen single-colour object, straight, from any side it faces (a cell diagonal to it
stays).
"""

from __future__ import annotations

import numpy as np

from .family import Family, Prim
from .grid import Array, Context, bg_for
from .objects import CHOOSERS, Objects, choose, objects
from .painting import gravity

__all__ = ["FAMILIES", "MAX_CELLS", "MAX_MOVERS"]

MAX_MOVERS = 30
"""The most objects ``attract`` and ``leap`` move; a grid of more is a texture, not a scene."""

MAX_CELLS = 120
"""The most cells ``sink`` moves one by one."""

_STEPS = {"down": (1, 0), "up": (-1, 0), "right": (0, 1), "left": (0, -1)}


def _toward(objs: Objects, i: int, anchor: int) -> tuple[int, int] | None:
    """The unit step from object ``i`` toward the anchor (``None`` inside the anchor's box).

    Straight along the axis on which the two overlap, diagonal when they overlap on neither.
    """
    dy = 1 if objs.bottoms[i] <= objs.tops[anchor] else -1 if objs.tops[i] >= objs.bottoms[anchor] else 0
    dx = 1 if objs.rights[i] <= objs.lefts[anchor] else -1 if objs.lefts[i] >= objs.rights[anchor] else 0
    return None if dy == dx == 0 else (dy, dx)


def _box_gaps(objs: Objects, anchor: int) -> np.ndarray:
    """Per object, the rows plus the columns of background between its box and the anchor's."""
    rows = np.maximum(np.maximum(objs.tops[anchor] - objs.bottoms, objs.tops - objs.bottoms[anchor]), 0)
    cols = np.maximum(np.maximum(objs.lefts[anchor] - objs.rights, objs.lefts - objs.rights[anchor]), 0)
    gaps: np.ndarray = rows + cols
    return gaps


def _slide(out: Array, ys: np.ndarray, xs: np.ndarray, dy: int, dx: int, bg: int) -> int:
    """How far cells ``ys, xs`` go by ``(dy, dx)`` before the border or a painted cell stops them."""
    h, w = out.shape
    step = 0
    while True:
        ny, nx = ys + (step + 1) * dy, xs + (step + 1) * dx
        if ny.min() < 0 or nx.min() < 0 or ny.max() >= h or nx.max() >= w or np.any(out[ny, nx] != bg):
            return step
        step += 1


def _attract(prop: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, "m4")
        if not 1 < len(objs) <= MAX_MOVERS:
            return None
        anchor = choose(a, objs, prop)
        if anchor is None:
            return None
        out = np.where(objs.labels == anchor, a, np.uint8(bg)).astype(np.uint8)
        # Nearest the anchor first, so a queue of objects stacks up against it.
        gaps = _box_gaps(objs, anchor)
        for i in np.argsort(gaps, kind="stable").tolist():
            if i == anchor:
                continue
            ys, xs = np.nonzero(objs.labels == i)
            step = _toward(objs, i, anchor)
            dy, dx = step if step is not None else (0, 0)
            far = _slide(out, ys, xs, dy, dx, bg) if step is not None else 0
            out[ys + far * dy, xs + far * dx] = a[ys, xs]
        return None if np.array_equal(out, a) else out

    return prim


def _away(objs: Objects, i: int, h: int, w: int) -> tuple[int, int]:
    """The step away from the border object ``i`` touches (bottom, top, right, left first); none: stay."""
    if objs.bottoms[i] == h:
        return -1, 0
    if objs.tops[i] == 0:
        return 1, 0
    if objs.rights[i] == w:
        return 0, -1
    return (0, 1) if objs.lefts[i] == 0 else (0, 0)


def _sink(prop: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, "4")
        anchor = choose(a, objs, prop) if len(objs) > 1 else None
        if anchor is None:
            return None
        ys, xs = np.nonzero((objs.labels >= 0) & (objs.labels != anchor))
        if not 0 < len(ys) <= MAX_CELLS:
            return None
        out = np.where(objs.labels == anchor, a, np.uint8(bg)).astype(np.uint8)
        # Cell by cell, nearest the anchor first, so cells pile up against it as sand would.
        rows = np.maximum(np.maximum(objs.tops[anchor] - ys, ys - objs.bottoms[anchor] + 1), 0)
        cols = np.maximum(np.maximum(objs.lefts[anchor] - xs, xs - objs.rights[anchor] + 1), 0)
        gaps = rows + cols
        for k in np.argsort(gaps, kind="stable").tolist():
            y, x = ys[k : k + 1], xs[k : k + 1]
            dy, dx = _toward_cell(objs, anchor, int(y[0]), int(x[0]))
            far = _slide(out, y, x, dy, dx, bg) if (dy, dx) != (0, 0) else 0
            out[y + far * dy, x + far * dx] = a[y, x]
        return None if np.array_equal(out, a) else out

    return prim


def _toward_cell(objs: Objects, anchor: int, y: int, x: int) -> tuple[int, int]:
    """The unit step from cell ``(y, x)`` straight toward the anchor's box; ``(0, 0)`` if none is."""
    dy = 1 if y < objs.tops[anchor] else -1 if y >= objs.bottoms[anchor] else 0
    dx = 1 if x < objs.lefts[anchor] else -1 if x >= objs.rights[anchor] else 0
    return (0, 0) if dy and dx else (dy, dx)


def _leap(direction: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        objs = objects(a, bg, "m8")
        if not 0 < len(objs) <= MAX_MOVERS:
            return None
        h, w = a.shape
        out = np.full_like(a, bg)
        for i in range(len(objs)):
            dy, dx = _STEPS[direction] if direction in _STEPS else _away(objs, i, h, w)
            ys, xs = np.nonzero(objs.labels == i)
            far = (objs.bottoms[i] - objs.tops[i]) if dy else (objs.rights[i] - objs.lefts[i])
            ny, nx = ys + far * dy, xs + far * dx
            inside = (ny >= 0) & (ny < h) & (nx >= 0) & (nx < w)
            out[ny[inside], nx[inside]] = a[ys[inside], xs[inside]]
        return out

    return prim


def _wall(a: Array, bg: int) -> str | None:
    """The border holding the most foreground cells, if one alone does (the wall things settle on)."""
    fg = a != bg
    counts = {
        "down": int(fg[-1].sum()),
        "up": int(fg[0].sum()),
        "right": int(fg[:, -1].sum()),
        "left": int(fg[:, 0].sum()),
    }
    most = max(counts.values())
    sides = [side for side, n in counts.items() if n == most]
    return sides[0] if most and len(sides) == 1 else None


_GRAVITY = {side: gravity(side) for side in _STEPS}


def _settle(a: Array, ctx: Context) -> Array | None:
    side = _wall(a, bg_for(a, ctx))
    if side is None:
        return None
    out = _GRAVITY[side](a, ctx)
    return None if out is None or np.array_equal(out, a) else out


FAMILIES = (
    Family(
        "attract",
        (CHOOSERS,),
        3,
        _attract,
        "slide every object toward the chosen one until it touches",
        "same",
    ),
    Family("sink", (CHOOSERS,), 3, _sink, "let foreground cells fall toward the chosen object", "same"),
    Family("settle", (), 3, lambda: _settle, "let foreground cells fall toward the fullest border", "same"),
    Family(
        "leap", ((*_STEPS, "away"),), 3, _leap, "move every object by its own extent in a direction", "same"
    ),
)
