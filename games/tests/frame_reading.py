"""Reading a board off a frame, as a person looking at the screen would: for the human-style players.

Nothing here reads a Level or calls a solver: the helpers see 64x64 frames of colours 0-15 and, to
explore, the actions a session offers.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping
from math import gcd
from typing import TypeVar

import numpy as np

from continual_arc_games.base import Move
from continual_arc_games.session import Session

Cell = tuple[int, int]
S = TypeVar("S", bound=Hashable)
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


def keys_to(came: Mapping[S, tuple[S, str] | None], end: S) -> list[str]:
    """The keys of the path a breadth-first search recorded in ``came`` (state: parent and key)."""
    keys: list[str] = []
    link = came[end]
    while link is not None:
        keys.append(link[1])
        link = came[link[0]]
    return keys[::-1]


def explore(session: Session, remember: int = 1) -> int:
    """The fewest moves to a win, by trying every action from every position seen, breadth first.

    Only frames are read: a position is the last ``remember`` frames (two where one frame does not
    show the whole state), and a lost play is never carried on. Returns -1 when nothing wins.
    """
    start = (session.frame.tobytes(),) * remember
    seen = {start}
    queue: deque[tuple[tuple[str, ...], tuple[bytes, ...]]] = deque([((), start)])
    while queue:
        tried, position = queue.popleft()
        for action in session.actions:
            session.reset()
            for key in (*tried, action):
                session.step(Move(key))
            if session.won:
                return len(tried) + 1
            after = (*position[1:], session.frame.tobytes())
            if not session.lost and after not in seen:
                seen.add(after)
                queue.append(((*tried, action), after))
    return -1
