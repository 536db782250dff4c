"""Sort bars: bars standing on one edge are reordered from shortest to tallest, keeping their colours.

Bars of different heights stand on the bottom edge (or hang from the top edge), each in one
colour, in some columns of the grid. The output keeps the same columns for bars but reorders the
bars by height, shortest on the left and tallest on the right; each bar keeps its own colour and
the columns without a bar stay empty.
"""

from __future__ import annotations

import random

RULE = "sort-bars"

Grid = list[list[int]]


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _stand(height: int, width: int, background: int, bars: dict[int, tuple[int, int]]) -> Grid:
    """A grid with bars ``{column: (height, colour)}`` standing on the bottom row."""
    return [
        [bars[c][1] if c in bars and height - r <= bars[c][0] else background for c in range(width)]
        for r in range(height)
    ]


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: 2-12 bars of distinct heights in columns of the grid, not yet in order."""
    height = _level(rng, diff_lb, diff_ub, 4, 30)
    width = _level(rng, diff_lb, diff_ub, 3, 30)
    # Heights stay below the grid's height, so the far edge is always a clear background line, and
    # one column at least has no bar, so the base edge never is.
    count = _level(rng, diff_lb, diff_ub, 2, min(12, width - 1, height - 1))
    background, *colours = rng.sample(range(10), 1 + _level(rng, diff_lb, diff_ub, 2, 5))
    columns = sorted(rng.sample(range(width), count))
    heights = rng.sample(range(1, height), count)
    while heights == sorted(heights):
        rng.shuffle(heights)
    painted = [rng.choice(colours) for _ in columns]
    before = dict(zip(columns, zip(heights, painted, strict=True), strict=True))
    after = dict(zip(columns, sorted(zip(heights, painted, strict=True)), strict=True))
    grid, output = _stand(height, width, background, before), _stand(height, width, background, after)
    if rng.random() < 0.5:
        grid, output = grid[::-1], output[::-1]
    return {"input": grid, "output": output}


def verify(grid: Grid) -> Grid:
    """Measure the bar in each column from the base edge, and deal the bars out again by height."""
    if len(set(grid[0])) == 1:
        return _sort_standing(grid)
    if len(set(grid[-1])) == 1:
        return _sort_standing(grid[::-1])[::-1]
    return [row[:] for row in grid]


def _sort_standing(grid: Grid) -> Grid:
    background = grid[0][0]
    height, width = len(grid), len(grid[0])
    bars = {}
    for c in range(width):
        colour = grid[-1][c]
        if colour == background:
            continue
        tall = 0
        while tall < height and grid[height - 1 - tall][c] == colour:
            tall += 1
        bars[c] = (tall, colour)
    # A stable sort on height alone: bars of equal height keep their order (never drawn).
    ranked = sorted(bars.values(), key=lambda bar: bar[0])
    output = [[background] * width for _ in range(height)]
    for c, (tall, colour) in zip(sorted(bars), ranked, strict=True):
        for r in range(height - tall, height):
            output[r][c] = colour
    return output
