"""Line up: the objects move to the floor and stand in a row from smallest to largest.

A few objects of different colours and different sizes (numbers of cells) lie scattered on the
background. In the output they stand side by side on the grid's bottom row, from the left edge
rightward in order of size, smallest first, one background column between neighbours. Each
object keeps its shape and colour; the grid keeps its size.
"""

from __future__ import annotations

import random

RULE = "line-up"

Grid = list[list[int]]
Cell = tuple[int, int]

_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
_AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _shape(rng: random.Random, size: int) -> list[Cell]:
    """A random 4-connected shape of ``size`` cells inside a 4 x 4 box, from its top-left corner."""
    cells = {(rng.randrange(4), rng.randrange(4))}
    while len(cells) < size:
        # Sorted so that the choice depends on the random stream only, never on set order.
        frontier = sorted(
            {(r + dr, c + dc) for r, c in cells for dr, dc in _STEPS4 if 0 <= r + dr < 4 and 0 <= c + dc < 4}
            - cells
        )
        cells.add(rng.choice(frontier))
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    return sorted((r - top, c - left) for r, c in cells)


def _scatter(
    rng: random.Random, height: int, width: int, shapes: list[list[Cell]]
) -> list[list[Cell]] | None:
    """Place the shapes at random, no two touching, even at a corner."""
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


def _on_floor(height: int, width: int, shapes: list[list[Cell]], colours: list[int], background: int) -> Grid:
    """The generator's output: shapes (top-left based) side by side on the bottom row, from the left."""
    output = [[background] * width for _ in range(height)]
    left = 0
    for shape, colour in zip(shapes, colours, strict=True):
        high = max(r for r, _ in shape) + 1
        for r, c in shape:
            output[height - high + r][left + c] = colour
        left += max(c for _, c in shape) + 2
    return output


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: 2-5 objects of distinct sizes (1-10 cells) and colours."""
    count = _level(rng, diff_lb, diff_ub, 2, 5)
    sizes = rng.sample(range(1, 11), count)
    shapes = [_shape(rng, size) for size in sizes]
    # Wide enough for the row of objects on the floor, whatever their order.
    row = sum(max(c for _, c in shape) + 2 for shape in shapes) - 1
    height = _level(rng, diff_lb, diff_ub, 6 + count, 30)
    width = _level(rng, diff_lb, diff_ub, max(6 + count, row), 30)
    background, *colours = rng.sample(range(10), 1 + count)
    order = sorted(range(count), key=sizes.__getitem__)
    output = _on_floor(height, width, [shapes[i] for i in order], [colours[i] for i in order], background)
    for _ in range(50):
        placed = _scatter(rng, height, width, shapes)
        grid = [[background] * width for _ in range(height)]
        for cells, colour in zip(placed or [], colours, strict=False):
            for r, c in cells:
                grid[r][c] = colour
        # Objects that happen to stand in order already would show nothing.
        if placed is not None and grid != output:
            break
    else:
        raise ValueError("no usable layout in 50 tries")
    return {"input": grid, "output": output}


def _objects(grid: Grid, background: int) -> list[list[Cell]]:
    """8-connected groups of non-background cells, in reading order."""
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
    """Lift every object, sort them by size, and set them down on the bottom row from the left."""
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    height, width = len(grid), len(grid[0])
    output = [[background] * width for _ in range(height)]
    offset = 0
    # A stable sort: objects of equal size keep reading order (the generator never draws ties).
    for cells in sorted(_objects(grid, background), key=len):
        bottom = max(r for r, _ in cells)
        left, right = min(c for _, c in cells), max(c for _, c in cells)
        if offset + right - left >= width:
            return [row[:] for row in grid]  # the row does not fit: not an input of this rule
        for r, c in cells:
            output[height - 1 - (bottom - r)][offset + c - left] = grid[r][c]
        offset += right - left + 2
    return output
