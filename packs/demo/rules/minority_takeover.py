"""Minority takeover: each two-coloured object is repainted in its rarer colour.

Objects lie apart on the background. Most are mainly of one colour with a few cells of a second
colour. In the output each such object is painted entirely in the colour it has fewer cells of.
Objects of a single colour stay as they are.
"""

from __future__ import annotations

import random

RULE = "minority-takeover"

Grid = list[list[int]]
Cell = tuple[int, int]

_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
_AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


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


def _scatter(
    rng: random.Random, height: int, width: int, shapes: list[list[Cell]]
) -> list[list[Cell]] | None:
    """Place the shapes at random, no two touching (even at a corner), or None where they do not fit."""
    near: set[Cell] = set()
    placed = []
    for shape in shapes:
        for _ in range(100):
            top, left = rng.randrange(height), rng.randrange(width)
            cells = [(top + r, left + c) for r, c in shape]
            if all(0 <= r < height and 0 <= c < width and (r, c) not in near for r, c in cells):
                break
        else:
            return None
        placed.append(cells)
        near.update((r + dr, c + dc) for r, c in cells for dr, dc in _AROUND)
    return placed


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: 2-6 two-coloured objects of 3-10 cells, and perhaps a one-coloured one."""
    count = _level(rng, diff_lb, diff_ub, 2, 6)
    height = _level(rng, diff_lb, diff_ub, 6 + 2 * count, 30)
    width = _level(rng, diff_lb, diff_ub, 6 + 2 * count, 30)
    background, *palette = rng.sample(range(10), 1 + _level(rng, diff_lb, diff_ub, 2, 5))
    # Sometimes one more object of a single colour, which stays as it is.
    total = count + (1 if rng.random() < 0.4 else 0)
    for _ in range(50):
        placed = _scatter(rng, height, width, [_blob(rng, rng.randint(3, 10)) for _ in range(total)])
        if placed is not None:
            break
    else:
        raise ValueError("no room for the objects in 50 tries")
    grid = [[background] * width for _ in range(height)]
    output = [row[:] for row in grid]
    for index, cells in enumerate(placed):
        main, minor = rng.sample(palette, 2)
        few = 0 if index >= count else rng.randint(1, (len(cells) - 1) // 2)
        marked = set(rng.sample(cells, few))
        for r, c in cells:
            grid[r][c] = minor if (r, c) in marked else main
            output[r][c] = minor if few else main
    return {"input": grid, "output": output}


def verify(grid: Grid) -> Grid:
    """Paint every 8-connected object in its least frequent colour."""
    height, width = len(grid), len(grid[0])
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    output = [row[:] for row in grid]
    seen: set[Cell] = set()
    for start in ((r, c) for r in range(height) for c in range(width)):
        if start in seen or grid[start[0]][start[1]] == background:
            continue
        seen.add(start)
        stack, cells = [start], []
        while stack:
            r, c = stack.pop()
            cells.append((r, c))
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
        tally: dict[int, int] = {}
        for r, c in cells:
            tally[grid[r][c]] = tally.get(grid[r][c], 0) + 1
        rarest = min(sorted(tally), key=tally.__getitem__)
        for r, c in cells:
            output[r][c] = rarest
    return output
