"""Helpers for generators that build on `layouts.carve_maze`: rooms, ways and loops.

A maze from ``carve_maze`` has its rooms at odd x and y and the passages between two rooms at the
cells where exactly one of x and y is even. These helpers take an explicit ``random.Random`` and
iterate in row-major order only, so generators built on them stay pure functions of their rng.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from .base import RejectLevel
from .engine import DELTAS
from .layouts import Cell, Grid, distances, ordered, passable

__all__ = ["maze_rooms", "maze_way", "open_loops", "place_in_turn", "start_and_exit"]


def maze_rooms(grid: Grid) -> list[Cell]:
    """The rooms of a maze (its cells at odd x and y), in row-major order."""
    return ordered((x, y) for y in range(1, len(grid), 2) for x in range(1, len(grid[0]), 2))


def start_and_exit(rng: random.Random, grid: Grid, wall: int) -> tuple[Cell, Cell]:
    """A start drawn among the rooms, and an exit drawn among the quarter of them farthest from it.

    "Farthest" counts steps through non-``wall`` cells; ties at the quarter's bound are all in.
    """
    rooms = maze_rooms(grid)
    start = rng.choice(rooms)
    from_start = distances(start, passable(grid, wall), len(grid[0]), len(grid))
    far = sorted(from_start[r] for r in rooms)[(3 * len(rooms)) // 4]
    return start, rng.choice([r for r in rooms if from_start[r] >= far])


def maze_way(grid: Grid, wall: int, start: Cell, goal: Cell) -> list[Cell]:
    """The cells of a shortest walk from start to goal through non-``wall`` cells, both included.

    Ties between equally short walks go to the first step in ACTION1-4 order.
    """
    to_goal = distances(goal, passable(grid, wall), len(grid[0]), len(grid))
    way = [start]
    while way[-1] != goal:
        x, y = way[-1]
        steps = ((x + dx, y + dy) for dx, dy in DELTAS.values())
        way.append(next(c for c in steps if to_goal.get(c) == to_goal[(x, y)] - 1))
    return way


def open_loops(
    rng: random.Random, grid: Grid, wall: int, floor: int, shut: Iterable[Cell], loops: int
) -> None:
    """Open up to ``loops`` walls between two rooms that stay joined with the ``shut`` cells closed.

    An opening between two parts that only the shut cells (a gate, a door) keep apart would let the
    player walk round them, so only walls inside one part are candidates.
    """
    closed = list(shut)
    height, width = len(grid), len(grid[0])
    part: dict[Cell, int] = {}
    for room in maze_rooms(grid):
        if room not in part:
            label = len(part)  # any number no earlier part has used
            for cell in distances(room, passable(grid, wall, closed), width, height):
                part[cell] = label
    candidates = []
    for y in range(1, height - 1):
        for x in range(1, width - 1):
            if grid[y][x] == wall and x % 2 != y % 2:
                a, b = ((x - 1, y), (x + 1, y)) if x % 2 == 0 else ((x, y - 1), (x, y + 1))
                if a in part and b in part and part[a] == part[b]:
                    candidates.append((x, y))
    for x, y in rng.sample(candidates, min(loops, len(candidates))):
        grid[y][x] = floor


def place_in_turn(
    rng: random.Random,
    grid: Grid,
    wall: int,
    start: Cell,
    gates: list[Cell],
    fits: Callable[[Cell, list[Cell]], bool],
    reason: str,
) -> list[Cell]:
    """One cell per gate (a key per door, a switch per gate), the i-th where the (i-1)-th gate opens up.

    The i-th is drawn among the cells that ``fits`` (given those placed so far) reachable from the
    start with the i-th gate and those after it shut, preferring the ones the gate before it kept
    shut, so that they are met in turn, each after crossing the gate before it.

    Raises:
        RejectLevel: with ``reason``, when no reachable cell fits.
    """
    placed: list[Cell] = []
    before: set[Cell] = set()
    for i in range(len(gates)):
        region = distances(start, passable(grid, wall, gates[i:]), len(grid[0]), len(grid))
        spots = [c for c in ordered(region) if fits(c, placed)]
        fresh = [c for c in spots if c not in before]
        if not spots:
            raise RejectLevel(reason)
        placed.append(rng.choice(fresh or spots))
        before = set(region)
    return placed
