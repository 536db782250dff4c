"""Axis mirror: shapes are reflected across a marked line, and their reflections take its colour.

One full row or column of a single colour is the axis. Shapes of other colours lie on both
sides of it. Each shape cell is reflected across the axis; where its reflection falls inside the
grid on a background cell, that cell takes the axis's colour. Cells already coloured keep their
colour, and reflections that fall outside the grid are lost.
"""

from __future__ import annotations

import random

RULE = "axis-mirror"

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


def _transpose(grid: Grid) -> Grid:
    return [list(row) for row in zip(*grid, strict=True)]


def _draw_sides(rng: random.Random, height: int, width: int, axis: int, colours: list[int]) -> Grid:
    """A grid of background (colour -1 for now) with shapes scattered on both sides of the axis."""
    grid = [[-1] * width for _ in range(height)]
    for _ in range(max(1, height * width // rng.randint(18, 40))):
        colour = rng.choice(colours)
        top, left = rng.randrange(height), rng.randrange(width)
        for r, c in _blob(rng, rng.randint(1, 6)):
            if 0 <= top + r < height and 0 <= left + c < width and left + c != axis:
                grid[top + r][left + c] = colour
    return grid


def _usable(grid: Grid, output: Grid, background: int, axis_colour: int) -> bool:
    """The axis is the only full line of one non-background colour; the background is commonest."""
    lines = [*grid, *_transpose(grid)]
    full = [line for line in lines if line[0] != background and all(x == line[0] for x in line)]
    cells = [colour for row in grid for colour in row]
    commonest = max(cells.count(colour) for colour in set(cells) - {background})
    return output != grid and len(full) == 1 and cells.count(background) > commonest


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: a vertical (or horizontal) axis and shapes on both sides of it."""
    height = _level(rng, diff_lb, diff_ub, 3, 30)
    width = _level(rng, diff_lb, diff_ub, 5, 30)
    background, axis_colour, *colours = rng.sample(range(10), 2 + _level(rng, diff_lb, diff_ub, 1, 3))
    for _ in range(50):
        axis = rng.randrange(1, width - 1)
        grid = _draw_sides(rng, height, width, axis, colours)
        output = [row[:] for row in grid]
        for r in range(height):
            grid[r][axis] = output[r][axis] = axis_colour
            for c in range(width):
                mirror = 2 * axis - c
                if grid[r][c] not in (-1, axis_colour) and 0 <= mirror < width and grid[r][mirror] == -1:
                    output[r][mirror] = axis_colour
        grid = [[background if x == -1 else x for x in row] for row in grid]
        output = [[background if x == -1 else x for x in row] for row in output]
        if _usable(grid, output, background, axis_colour):
            break
    else:
        raise ValueError("no usable grid in 50 tries")
    if rng.random() < 0.5:
        grid, output = _transpose(grid), _transpose(output)
    return {"input": grid, "output": output}


def _background(grid: Grid) -> int:
    """The most frequent colour (the smallest of those tied)."""
    counts = [0] * 10
    for row in grid:
        for colour in row:
            counts[colour] += 1
    return counts.index(max(counts))


def _full_columns(grid: Grid, background: int) -> list[int]:
    """Indices of the columns filled with one colour other than the background."""
    return [
        c
        for c, column in enumerate(zip(*grid, strict=True))
        if column[0] != background and all(x == column[0] for x in column)
    ]


def verify(grid: Grid) -> Grid:
    """Reflect every shape cell across the axis onto background cells, in the axis's colour."""
    background = _background(grid)
    if len(_full_columns(grid, background)) == 1:
        return _mirror_columns(grid, background)
    if len(_full_columns(_transpose(grid), background)) == 1:
        return _transpose(_mirror_columns(_transpose(grid), background))
    return [row[:] for row in grid]


def _mirror_columns(grid: Grid, background: int) -> Grid:
    axis = _full_columns(grid, background)[0]
    axis_colour = grid[0][axis]
    width = len(grid[0])
    output = [row[:] for row in grid]
    for r, row in enumerate(grid):
        for c, colour in enumerate(row):
            mirror = 2 * axis - c
            if c != axis and colour != background and 0 <= mirror < width and row[mirror] == background:
                output[r][mirror] = axis_colour
    return output
