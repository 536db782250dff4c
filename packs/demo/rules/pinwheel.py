"""Pinwheel: shapes beside a pivot cell are copied three times, turning a quarter about it.

A single cell of a colour found nowhere else is the pivot. Shapes lie in one quarter around it.
The output adds copies of every shape turned by a quarter, a half and three quarters of a turn
about the pivot, each copy in its shape's own colour, so that the picture looks the same after
any quarter turn about the pivot.
"""

from __future__ import annotations

import random

RULE = "pinwheel"

Grid = list[list[int]]
Cell = tuple[int, int]

_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _blob(rng: random.Random, size: int) -> list[Cell]:
    """A random 4-connected shape of ``size`` cells, as offsets from its first cell."""
    cells = [(0, 0)]
    while len(cells) < size:
        taken = set(cells)
        # Sorted so that the choice depends on the random stream only, never on set order.
        frontier = sorted({(r + dr, c + dc) for r, c in cells for dr, dc in _STEPS4} - taken)
        cells.append(rng.choice(frontier))
    return cells


def _rotate(grid: Grid) -> Grid:
    """The grid turned a quarter clockwise."""
    return [list(row) for row in zip(*grid[::-1], strict=True)]


def _quarter(rng: random.Random, reach: int, colours: list[int], count: int) -> dict[Cell, int]:
    """Shapes as offsets from the pivot, kept inside the quarter ``-reach <= dr < 0, -reach <= dc <= 0``.

    The four quarter turns of that quarter tile the plane around the pivot, so no copy ever lands
    on a shape or on another copy.
    """
    cells: dict[Cell, int] = {}
    for _ in range(count):
        colour = rng.choice(colours)
        start = (rng.randint(-reach, -1), rng.randint(-reach, 0))
        for dr, dc in _blob(rng, rng.randint(2, 6)):
            r, c = start[0] + dr, start[1] + dc
            if -reach <= r < 0 and -reach <= c <= 0:
                cells[(r, c)] = colour
    return cells


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: a pivot and a few shapes in one quarter around it."""
    height = _level(rng, diff_lb, diff_ub, 7, 30)
    width = _level(rng, diff_lb, diff_ub, 7, 30)
    palette = _level(rng, diff_lb, diff_ub, 1, 3)
    background, pivot_colour, *colours = rng.sample(range(10), 2 + palette)
    pivot = (
        rng.randint(height // 3, height - 1 - height // 3),
        rng.randint(width // 3, width - 1 - width // 3),
    )
    reach = min(pivot[0], height - 1 - pivot[0], pivot[1], width - 1 - pivot[1])
    for _ in range(50):
        cells = _quarter(rng, reach, colours, _level(rng, diff_lb, diff_ub, 1, 4))
        used = [colour for _, colour in sorted(cells.items())]
        # Every shape colour appears at least twice, so the pivot is the only lone colour.
        if used and min(used.count(colour) for colour in used) >= 2:
            break
    else:
        raise ValueError("no usable shapes in 50 tries")
    grid = [[background] * width for _ in range(height)]
    grid[pivot[0]][pivot[1]] = pivot_colour
    output = [row[:] for row in grid]
    for (dr, dc), colour in sorted(cells.items()):
        grid[pivot[0] + dr][pivot[1] + dc] = colour
        for _ in range(4):
            output[pivot[0] + dr][pivot[1] + dc] = colour
            dr, dc = dc, -dr
    for _ in range(rng.randrange(4)):
        grid, output = _rotate(grid), _rotate(output)
    return {"input": grid, "output": output}


def verify(grid: Grid) -> Grid:
    """Add the three quarter-turn copies of every shape cell about the lone-coloured pivot."""
    counts = [0] * 10
    for row in grid:
        for colour in row:
            counts[colour] += 1
    background = counts.index(max(counts))
    lone = [colour for colour in range(10) if counts[colour] == 1]
    output = [row[:] for row in grid]
    if len(lone) != 1:
        return output
    height, width = len(grid), len(grid[0])
    pr, pc = next((r, c) for r in range(height) for c in range(width) if grid[r][c] == lone[0])
    for r in range(height):
        for c in range(width):
            colour = grid[r][c]
            if colour in (background, lone[0]):
                continue
            dr, dc = r - pr, c - pc
            for _ in range(3):
                # A quarter turn clockwise in (row, column) offsets.
                dr, dc = dc, -dr
                if 0 <= pr + dr < height and 0 <= pc + dc < width and grid[pr + dr][pc + dc] == background:
                    output[pr + dr][pc + dc] = colour
    return output
