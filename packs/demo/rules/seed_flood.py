"""Seed flood: a seed inside a closed box floods the box; a seed in the open floods nothing.

Hollow rectangles of one wall colour stand on the background; some hold a single seed cell of
some colour, and more seeds lie outside every box. In the output each box that holds a seed is
filled inside with its seed's colour. Boxes without a seed, and seeds outside the boxes, stay as
they were: only an enclosed space can be flooded.
"""

from __future__ import annotations

import random

RULE = "seed-flood"

Grid = list[list[int]]
Cell = tuple[int, int]

_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
_AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _boxes(rng: random.Random, height: int, width: int, count: int) -> list[tuple[int, int, int, int]] | None:
    """``count`` rectangles (top, left, bottom, right), 3-8 cells a side, no two touching.

    One side is at least 4 cells, so that a box holds two cells at least and a flood shows.
    """
    boxes: list[tuple[int, int, int, int]] = []
    near: set[Cell] = set()
    for _ in range(count):
        for _ in range(100):
            tall, wide = rng.sample([rng.randint(3, 8), rng.randint(4, 8)], 2)
            top, left = rng.randint(0, height - tall), rng.randint(0, width - wide)
            area = [(r, c) for r in range(top, top + tall) for c in range(left, left + wide)]
            if not near.intersection(area):
                break
        else:
            return None
        boxes.append((top, left, top + tall - 1, left + wide - 1))
        near.update((r + dr, c + dc) for r, c in area for dr, dc in _AROUND)
    return boxes


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: 2-5 boxes, a seed in some of them, and 1-4 seeds outside."""
    count = _level(rng, diff_lb, diff_ub, 2, 5)
    height = _level(rng, diff_lb, diff_ub, 8 + count, 30)
    width = _level(rng, diff_lb, diff_ub, 8 + count, 30)
    background, wall, *seeds = rng.sample(range(10), 2 + _level(rng, diff_lb, diff_ub, 1, 3))
    for _ in range(50):
        boxes = _boxes(rng, height, width, count)
        if boxes is not None:
            break
    else:
        raise ValueError("no room for the boxes in 50 tries")
    grid = [[background] * width for _ in range(height)]
    output = [row[:] for row in grid]
    boxed: set[Cell] = set()
    seeded = rng.sample(boxes, rng.randint(1, count))
    for box in boxes:
        top, left, bottom, right = box
        boxed.update((r, c) for r in range(top, bottom + 1) for c in range(left, right + 1))
        for r, c in [(r, c) for r in (top, bottom) for c in range(left, right + 1)]:
            grid[r][c] = output[r][c] = wall
        for r, c in [(r, c) for r in range(top, bottom + 1) for c in (left, right)]:
            grid[r][c] = output[r][c] = wall
        if box in seeded:
            colour = rng.choice(seeds)
            grid[rng.randint(top + 1, bottom - 1)][rng.randint(left + 1, right - 1)] = colour
            for r in range(top + 1, bottom):
                output[r][left + 1 : right] = [colour] * (right - left - 1)
    outside = [(r, c) for r in range(height) for c in range(width) if (r, c) not in boxed]
    for r, c in rng.sample(outside, min(len(outside), _level(rng, diff_lb, diff_ub, 1, 4))):
        grid[r][c] = output[r][c] = rng.choice(seeds)
    return {"input": grid, "output": output}


def verify(grid: Grid) -> Grid:
    """Flood every walled space that does not reach the grid's edge with the seed colour inside it."""
    height, width = len(grid), len(grid[0])
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    counts[background] = -1
    # The walls are the commonest colour after the background; seeds are few.
    wall = counts.index(max(counts))
    output = [row[:] for row in grid]
    seen: set[Cell] = set()
    for start in ((r, c) for r in range(height) for c in range(width)):
        if start in seen or grid[start[0]][start[1]] == wall:
            continue
        seen.add(start)
        stack, space = [start], []
        while stack:
            r, c = stack.pop()
            space.append((r, c))
            for dr, dc in _STEPS4:
                nr, nc = r + dr, c + dc
                if 0 <= nr < height and 0 <= nc < width and (nr, nc) not in seen and grid[nr][nc] != wall:
                    seen.add((nr, nc))
                    stack.append((nr, nc))
        open_space = any(r in (0, height - 1) or c in (0, width - 1) for r, c in space)
        inside = sorted({grid[r][c] for r, c in space} - {background})
        if not open_space and len(inside) == 1:
            for r, c in space:
                output[r][c] = inside[0]
    return output
