"""Plug holes: loose plugs leave their places and fill the one-cell holes in the slabs.

Solid rectangles (slabs) of one colour have a few one-cell holes showing the background. As many
loose plugs, single cells of another colour, lie elsewhere. In the output every hole is filled
with the plugs' colour and the plugs' old places become background.
"""

from __future__ import annotations

import random

RULE = "plug-holes"

Grid = list[list[int]]
Cell = tuple[int, int]

_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
_AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _slabs(rng: random.Random, height: int, width: int, count: int) -> list[tuple[int, int, int, int]] | None:
    """``count`` rectangles (top, left, bottom, right), 3-7 cells a side, no two touching."""
    slabs: list[tuple[int, int, int, int]] = []
    near: set[Cell] = set()
    for _ in range(count):
        for _ in range(100):
            tall, wide = rng.randint(3, 7), rng.randint(3, 7)
            top, left = rng.randint(0, height - tall), rng.randint(0, width - wide)
            area = [(r, c) for r in range(top, top + tall) for c in range(left, left + wide)]
            if not near.intersection(area):
                break
        else:
            return None
        slabs.append((top, left, top + tall - 1, left + wide - 1))
        near.update((r + dr, c + dc) for r, c in area for dr, dc in _AROUND)
    return slabs


def _holes(rng: random.Random, slab: tuple[int, int, int, int]) -> list[Cell]:
    """1-3 inner cells of a slab, no two touching (so that each is walled in on all four sides)."""
    top, left, bottom, right = slab
    inner = [(r, c) for r in range(top + 1, bottom) for c in range(left + 1, right)]
    holes: list[Cell] = []
    for cell in rng.sample(inner, len(inner)):
        if len(holes) < 3 and all(max(abs(cell[0] - r), abs(cell[1] - c)) > 1 for r, c in holes):
            holes.append(cell)
    return holes[: rng.randint(1, len(holes))]


def _scene(
    rng: random.Random, height: int, width: int, count: int, colours: list[int]
) -> tuple[Grid, Grid] | None:
    """Slabs with holes and one loose plug per hole, or None where they do not fit."""
    background, slab_colour, plug = colours
    slabs = _slabs(rng, height, width, count)
    if slabs is None:
        return None
    grid = [[background] * width for _ in range(height)]
    near: set[Cell] = set()
    holes = []
    for slab in slabs:
        top, left, bottom, right = slab
        for r in range(top, bottom + 1):
            grid[r][left : right + 1] = [slab_colour] * (right - left + 1)
            near.update((r + dr, c + dc) for c in range(left, right + 1) for dr, dc in _AROUND)
        holes += _holes(rng, slab)
    output = [row[:] for row in grid]
    for r, c in holes:
        grid[r][c] = background
        output[r][c] = plug
    for _ in holes:
        # Plugs touch neither a slab nor each other.
        free = [(r, c) for r in range(height) for c in range(width) if (r, c) not in near]
        if not free:
            return None
        r, c = rng.choice(free)
        grid[r][c] = plug
        near.update((r + dr, c + dc) for dr, dc in _AROUND)
    cells = [colour for row in grid for colour in row]
    # The background must be the commonest colour: that is how a solver finds it.
    if cells.count(background) <= cells.count(slab_colour):
        return None
    return grid, output


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: 1-4 slabs with 1-3 holes each, and one plug per hole outside them."""
    count = _level(rng, diff_lb, diff_ub, 1, 4)
    height = _level(rng, diff_lb, diff_ub, 7 + 2 * count, 30)
    width = _level(rng, diff_lb, diff_ub, 7 + 2 * count, 30)
    colours = rng.sample(range(10), 3)
    for _ in range(50):
        scene = _scene(rng, height, width, count, colours)
        if scene is not None:
            return {"input": scene[0], "output": scene[1]}
    raise ValueError("no usable scene in 50 tries")


def verify(grid: Grid) -> Grid:
    """Fill every background cell walled in on all four sides by the slab colour; clear the plugs."""
    height, width = len(grid), len(grid[0])
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    counts[background] = -1
    slab = counts.index(max(counts))
    others = [colour for colour in range(10) if colour not in (background, slab) and counts[colour] > 0]
    if not others:
        return [row[:] for row in grid]
    plug = max(others, key=counts.__getitem__)
    output = [[background if colour not in (background, slab) else colour for colour in row] for row in grid]
    for r in range(1, height - 1):
        for c in range(1, width - 1):
            walled = all(grid[r + dr][c + dc] == slab for dr, dc in _STEPS4)
            if grid[r][c] == background and walled:
                output[r][c] = plug
    return output
