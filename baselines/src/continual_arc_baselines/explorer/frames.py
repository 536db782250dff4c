"""What the explorer reads in a frame: its cells, its blobs, the colour that moves and where it is.

Frames arrive as text (``f1:`` then colour runs,
[`continual_arc.core.games.encode_frame`][continual_arc.core.games.encode_frame]). `decode` turns one into a
64 x 64 ``uint8`` array. `blobs` finds its connected patches of one colour (8-neighbours: a diagonal stroke,
such as a mirror, is one thing), each with a cell to click near its middle.
`moved_colour` and `changed_before` compare two frames: which colour moved under an
action (the rarest colour among the cells that changed), and what the changed cells held before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

__all__ = ["Blob", "Blobs", "blobs", "centroid", "changed_before", "decode", "moved_colour", "nearest_cell"]

_RUN = re.compile(r"([a-p])(\d*)")
_SIDE = 64


def decode(text: str) -> np.ndarray:
    """The 64 x 64 ``uint8`` frame a text spells (no validation: the environment made it)."""
    runs = _RUN.findall(text, 3)
    colours = np.frombuffer("".join(letter for letter, _ in runs).encode(), dtype=np.uint8) - ord("a")
    lengths = np.array([int(n) if n else 1 for _, n in runs], dtype=np.int64)
    return np.repeat(colours, lengths).reshape(_SIDE, _SIDE)


@dataclass(frozen=True)
class Blob:
    """A connected patch of one colour.

    Attributes:
        colour: its colour (0-15).
        size: its cells.
        x: the column of a cell of it near its middle (where a click lands).
        y: that cell's row.
    """

    colour: int
    size: int
    x: int
    y: int


def _row_runs(grid: np.ndarray) -> list[list[tuple[int, int, int]]]:
    """Each row's runs as (first column, last column, colour)."""
    rows = []
    for row in grid:
        cuts = np.flatnonzero(row[1:] != row[:-1]) + 1
        starts = [0, *cuts.tolist()]
        ends = [*(cuts - 1).tolist(), _SIDE - 1]
        rows.append([(a, b, int(row[a])) for a, b in zip(starts, ends, strict=True)])
    return rows


@dataclass(frozen=True)
class Blobs:
    """A frame's blobs, and which blob each cell belongs to.

    Attributes:
        found: every blob, in the order of its first cell (row-major).
        labels: a 64 x 64 array of each cell's blob index in ``found``.
    """

    found: list[Blob]
    labels: np.ndarray

    def at(self, x: int, y: int) -> Blob:
        """The blob holding cell (x, y)."""
        return self.found[int(self.labels[y, x])]


def blobs(grid: np.ndarray) -> Blobs:
    """The frame's blobs: runs of a row joined to the runs of one colour they touch in the row above.

    A run touches one above it by a side or a corner, so cells meeting only at a corner (the
    pixels of a diagonal line) are one blob.
    """
    runs = [(y, a, b, colour) for y, row in enumerate(_row_runs(grid)) for a, b, colour in row]
    parent = list(range(len(runs)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    above: list[int] = []
    here: list[int] = []
    row_of = -1
    for index, (y, a, b, colour) in enumerate(runs):
        if y != row_of:
            above, here, row_of = here, [], y
        for other in above:
            _, c, d, other_colour = runs[other]
            if other_colour == colour and c <= b + 1 and a <= d + 1:
                parent[root(index)] = root(other)
        here.append(index)
    members: dict[int, list[int]] = {}
    for index in range(len(runs)):
        members.setdefault(root(index), []).append(index)
    found = []
    labels = np.zeros((_SIDE, _SIDE), dtype=np.int32)
    for number, group in enumerate(sorted(members.values())):
        middle = runs[group[len(group) // 2]]
        size = 0
        for i in group:
            y, a, b, _ = runs[i]
            labels[y, a : b + 1] = number
            size += b - a + 1
        found.append(Blob(middle[3], size, (middle[1] + middle[2]) // 2, middle[0]))
    return Blobs(found, labels)


def moved_colour(before: np.ndarray, after: np.ndarray) -> int | None:
    """The colour that moved between two frames: the rarest colour (in ``after``) among changed cells."""
    changed = before != after
    if not changed.any():
        return None
    counts = np.bincount(after.ravel(), minlength=16)
    present = sorted({int(c) for c in np.unique(after[changed])}, key=lambda c: (counts[c], c))
    return present[0]


def changed_before(before: np.ndarray, after: np.ndarray) -> list[int]:
    """The colours the changed cells held before, rarest in ``before`` first."""
    changed = before != after
    if not changed.any():
        return []
    counts = np.bincount(before.ravel(), minlength=16)
    return sorted({int(c) for c in np.unique(before[changed])}, key=lambda c: (counts[c], c))


def centroid(grid: np.ndarray, colour: int) -> tuple[float, float] | None:
    """The mean (x, y) of the cells of ``colour``, or ``None`` when there are none."""
    ys, xs = np.nonzero(grid == colour)
    if not len(xs):
        return None
    return float(xs.mean()), float(ys.mean())


def nearest_cell(grid: np.ndarray, point: tuple[float, float], colour: int) -> tuple[float, float] | None:
    """The (dx, dy) from ``point`` to the nearest cell of ``colour`` (Manhattan), or ``None``."""
    ys, xs = np.nonzero(grid == colour)
    if not len(xs):
        return None
    dx, dy = xs - point[0], ys - point[1]
    best = int(np.argmin(np.abs(dx) + np.abs(dy)))
    return float(dx[best]), float(dy[best])
