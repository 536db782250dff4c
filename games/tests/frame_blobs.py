"""Helpers for the scripted players: the blobs of one colour in a frame, and their middles."""

from __future__ import annotations

import numpy as np

Cell = tuple[int, int]

_STEPS: tuple[Cell, ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))


def find_blobs(frame: np.ndarray, colour: int) -> list[list[Cell]]:
    """The (x, y) pixels of ``colour`` grouped into 4-connected blobs, by their first pixel row-major."""
    ys, xs = np.nonzero(frame == colour)
    left = {(int(x), int(y)) for x, y in zip(xs, ys, strict=True)}
    blobs: list[list[Cell]] = []
    for start in sorted(left, key=lambda c: (c[1], c[0])):
        if start not in left:
            continue
        left.remove(start)
        blob = [start]
        for x, y in blob:  # the list grows as it is walked: a breadth-first fill
            for dx, dy in _STEPS:
                if (x + dx, y + dy) in left:
                    left.remove((x + dx, y + dy))
                    blob.append((x + dx, y + dy))
        blobs.append(blob)
    return blobs


def middle_of(blob: list[Cell]) -> Cell:
    """The middle of a blob's bounding box (rounded down)."""
    xs, ys = [x for x, _ in blob], [y for _, y in blob]
    return (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
