"""Legend size rank: objects of one colour take the legend's colours in order of their size.

A legend runs from the top-left corner along the first row (or down the first column): a few
cells of distinct colours. Elsewhere lie as many objects, all of one colour and all of different
sizes. In the output the largest object takes the legend's first colour, the next largest the
second, and so on; the legend and the background stay as they are.
"""

from __future__ import annotations

import random

RULE = "legend-size-rank"

Grid = list[list[int]]
Cell = tuple[int, int]

_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
_STEPS8 = (*_STEPS4, (1, 1), (1, -1), (-1, 1), (-1, -1))


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _blob(rng: random.Random, size: int) -> list[Cell]:
    """A random 4-connected shape of ``size`` cells, as offsets from its top-left corner."""
    cells = [(0, 0)]
    while len(cells) < size:
        taken = set(cells)
        # Sorted so that the choice depends on the random stream only, never on set order.
        frontier = sorted({(r + dr, c + dc) for r, c in cells for dr, dc in _STEPS4} - taken)
        cells.append(rng.choice(frontier))
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return [(r - top, c - left) for r, c in cells]


def _place(rng: random.Random, shapes: list[list[Cell]], rows: range, cols: range) -> list[list[Cell]] | None:
    """The shapes at random spots in the given ranges, no two touching (even at a corner)."""
    near: set[Cell] = set()
    placed = []
    for shape in shapes:
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        if height > len(rows) or width > len(cols):
            return None
        for _ in range(100):
            top = rng.randrange(rows.start, rows.stop - height + 1)
            left = rng.randrange(cols.start, cols.stop - width + 1)
            cells = [(top + r, left + c) for r, c in shape]
            if not near.intersection(cells):
                break
        else:
            return None
        placed.append(cells)
        near.update((r + dr, c + dc) for r, c in cells for dr, dc in (*_STEPS8, (0, 0)))
    return placed


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: 2-5 objects of distinct sizes and a legend of as many colours."""
    count = _level(rng, diff_lb, diff_ub, 2, 5)
    height = _level(rng, diff_lb, diff_ub, 6 + 2 * count, 30)
    width = _level(rng, diff_lb, diff_ub, 6 + 2 * count, 30)
    background, body, *legend = rng.sample(range(10), count + 2)
    largest = min(12, max(count, (height - 2) * width // (4 * count)))
    sizes = sorted(rng.sample(range(1, largest + 1), count), reverse=True)
    for _ in range(50):
        # Row 1 stays empty so that no object touches the legend.
        placed = _place(rng, [_blob(rng, size) for size in sizes], range(2, height), range(width))
        if placed is not None:
            break
    else:
        raise ValueError("no room for the objects in 50 tries")
    grid = [[background] * width for _ in range(height)]
    for col, colour in enumerate(legend):
        grid[0][col] = colour
    output = [row[:] for row in grid]
    for colour, cells in zip(legend, placed, strict=True):
        for r, c in cells:
            grid[r][c] = body
            output[r][c] = colour
    if rng.random() < 0.5:
        grid, output = _transpose(grid), _transpose(output)
    return {"input": grid, "output": output}


def _transpose(grid: Grid) -> Grid:
    return [list(row) for row in zip(*grid, strict=True)]


def _background(grid: Grid) -> int:
    """The most frequent colour (the smallest of those tied)."""
    counts = [0] * 10
    for row in grid:
        for colour in row:
            counts[colour] += 1
    return counts.index(max(counts))


def _objects(grid: Grid, background: int, skip: set[Cell]) -> list[list[Cell]]:
    """8-connected groups of non-background cells outside ``skip``, in reading order."""
    height, width = len(grid), len(grid[0])
    seen = set(skip)
    groups = []
    for r0 in range(height):
        for c0 in range(width):
            if (r0, c0) in seen or grid[r0][c0] == background:
                continue
            seen.add((r0, c0))
            stack, group = [(r0, c0)], []
            while stack:
                r, c = stack.pop()
                group.append((r, c))
                for dr, dc in _STEPS8:
                    nr, nc = r + dr, c + dc
                    inside = 0 <= nr < height and 0 <= nc < width
                    if inside and (nr, nc) not in seen and grid[nr][nc] != background:
                        seen.add((nr, nc))
                        stack.append((nr, nc))
            groups.append(group)
    return groups


def verify(grid: Grid) -> Grid:
    """Recolour the objects by size rank with the legend's colours."""
    background = _background(grid)
    if len(grid[0]) < 2 or grid[0][1] == background:
        # The legend runs down the first column: solve the transposed grid.
        return _transpose(_solve_row_legend(_transpose(grid), background))
    return _solve_row_legend(grid, background)


def _solve_row_legend(grid: Grid, background: int) -> Grid:
    legend = []
    for colour in grid[0]:
        if colour == background:
            break
        legend.append(colour)
    objects = _objects(grid, background, {(0, col) for col in range(len(legend))})
    # A stable sort: equal sizes keep reading order (the generator never draws ties).
    objects.sort(key=len, reverse=True)
    output = [row[:] for row in grid]
    for colour, cells in zip(legend, objects, strict=False):
        for r, c in cells:
            output[r][c] = colour
    return output
