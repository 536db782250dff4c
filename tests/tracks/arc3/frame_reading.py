"""Reading a board off a frame, as a person looking at the screen would: for the human-style players.

Nothing here reads a Level or calls a solver; every function takes a 64x64 frame of colours 0-15.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from math import gcd

import numpy as np

Cell = tuple[int, int]
STEPS = {"ACTION1": (0, -1), "ACTION2": (0, 1), "ACTION3": (-1, 0), "ACTION4": (1, 0)}


def pixels(frame: np.ndarray, colour: int) -> list[Cell]:
    """The (x, y) of every pixel of ``colour``."""
    ys, xs = np.nonzero(frame == colour)
    return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]


def cell_size(frame: np.ndarray, colour: int) -> int:
    """Pixels per board cell: the gcd of the lengths of the colour's runs along rows and columns."""
    size = 0
    for lines in (frame, frame.T):
        for line in lines:
            mask = np.concatenate(([0], (line == colour).astype(np.int8), [0]))
            edges = np.flatnonzero(np.diff(mask))
            for start, end in zip(edges[::2], edges[1::2], strict=True):
                size = gcd(size, int(end - start))
    return size


class Grid:
    """The frame cut into cells of ``size`` pixels, lined up with the pixels of ``anchor`` colour."""

    def __init__(self, frame: np.ndarray, anchor: int, size: int | None = None) -> None:
        self.size = size or cell_size(frame, anchor)
        spots = pixels(frame, anchor)
        self.ox = min(x for x, _ in spots) % self.size
        self.oy = min(y for _, y in spots) % self.size

    def cell_of(self, x: int, y: int) -> Cell:
        """The cell holding frame pixel (x, y)."""
        return (x - self.ox) // self.size, (y - self.oy) // self.size

    def block(self, frame: np.ndarray, cell: Cell) -> np.ndarray:
        """The pixels of one cell."""
        x, y = self.ox + cell[0] * self.size, self.oy + cell[1] * self.size
        return frame[y : y + self.size, x : x + self.size]

    def cells(self) -> list[Cell]:
        """Every cell wholly inside the frame."""
        count_x, count_y = (64 - self.ox) // self.size, (64 - self.oy) // self.size
        return [(cx, cy) for cy in range(count_y) for cx in range(count_x)]

    def with_colour(self, frame: np.ndarray, colour: int) -> list[Cell]:
        """The cells showing any pixel of ``colour``, in row-major order."""
        return [c for c in self.cells() if bool((self.block(frame, c) == colour).any())]

    def middle(self, cell: Cell) -> Cell:
        """The frame pixel at a cell's middle, to click it."""
        return self.ox + cell[0] * self.size + self.size // 2, self.oy + cell[1] * self.size + self.size // 2


def route(start: Cell, goal: Cell, free: Iterable[Cell]) -> list[str]:
    """Arrow keys along a shortest walk from start to goal through free cells (empty if none)."""
    allowed = set(free) | {goal}
    came: dict[Cell, tuple[Cell, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            break
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
