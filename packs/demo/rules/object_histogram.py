"""Object histogram: a bar chart of how many objects each colour has, tallest bar first.

Small objects of a few colours are scattered on the background, each colour with a different
number of objects (an object may be one cell or a few). The output has one column per colour,
ordered from the colour with the most objects to the one with the fewest; each column holds a bar
of that colour, standing on the bottom row, as tall as the colour's number of objects. The output
is as tall as the tallest bar and keeps the input's background. Objects count, not cells.
"""

from __future__ import annotations

import math
import random

RULE = "object-histogram"

Grid = list[list[int]]
Cell = tuple[int, int]

_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
_STEPS8 = (*_STEPS4, (1, 1), (1, -1), (-1, 1), (-1, -1))


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


def _scatter(rng: random.Random, height: int, width: int, colours: list[int]) -> dict[Cell, int] | None:
    """Place one small object per entry of ``colours``, no two touching, even at a corner."""
    cells: dict[Cell, int] = {}
    near: set[Cell] = set()
    for colour in colours:
        for _ in range(100):
            top, left = rng.randrange(height), rng.randrange(width)
            shape = [(top + r, left + c) for r, c in _blob(rng, rng.randint(1, 3))]
            if all(0 <= r < height and 0 <= c < width and (r, c) not in near for r, c in shape):
                break
        else:
            return None
        for r, c in shape:
            cells[(r, c)] = colour
            near.update((r + dr, c + dc) for dr, dc in (*_STEPS8, (0, 0)))
    return cells


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: 2-5 colours with 1-6 objects each, no two colours with the same count."""
    kinds = _level(rng, diff_lb, diff_ub, 2, 5)
    counts = rng.sample(range(1, max(kinds, _level(rng, diff_lb, diff_ub, 3, 6)) + 1), kinds)
    background, *colours = rng.sample(range(10), 1 + kinds)
    side = max(6, math.ceil(math.sqrt(14 * sum(counts))))
    height = _level(rng, diff_lb, diff_ub, side, 30)
    width = _level(rng, diff_lb, diff_ub, side, 30)
    objects = [colour for colour, count in zip(colours, counts, strict=True) for _ in range(count)]
    rng.shuffle(objects)
    for _ in range(50):
        cells = _scatter(rng, height, width, objects)
        if cells is not None:
            break
    else:
        raise ValueError("no room for the objects in 50 tries")
    grid = [[background] * width for _ in range(height)]
    for (r, c), colour in cells.items():
        grid[r][c] = colour
    tall = max(counts)
    ranked = sorted(zip(counts, colours, strict=True), reverse=True)
    output = [[colour if tall - r <= count else background for count, colour in ranked] for r in range(tall)]
    return {"input": grid, "output": output}


def verify(grid: Grid) -> Grid:
    """Count each colour's objects (8-connected) and draw the bars, most objects first."""
    height, width = len(grid), len(grid[0])
    totals = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = totals.index(max(totals))
    objects = [0] * 10
    seen: set[Cell] = set()
    for r0 in range(height):
        for c0 in range(width):
            colour = grid[r0][c0]
            if colour == background or (r0, c0) in seen:
                continue
            objects[colour] += 1
            seen.add((r0, c0))
            stack = [(r0, c0)]
            while stack:
                r, c = stack.pop()
                for dr, dc in _STEPS8:
                    nr, nc = r + dr, c + dc
                    inside = 0 <= nr < height and 0 <= nc < width
                    if inside and (nr, nc) not in seen and grid[nr][nc] == colour:
                        seen.add((nr, nc))
                        stack.append((nr, nc))
    bars = sorted((-objects[colour], colour) for colour in range(10) if objects[colour])
    if not bars:
        return [row[:] for row in grid]
    tall = -bars[0][0]
    return [[colour if r >= tall + count else background for count, colour in bars] for r in range(tall)]
