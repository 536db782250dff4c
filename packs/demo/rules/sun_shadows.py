"""Sun shadows: every shape casts a shadow away from the sun, in the sun's colour.

One cell on the edge of the grid is the sun; nothing else touches the edge. Shapes of other
colours float inside. In the output every shape casts a shadow straight away from the sun's edge
(a sun on the top edge casts shadows downward): each background cell behind a shape cell, as far
as the grid's far edge, takes the sun's colour.
"""

from __future__ import annotations

import random

RULE = "sun-shadows"

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


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: a sun on the top edge (then turned) and 1-5 shapes inside the border."""
    height = _level(rng, diff_lb, diff_ub, 5, 30)
    width = _level(rng, diff_lb, diff_ub, 5, 30)
    background, sun, *colours = rng.sample(range(10), 2 + _level(rng, diff_lb, diff_ub, 1, 3))
    grid = [[background] * width for _ in range(height)]
    for _ in range(_level(rng, diff_lb, diff_ub, 1, 5)):
        top, left = rng.randint(1, height - 2), rng.randint(1, width - 2)
        colour = rng.choice(colours)
        for r, c in _blob(rng, rng.randint(1, 6)):
            # Shapes are clipped to the inside, so the sun is alone on the edge.
            if 0 < top + r < height - 1 and 0 < left + c < width - 1:
                grid[top + r][left + c] = colour
    grid[0][rng.randint(1, width - 2)] = sun
    output = [row[:] for row in grid]
    for c in range(width):
        lit = True
        for r in range(1, height):
            if grid[r][c] != background:
                lit = False
            elif not lit:
                output[r][c] = sun
    for _ in range(rng.randrange(4)):
        grid, output = _rotate(grid), _rotate(output)
    return {"input": grid, "output": output}


def verify(grid: Grid) -> Grid:
    """Find the sun on the edge and paint the background behind every other cell, away from it."""
    height, width = len(grid), len(grid[0])
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    output = [row[:] for row in grid]
    edge = [
        (r, c)
        for r in range(height)
        for c in range(width)
        if grid[r][c] != background and (r in (0, height - 1) or c in (0, width - 1))
    ]
    # One sun, and not in a corner, where the way away from it would be ambiguous.
    if len(edge) != 1 or (edge[0][0] in (0, height - 1) and edge[0][1] in (0, width - 1)):
        return output
    sr, sc = edge[0]
    dr, dc = (1, 0) if sr == 0 else (-1, 0) if sr == height - 1 else (0, 1) if sc == 0 else (0, -1)
    for r in range(height):
        for c in range(width):
            if grid[r][c] == background or (r, c) == (sr, sc):
                continue
            nr, nc = r + dr, c + dc
            while 0 <= nr < height and 0 <= nc < width:
                if grid[nr][nc] == background:
                    output[nr][nc] = grid[sr][sc]
                nr, nc = nr + dr, nc + dc
    return output
