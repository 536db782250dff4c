"""Layer order: list the overlapping rectangles' colours from the uppermost to the lowest.

Solid rectangles of different colours are laid one on top of another, each hiding part of those
beneath it. The output is a single column with one cell per rectangle, its colour, from the
rectangle on top (first) down to the one at the bottom (last). Which of two rectangles is higher
shows where one covers the other.
"""

from __future__ import annotations

import itertools
import random

RULE = "layer-order"

Grid = list[list[int]]
Box = tuple[int, int, int, int]


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _overlapping(rng: random.Random, height: int, width: int, count: int) -> list[Box]:
    """``count`` rectangles (top, left, bottom, right), each overlapping the one before it."""
    boxes: list[Box] = []
    while len(boxes) < count:
        # Smaller the more there are, so that the background stays the commonest colour.
        tall = rng.randint(2, max(2, 2 * height // (count + 2)))
        wide = rng.randint(2, max(2, 2 * width // (count + 2)))
        top, left = rng.randint(0, height - tall), rng.randint(0, width - wide)
        box = (top, left, top + tall - 1, left + wide - 1)
        if not boxes or _cross(box, boxes[-1]):
            boxes.append(box)
    return boxes


def _cross(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _readable(grid: Grid, colours: list[int]) -> bool:
    """Each rectangle shows, and each shows its upper neighbour within its visible extent.

    A colour seen inside the box spanned by another colour's visible cells must lie above it (the
    lower rectangle covers at least that box), so these sightings fix the whole order.
    """
    for lower, upper in itertools.pairwise(colours):
        cells = [(r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if x == lower]
        if not cells:
            return False
        rows, cols = [r for r, _ in cells], [c for _, c in cells]
        seen = {x for row in grid[min(rows) : max(rows) + 1] for x in row[min(cols) : max(cols) + 1]}
        if upper not in seen:
            return False
    return True


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: 2-5 rectangles laid in order, bottom first, each overlapping the last."""
    count = _level(rng, diff_lb, diff_ub, 2, 5)
    height = _level(rng, diff_lb, diff_ub, 6, 30)
    width = _level(rng, diff_lb, diff_ub, 6, 30)
    background, *colours = rng.sample(range(10), 1 + count)
    for _ in range(100):
        grid = [[background] * width for _ in range(height)]
        for (top, left, bottom, right), colour in zip(
            _overlapping(rng, height, width, count), colours, strict=True
        ):
            for r in range(top, bottom + 1):
                grid[r][left : right + 1] = [colour] * (right - left + 1)
        tally = [sum(row.count(colour) for row in grid) for colour in range(10)]
        # The background must stay the commonest colour: that is how a solver finds it.
        if _readable(grid, colours) and tally.count(max(tally)) == 1 and max(tally) == tally[background]:
            break
    else:
        raise ValueError("no readable stack in 100 tries")
    return {"input": grid, "output": [[colour] for colour in reversed(colours)]}


def verify(grid: Grid) -> Grid:
    """Work out which colour covers which, and list them from the top down."""
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    present = [colour for colour in range(10) if counts[colour] and colour != background]
    above: dict[int, set[int]] = {colour: set() for colour in present}
    for colour in present:
        cells = [(r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if x == colour]
        rows, cols = [r for r, _ in cells], [c for _, c in cells]
        # Whatever shows inside this colour's visible extent is lying on top of it.
        inside = {x for row in grid[min(rows) : max(rows) + 1] for x in row[min(cols) : max(cols) + 1]}
        above[colour] = inside - {colour, background}
    order = []
    while above:
        uncovered = sorted(colour for colour, over in above.items() if not over)
        if not uncovered:
            return [row[:] for row in grid]  # a cycle: not a stack of rectangles
        order.append(uncovered[0])
        del above[uncovered[0]]
        for over in above.values():
            over.discard(uncovered[0])
    if not order:
        return [row[:] for row in grid]
    return [[colour] for colour in order]
