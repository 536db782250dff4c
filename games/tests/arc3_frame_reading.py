"""What a person sees in a frame: blobs of colour, a board's cells measured on the player, routes.

Shared by the human-style players of the arc3 games; it reads frames only, never a Level.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import numpy as np

Cell = tuple[int, int]
STEPS = {"ACTION1": (0, -1), "ACTION2": (0, 1), "ACTION3": (-1, 0), "ACTION4": (1, 0)}


def pixels(frame: np.ndarray, colour: int) -> list[Cell]:
    """Every (x, y) of the frame showing ``colour``, row by row."""
    ys, xs = np.nonzero(frame == colour)
    return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]


def blobs(points: Iterable[Cell]) -> list[list[Cell]]:
    """The 4-connected groups of the given pixels, each sorted, in order of their first pixel."""
    left = set(points)
    groups = []
    for start in sorted(left, key=lambda p: (p[1], p[0])):
        if start not in left:
            continue
        left.remove(start)
        group = [start]
        for x, y in group:
            for dx, dy in STEPS.values():
                if (x + dx, y + dy) in left:
                    left.remove((x + dx, y + dy))
                    group.append((x + dx, y + dy))
        groups.append(sorted(group, key=lambda p: (p[1], p[0])))
    return groups


def box(points: Iterable[Cell]) -> tuple[int, int, int, int]:
    """The smallest (x0, y0, x1, y1) holding the points, bounds included."""
    xs, ys = zip(*points, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def lattice(frame: np.ndarray, anchor: int = 9) -> tuple[int, Cell]:
    """The pixels a board cell spans and the frame pixel where cell (0, 0) would start.

    Measured on a solid one-cell square of the ``anchor`` colour (the player, in most games).
    """
    x0, y0, x1, _ = box(pixels(frame, anchor))
    size = x1 - x0 + 1
    return size, (x0 % size, y0 % size)


def cells(frame: np.ndarray, size: int, origin: Cell) -> dict[Cell, np.ndarray]:
    """The pixels of every whole board cell inside the frame, by cell."""
    ox, oy = origin
    return {
        (cx, cy): frame[oy + cy * size : oy + (cy + 1) * size, ox + cx * size : ox + (cx + 1) * size]
        for cy in range((64 - oy) // size)
        for cx in range((64 - ox) // size)
    }


def route(start: Cell, goal: Cell, free: Iterable[Cell]) -> list[str]:
    """Arrow keys along a shortest walk from start to goal through free cells; [] if none."""
    allowed = set(free) | {goal}
    came: dict[Cell, tuple[Cell, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for action, (dx, dy) in STEPS.items():
            nxt = (cell[0] + dx, cell[1] + dy)
            if nxt in allowed and nxt not in came:
                came[nxt] = (cell, action)
                queue.append(nxt)
    keys: list[str] = []
    link = came.get(goal)
    while link is not None:
        cell, action = link
        keys.append(action)
        link = came[cell]
    return keys[::-1]
