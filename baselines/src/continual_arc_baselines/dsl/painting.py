"""Painting and topology: fill enclosed regions, outlines, gravity, symmetry completion, lines.

Cells a primitive paints with a colour it cannot know (a hole's filling, an outline) get the
label `TRUE`; the search's fitted colour map names the colour.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .family import Family, Prim
from .grid import SENTINEL, TRUE, Array, Context, Mask, bg_for, ranked_colours
from .objects import Labels, label
from .rays import ray

__all__ = ["EXTENSIONS", "FAMILIES", "SYMMETRIES", "gravity"]

EXTENSIONS = {
    "down": ("down",),
    "up": ("up",),
    "left": ("left",),
    "right": ("right",),
    "h": ("left", "right"),
    "v": ("up", "down"),
    "hv": ("left", "right", "up", "down"),
    "x": ("dr", "dl", "ur", "ul"),
}
"""Line extensions: the directions in which every foreground cell shoots a ray to the border."""

_SYM: dict[str, tuple[Callable[[Array], Array], ...]] = {
    "h": (lambda a: a[:, ::-1],),
    "v": (lambda a: a[::-1],),
    "hv": (lambda a: a[:, ::-1], lambda a: a[::-1], lambda a: a[::-1, ::-1]),
    "rot": (lambda a: np.rot90(a, 1), lambda a: np.rot90(a, 2), lambda a: np.rot90(a, 3)),
    "d": (lambda a: a.T,),
}
SYMMETRIES = tuple(_SYM)
"""Symmetry completions: left-right, up-down, both, quarter turns, the main diagonal."""


def _enclosed(a: Array, ctx: Context) -> tuple[Labels, Mask]:
    """The background regions of ``a`` (4-connected) and which cells lie in one off the border."""
    labels = label(a, a == bg_for(a, ctx), False, True)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    return labels, (labels >= 0) & ~np.isin(labels, edge)


def _fill() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        _, holes = _enclosed(a, ctx)
        if not holes.any():
            return None
        return np.where(holes, np.uint8(TRUE), a).astype(np.uint8)

    return prim


def _holesize() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        labels, holes = _enclosed(a, ctx)
        if not holes.any():
            return None
        # Each enclosed region's label says its size, so a fitted map can colour holes by size.
        sizes = np.bincount(labels[holes])
        tags = np.minimum(SENTINEL + sizes, 255).astype(np.uint8)
        return np.where(holes, tags[np.where(holes, labels, 0)], a).astype(np.uint8)

    return prim


def _fill_own() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        labels = label(a, a == bg, False, True)
        edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
        inside = [int(i) for i in np.unique(labels[labels >= 0]) if i not in edge]
        if not 0 < len(inside) <= 30:
            return None
        out = a.copy()
        padded = np.pad(a, 1, constant_values=bg)
        for i in inside:
            hole = np.pad(labels == i, 1)
            rim = (
                np.roll(hole, 1, 0) | np.roll(hole, -1, 0) | np.roll(hole, 1, 1) | np.roll(hole, -1, 1)
            ) & ~hole
            around = np.bincount(padded[rim], minlength=256)
            around[bg] = 0
            # The enclosing colour: the commonest around the hole (the lower one on a tie).
            out[labels == i] = int(np.argmax(around))
        return out

    return prim


def _vacant(k: str) -> Prim:
    n = int(k)

    def prim(a: Array, ctx: Context) -> Array | None:
        h, w = a.shape
        if h < n or w < n:
            return None
        free = (a == bg_for(a, ctx)).astype(np.int32)
        # Summed-area table: a window is vacant when all n * n of its cells are background.
        table = np.pad(free, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
        sums = table[n:, n:] - table[:-n, n:] - table[n:, :-n] + table[:-n, :-n]
        corners = sums == n * n
        if not corners.any():
            return None
        covered = np.zeros((h, w), dtype=bool)
        for dy in range(n):
            for dx in range(n):
                covered[dy : dy + h - n + 1, dx : dx + w - n + 1] |= corners
        return np.where(covered, np.uint8(TRUE), a).astype(np.uint8)

    return prim


def _empty_lines(axes: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        free = a == bg_for(a, ctx)
        lines = np.zeros(a.shape, dtype=bool)
        if "h" in axes:
            lines |= free.all(axis=1)[:, None]
        if "v" in axes:
            lines |= free.all(axis=0)[None, :]
        if not lines.any() or lines.all():
            return None
        return np.where(lines, np.uint8(TRUE), a).astype(np.uint8)

    return prim


def _stripes(axis: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        b = a if axis == "h" else a.T
        counts = np.stack([np.bincount(row, minlength=256) for row in b])
        # Each row takes its commonest value (the lower one on a tie).
        out = np.repeat(np.argmax(counts, axis=1).astype(np.uint8)[:, None], b.shape[1], axis=1)
        out = out if axis == "h" else out.T
        return None if np.array_equal(out, a) else np.ascontiguousarray(out)

    return prim


def _regions() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        labels = label(a, a == bg, False, True)
        sizes = np.bincount(labels[labels >= 0])
        if len(sizes) < 2 or sizes.min() == sizes.max():
            return None
        big = np.isin(labels, np.flatnonzero(sizes == sizes.max()))
        small = np.isin(labels, np.flatnonzero(sizes == sizes.min()))
        return np.where(big, np.uint8(TRUE), np.where(small, np.uint8(TRUE + 1), a)).astype(np.uint8)

    return prim


_STAMP = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def _stamp(conn: str) -> Prim:
    offsets = _STAMP[: int(conn)]

    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        h, w = a.shape
        fg = a != bg
        out = a.copy()
        # Each direction gets its own label (12 up, 13 down, 14 left, 15 right, then diagonals),
        # so a fitted map can give each side of a cell its own colour.
        for k, (dy, dx) in enumerate(offsets):
            moved = np.zeros_like(fg)
            moved[max(0, dy) : h + min(0, dy), max(0, dx) : w + min(0, dx)] = fg[
                max(0, -dy) : h - max(0, dy), max(0, -dx) : w - max(0, dx)
            ]
            out = np.where(moved & (out == bg), np.uint8(TRUE + 1 + k), out).astype(np.uint8)
        return out if not np.array_equal(out, a) else None

    return prim


def _outline(conn: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        fg = np.pad(a != bg, 1)
        near = fg[:-2, 1:-1] | fg[2:, 1:-1] | fg[1:-1, :-2] | fg[1:-1, 2:]
        if conn == "8":
            near |= fg[:-2, :-2] | fg[:-2, 2:] | fg[2:, :-2] | fg[2:, 2:]
        paint = near & (a == bg)
        if not paint.any():
            return None
        return np.where(paint, np.uint8(TRUE), a).astype(np.uint8)

    return prim


def _interior() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        p = np.pad(a.astype(np.int16), 1, constant_values=-1)
        mid = p[1:-1, 1:-1]
        inner = (mid != bg) & (p[:-2, 1:-1] == mid) & (p[2:, 1:-1] == mid)
        inner &= (p[1:-1, :-2] == mid) & (p[1:-1, 2:] == mid)
        if not inner.any():
            return None
        return np.where(inner, np.uint8(TRUE), a).astype(np.uint8)

    return prim


def _frame() -> Prim:
    def prim(a: Array, ctx: Context) -> Array:
        out = a.copy()
        out[0, :] = out[-1, :] = out[:, 0] = out[:, -1] = TRUE
        return out

    return prim


def _trim() -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        return a[1:-1, 1:-1] if min(a.shape) > 2 else None

    return prim


def gravity(direction: str) -> Prim:
    """Let every foreground cell fall toward a side (``down``, ``up``, ``left``, ``right``), keeping order."""

    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        b = a if direction in ("down", "up") else a.T
        if direction in ("up", "left"):
            b = b[::-1]
        # A stable sort on the foreground mask moves background cells first, keeping order.
        order = np.argsort(b != bg, axis=0, kind="stable")
        out = np.take_along_axis(b, order, axis=0)
        if direction in ("up", "left"):
            out = out[::-1]
        return np.ascontiguousarray(out if direction in ("down", "up") else out.T)

    return prim


def _shift(direction: str) -> Prim:
    dy, dx = {"down": (1, 0), "up": (-1, 0), "right": (0, 1), "left": (0, -1)}[direction]

    def prim(a: Array, ctx: Context) -> Array | None:
        h, w = a.shape
        out = np.full_like(a, bg_for(a, ctx))
        out[max(0, dy) : h + min(0, dy), max(0, dx) : w + min(0, dx)] = a[
            max(0, -dy) : h - max(0, dy), max(0, -dx) : w - max(0, dx)
        ]
        return out

    return prim


def _symmetric(a: Array, transforms: tuple[Callable[[Array], Array], ...], hole: int) -> Array | None:
    b = a
    for _ in range(2):
        for t in transforms:
            b = np.where(b == hole, t(b), b)
    if np.any(b == hole) or any(not np.array_equal(t(b), b) for t in transforms):
        return None
    return b.astype(np.uint8)


def _sym(mode: str) -> Prim:
    transforms = _SYM[mode]

    def prim(a: Array, ctx: Context) -> Array | None:
        if mode in ("rot", "d") and a.shape[0] != a.shape[1]:
            return None
        # The hole colour is unknown; the rarest colour that completes a symmetry is the likeliest.
        for hole in reversed(ranked_colours(a)):
            done = _symmetric(a, transforms, hole)
            if done is not None:
                return done
        return None

    return prim


def _extend(mode: str) -> Prim:
    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        out = a.astype(np.int16)
        for direction in EXTENSIONS[mode]:
            r = ray(a, bg, direction)
            out = np.where((out == bg) & (r >= 0), r, out)
        return out.astype(np.uint8)

    return prim


def _connect(axis: str, label: bool = False) -> Prim:
    pairs = {
        "h": (("left", "right"),),
        "v": (("up", "down"),),
        "hv": (("left", "right"), ("up", "down")),
        "x": (("ul", "dr"), ("ur", "dl")),
    }

    def prim(a: Array, ctx: Context) -> Array | None:
        bg = bg_for(a, ctx)
        out = a.astype(np.int16)
        for one, other in pairs[axis]:
            r1, r2 = ray(a, bg, one), ray(a, bg, other)
            out = np.where((out == bg) & (r1 >= 0) & (r1 == r2), TRUE if label else r1, out)
        return out.astype(np.uint8)

    return prim


FAMILIES = (
    Family("fill", (), 2, _fill, "label the background cells enclosed by foreground", "same"),
    Family("holesize", (), 2, _holesize, "label each enclosed background region by its size", "same"),
    Family(
        "emptylines", (("h", "v", "hv"),), 2, _empty_lines, "label the rows or columns left empty", "same"
    ),
    Family(
        "stripes", (("h", "v"),), 2, _stripes, "fill each row (or column) with its commonest colour", "same"
    ),
    Family("vacant", (("2", "3"),), 2, _vacant, "label the background squares of a size left empty", "same"),
    Family(
        "fillin", (), 2, _fill_own, "paint each enclosed background region in its enclosing colour", "same"
    ),
    Family("outline", (("4", "8"),), 2, _outline, "label the background cells next to foreground", "same"),
    Family("regions", (), 2, _regions, "label the largest background region 11, the smallest 12", "same"),
    Family("stamp", (("4", "8"),), 2, _stamp, "label the background beside each cell by direction", "same"),
    Family("interior", (), 3, _interior, "label the foreground cells surrounded by their own colour", "same"),
    Family("frame", (), 3, _frame, "label the grid's border cells", "same"),
    Family("gravity", (("down", "up", "left", "right"),), 2, gravity, "let foreground cells fall", "same"),
    Family("shift", (("down", "up", "left", "right"),), 2, _shift, "move everything one cell", "same"),
    Family("sym", (SYMMETRIES,), 2, _sym, "complete a symmetry by filling the cells of one colour", "same"),
    Family(
        "extend", (tuple(EXTENSIONS),), 2, _extend, "shoot lines from foreground cells to the border", "same"
    ),
    Family("connect", (("h", "v", "hv", "x"),), 2, _connect, "join cells of one colour on a line", "same"),
    Family(
        "bridge",
        (("h", "v", "hv", "x"),),
        2,
        lambda axis: _connect(axis, label=True),
        "label the cells between two of one colour on a line",
        "same",
    ),
    Family("trim", (), 2, _trim, "remove the outermost rows and columns", shape="shrink"),
)
