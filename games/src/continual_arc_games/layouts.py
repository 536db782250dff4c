"""Small layout helpers for generators: grids of codes, mazes, rooms and distances.

All of them take an explicit ``random.Random`` and never iterate over a set or a dict whose order
could depend on hashing, so a generator built on them stays a pure function of its rng.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable

__all__ = [
    "Cell",
    "Grid",
    "bordered_room",
    "carve_maze",
    "distances",
    "inner_cells",
    "neighbours",
    "new_grid",
    "ordered",
    "passable",
]

Cell = tuple[int, int]
Grid = list[list[int]]

_STEPS: tuple[Cell, ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))


def new_grid(width: int, height: int, fill: int) -> Grid:
    """A mutable height x width grid holding ``fill`` everywhere."""
    return [[fill] * width for _ in range(height)]


def bordered_room(width: int, height: int, wall: int, floor: int) -> Grid:
    """A grid of ``floor`` ringed by ``wall``."""
    grid = new_grid(width, height, wall)
    for y in range(1, height - 1):
        for x in range(1, width - 1):
            grid[y][x] = floor
    return grid


def inner_cells(width: int, height: int) -> list[Cell]:
    """The cells inside a ``width`` x ``height`` room's ring of walls, in row-major order."""
    return [(x, y) for y in range(1, height - 1) for x in range(1, width - 1)]


def neighbours(cell: Cell, width: int, height: int) -> list[Cell]:
    """The in-bounds cells up, down, left and right of ``cell``, in that order."""
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in _STEPS if 0 <= x + dx < width and 0 <= y + dy < height]


def carve_maze(rng: random.Random, cols: int, rows: int, wall: int, floor: int) -> Grid:
    """A perfect maze (one path between any two rooms) by a randomised depth-first search.

    Rooms sit at odd coordinates of a (2 * cols + 1) x (2 * rows + 1) grid; the cells between two
    joined rooms are opened too, and everything else stays ``wall``.
    """
    width, height = 2 * cols + 1, 2 * rows + 1
    grid = new_grid(width, height, wall)
    start = (2 * rng.randrange(cols) + 1, 2 * rng.randrange(rows) + 1)
    grid[start[1]][start[0]] = floor
    stack = [start]
    while stack:
        x, y = stack[-1]
        options = [
            (x + 2 * dx, y + 2 * dy)
            for dx, dy in _STEPS
            if 0 < x + 2 * dx < width and 0 < y + 2 * dy < height and grid[y + 2 * dy][x + 2 * dx] == wall
        ]
        if not options:
            stack.pop()
            continue
        nx, ny = rng.choice(options)
        grid[(y + ny) // 2][(x + nx) // 2] = floor
        grid[ny][nx] = floor
        stack.append((nx, ny))
    return grid


def passable(grid: Grid, wall: int, shut: Iterable[Cell] = ()) -> Callable[[Cell], bool]:
    """A test for the cells of ``grid`` that hold no ``wall`` and are not among ``shut``."""
    closed = frozenset(shut)

    def test(cell: Cell) -> bool:
        return grid[cell[1]][cell[0]] != wall and cell not in closed

    return test


def distances(start: Cell, passable: Callable[[Cell], bool], width: int, height: int) -> dict[Cell, int]:
    """Steps from ``start`` to every cell reachable through passable cells (start included)."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nxt in neighbours(cell, width, height):
            if nxt not in seen and passable(nxt):
                seen[nxt] = seen[cell] + 1
                queue.append(nxt)
    return seen


def ordered(cells: Iterable[Cell]) -> list[Cell]:
    """Cells in row-major order, for drawing from them with an rng independently of set order."""
    return sorted(cells, key=lambda c: (c[1], c[0]))
