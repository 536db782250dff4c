"""Repeat by count: the shape is copied to its right once per loose dot, and the dots are cleared.

The grid holds one shape (of one to three colours) and a few loose dots of one colour. In the
output the dots are gone and the shape is followed, to its right, by as many copies of itself as
there were dots, each copy one background column after the last.
"""

from __future__ import annotations

import random

RULE = "repeat-by-count"

Grid = list[list[int]]
Cell = tuple[int, int]

_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
_AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _shape(rng: random.Random, tall: int, wide: int, colours: list[int]) -> dict[Cell, int]:
    """A 4-connected shape that fills every row and column of a ``tall`` x ``wide`` box."""
    while True:
        cells = {(rng.randrange(tall), rng.randrange(wide))}
        target = rng.randint(max(tall, wide) + 1, tall * wide)
        while len(cells) < target:
            # Sorted so that the choice depends on the random stream only, never on set order.
            frontier = sorted(
                {
                    (r + dr, c + dc)
                    for r, c in cells
                    for dr, dc in _STEPS4
                    if 0 <= r + dr < tall and 0 <= c + dc < wide
                }
                - cells
            )
            cells.add(rng.choice(frontier))
        if {r for r, _ in cells} == set(range(tall)) and {c for _, c in cells} == set(range(wide)):
            return {cell: rng.choice(colours) for cell in sorted(cells)}


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: a shape near the left edge and 1-4 dots elsewhere."""
    dots = _level(rng, diff_lb, diff_ub, 1, 4)
    tall, wide = rng.randint(2, 4), rng.randint(2, 4)
    span = (dots + 1) * (wide + 1) - 1
    left = rng.randint(0, 2)
    height = _level(rng, diff_lb, diff_ub, tall + 3, 30)
    width = _level(rng, diff_lb, diff_ub, min(30, left + span + 1), 30)
    background, dot, *colours = rng.sample(range(10), 2 + _level(rng, diff_lb, diff_ub, 2, 3))
    shape = _shape(rng, tall, wide, colours)
    top = rng.randint(0, height - tall)
    grid = [[background] * width for _ in range(height)]
    output = [row[:] for row in grid]
    for (r, c), colour in shape.items():
        grid[top + r][left + c] = colour
        for copy in range(dots + 1):
            if left + c + copy * (wide + 1) < width:
                output[top + r][left + c + copy * (wide + 1)] = colour
    near = {(top + r + dr, left + c + dc) for r, c in shape for dr, dc in _AROUND}
    for _ in range(dots):
        # Dots touch neither the shape nor each other, so each is one object of one cell.
        free = [(r, c) for r in range(height) for c in range(width) if (r, c) not in near]
        r, c = rng.choice(free)
        grid[r][c] = dot
        near.update((r + dr, c + dc) for dr, dc in _AROUND)
    return {"input": grid, "output": output}


def _groups(grid: Grid, background: int) -> list[list[Cell]]:
    """8-connected groups of non-background cells (of any colours), in reading order."""
    height, width = len(grid), len(grid[0])
    seen: set[Cell] = set()
    groups = []
    for start in ((r, c) for r in range(height) for c in range(width)):
        if start in seen or grid[start[0]][start[1]] == background:
            continue
        seen.add(start)
        stack, group = [start], []
        while stack:
            r, c = stack.pop()
            group.append((r, c))
            for dr, dc in _AROUND:
                nr, nc = r + dr, c + dc
                if (
                    0 <= nr < height
                    and 0 <= nc < width
                    and (nr, nc) not in seen
                    and grid[nr][nc] != background
                ):
                    seen.add((nr, nc))
                    stack.append((nr, nc))
        groups.append(group)
    return groups


def verify(grid: Grid) -> Grid:
    """Clear the dots and copy the largest group to its right once per dot."""
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    groups = _groups(grid, background)
    output = [[background] * len(grid[0]) for _ in grid]
    if not groups:
        return output
    shape = max(groups, key=len)
    dots = sum(len(group) for group in groups) - len(shape)
    wide = max(c for _, c in shape) - min(c for _, c in shape) + 1
    for r, c in shape:
        for copy in range(dots + 1):
            if c + copy * (wide + 1) < len(grid[0]):
                output[r][c + copy * (wide + 1)] = grid[r][c]
    return output
