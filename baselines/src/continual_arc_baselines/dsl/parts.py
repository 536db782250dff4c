"""Cutting a grid into parts: by separator lines, or into halves.

A separator is a full row or column of one colour other than the background. The parts are the
rectangles the separators leave between them, in reading order.
"""

from __future__ import annotations

import numpy as np

from .grid import Array, Mask

__all__ = [
    "SPLITS",
    "cells_or_quarters",
    "halves",
    "runs",
    "separator_layout",
    "separator_lines",
    "separator_parts",
    "split",
    "square_blocks",
]

SPLITS = ("h", "v", "q", "sep")
"""How `split` cuts: left and right halves, top and bottom halves, four quadrants, or by
separators (or, when there are none, into squares along the long side)."""


def runs(is_sep: Mask) -> list[tuple[int, int]]:
    """The maximal runs of non-separator lines, as (start, stop)."""
    runs = []
    start = None
    for i, sep in enumerate([*is_sep.tolist(), True]):
        if not sep and start is None:
            start = i
        elif sep and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _separator_colour(a: Array, rows: Mask, cols: Mask) -> int:
    """The colour of the separators among the uniform lines: the one seen least off its lines.

    A grid cut by lines of one colour may also have a uniform row or column of another (a wide
    object, an empty margin); the cutting colour is the one that is mostly lines.
    """
    colours: list[int] = sorted({*a[rows, 0].tolist(), *a[0, cols].tolist()})
    off = ~(rows[:, None] | cols[None, :])
    return min(colours, key=lambda c: (int(np.count_nonzero((a == c) & off)), c))


def separator_lines(a: Array, bg: int) -> tuple[Mask, Mask] | tuple[None, None]:
    """Which rows and which columns are separators; ``(None, None)`` when there are none.

    A separator is a uniform line of a colour other than the background, of the colour that is
    mostly lines.
    """
    sep_rows = np.all(a == a[:, :1], axis=1) & (a[:, 0] != bg)
    sep_cols = np.all(a == a[:1, :], axis=0) & (a[0, :] != bg)
    if not (sep_rows.any() or sep_cols.any()):
        return None, None
    colour = _separator_colour(a, sep_rows, sep_cols)
    return sep_rows & (a[:, 0] == colour), sep_cols & (a[0, :] == colour)


def separator_layout(a: Array, bg: int) -> list[list[Array]] | None:
    """The parts between separator lines as rows of parts, or ``None`` when there are fewer than two."""
    sep_rows, sep_cols = separator_lines(a, bg)
    if sep_rows is None or sep_cols is None:
        return None
    col_runs = runs(sep_cols)
    layout = [[a[r0:r1, c0:c1] for c0, c1 in col_runs] for r0, r1 in runs(sep_rows)]
    return layout if len(layout) * len(col_runs) >= 2 else None


def separator_parts(a: Array, bg: int) -> list[Array] | None:
    """The parts between separator lines in reading order, or ``None`` when there are fewer than two."""
    layout = separator_layout(a, bg)
    return None if layout is None else [part for row in layout for part in row]


def square_blocks(a: Array) -> list[Array] | None:
    """The grid cut into equal squares along its long side (a 3 x 9 grid into three 3 x 3), if it can be."""
    h, w = a.shape
    if h == w or max(h, w) % min(h, w):
        return None
    n = min(h, w)
    return [a[i : i + n] for i in range(0, h, n)] if h > w else [a[:, i : i + n] for i in range(0, w, n)]


def halves(a: Array, axis: int) -> tuple[Array, Array] | None:
    """The two halves of ``a`` across ``axis`` (1: left and right); an odd middle line must be uniform."""
    b = a if axis == 0 else a.T
    n = b.shape[0]
    if n < 2:
        return None
    half = n // 2
    if n % 2:
        middle = b[half]
        if not np.all(middle == middle[0]):
            return None
    first, second = b[:half], b[n - half :]
    return (first, second) if axis == 0 else (first.T, second.T)


def split(a: Array, bg: int, how: str) -> list[Array] | None:
    """The parts of ``a`` cut as ``how`` (one of `SPLITS`) says."""
    if how == "sep":
        return separator_parts(a, bg) or square_blocks(a)
    if how == "q":
        rows = halves(a, 0)
        if rows is None:
            return None
        quarters = [halves(half, 1) for half in rows]
        return [q for pair in quarters if pair is not None for q in pair] if all(quarters) else None
    pair = halves(a, 1 if how == "h" else 0)
    return list(pair) if pair is not None else None


def cells_or_quarters(a: Array, bg: int) -> list[Array] | None:
    """The parts between separator lines (or square blocks), else the four quarters."""
    return split(a, bg, "sep") or split(a, bg, "q")
