"""NumPy helpers for grids: conversion, colour counts and background.

Inside the DSL a grid is a 2-D ``uint8`` array. Values 0-9 are ARC colours; values from
`SENTINEL` up are labels that a primitive paints (a mask's "true" cell, an object's rank)
and that only a fitted colour map turns back into colours, so an intermediate grid may hold them
but a program's output may not.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

# The core's grid types, named here once for the whole DSL (the core's modules are moving).
from continual_arc.grids import MAX_SIDE, Grid, Pair

__all__ = [
    "FALSE",
    "SENTINEL",
    "TRUE",
    "Array",
    "Context",
    "Grid",
    "Mask",
    "Pair",
    "background",
    "bg_for",
    "colour_counts",
    "counts_without",
    "is_valid_output",
    "key_of",
    "ranked_colours",
    "to_array",
    "to_grid",
]

Array = npt.NDArray[np.uint8]
"""A grid inside the DSL: a 2-D ``uint8`` array (colours 0-9, labels from 10 up)."""

Mask = npt.NDArray[np.bool_]
"""A choice of a grid's cells: a 2-D boolean array of the grid's shape."""

SENTINEL = 10
"""The first label value: anything at or above it is not yet a colour."""

FALSE = 10
"""The label of a mask's false cell."""

TRUE = 11
"""The label of a mask's true cell (and of painted cells: holes filled, outlines drawn)."""


def to_array(grid: Grid) -> Array:
    """A validated grid as a ``uint8`` array."""
    return np.array(grid, dtype=np.uint8)


def is_valid_output(arr: Array) -> bool:
    """Whether an array is a valid ARC grid: 1-30 rows and columns, every value a colour 0-9."""
    return (
        arr.ndim == 2
        and 0 < arr.shape[0] <= MAX_SIDE
        and 0 < arr.shape[1] <= MAX_SIDE
        and int(arr.max()) < SENTINEL
    )


def to_grid(arr: Array) -> Grid | None:
    """An array as a [`Grid`][continual_arc.core.grids.Grid], or ``None`` when it is not a valid ARC grid."""
    if not is_valid_output(arr):
        return None
    return tuple(tuple(row) for row in arr.tolist())


def key_of(arr: Array) -> bytes:
    """Bytes that identify an array by shape and content (for deduplication and caches)."""
    return bytes((arr.shape[0], arr.shape[1])) + arr.tobytes()


def colour_counts(arr: Array) -> npt.NDArray[np.intp]:
    """How many cells hold each value, indexed by value (at least 16 entries)."""
    return np.bincount(arr.ravel(), minlength=16)


def counts_without(arr: Array, value: int) -> npt.NDArray[np.intp]:
    """`colour_counts` with ``value``'s count at 0 (``value`` may be a label ``arr`` lacks)."""
    counts = colour_counts(arr)
    if value < len(counts):
        counts[value] = 0
    return counts


def ranked_colours(arr: Array) -> list[int]:
    """The values present, most frequent first; ties go to the lower value."""
    counts = colour_counts(arr)
    present = np.flatnonzero(counts)
    # A stable sort on the negated counts keeps equal counts in ascending value order.
    order = np.argsort(-counts[present], kind="stable")
    return [int(v) for v in present[order]]


def background(arr: Array) -> int:
    """The most frequent value of an array (the lowest one on a tie)."""
    return int(np.argmax(colour_counts(arr)))


class Context:
    """What every step of a program may consult besides its own grid: the program's input.

    Attributes:
        original: the program's input grid.
        bg: its background (most frequent colour).
    """

    __slots__ = ("bg", "original")

    def __init__(self, original: Array) -> None:
        self.original = original
        self.bg = background(original)


def bg_for(arr: Array, ctx: Context) -> int:
    """The background a primitive should use on ``arr``, a grid made from ``ctx.original``.

    The input's most frequent colour is the background whenever it still occurs in ``arr``: a
    cropped object may be mostly foreground, and its own most frequent colour would then be the
    wrong one.
    """
    if (arr == ctx.bg).any():
        return ctx.bg
    return background(arr)
