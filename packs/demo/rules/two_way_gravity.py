"""Two-way gravity: loose cells fall toward the wall of their own colour, stopped by obstacles.

Two opposite sides of the grid are solid walls of two different colours. In between lie loose
cells of those two colours and fixed obstacle cells of a third colour. Every loose cell slides
along its row (or column, when the walls are at the top and bottom) toward the wall of its own
colour, until it meets that wall, an obstacle, or cells already stacked there. Obstacles and
walls do not move.
"""

from __future__ import annotations

import random

RULE = "two-way-gravity"

Grid = list[list[int]]


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _transpose(grid: Grid) -> Grid:
    return [list(row) for row in zip(*grid, strict=True)]


def _sorted_row(row: list[int], obstacle: int, rank: dict[int, int]) -> list[int]:
    """The generator's answer for one row: each stretch between obstacles sorted by colour rank."""
    out: list[int] = []
    start = 0
    for end in [*(i for i, colour in enumerate(row) if colour == obstacle), len(row)]:
        out += sorted(row[start:end], key=rank.__getitem__)
        if end < len(row):
            out.append(obstacle)
        start = end + 1
    return out


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: walls left and right (or top and bottom), loose cells and obstacles between."""
    height = _level(rng, diff_lb, diff_ub, 3, 30)
    width = _level(rng, diff_lb, diff_ub, 6, 30)
    background, first, second, obstacle = rng.sample(range(10), 4)
    loose = 0.08 + 0.27 * rng.uniform(diff_lb, diff_ub)
    blocked = 0.15 * rng.uniform(diff_lb, diff_ub)
    # The walls sort with their own colour, so whole rows sort with the walls in place.
    rank = {first: 0, background: 1, second: 2, obstacle: 1}
    for _ in range(50):
        grid = []
        for _ in range(height):
            row = [first]
            for _ in range(width - 2):
                draw = rng.random()
                if draw < loose:
                    row.append(rng.choice((first, second)))
                else:
                    row.append(obstacle if draw < loose + blocked else background)
            grid.append([*row, second])
        output = [_sorted_row(row, obstacle, rank) for row in grid]
        # The background must outnumber the obstacles: that is how a solver tells them apart.
        cells = [colour for row in grid for colour in row]
        if output != grid and cells.count(background) > cells.count(obstacle):
            break
    else:
        raise ValueError("no usable grid in 50 tries")
    if rng.random() < 0.5:
        grid, output = _transpose(grid), _transpose(output)
    return {"input": grid, "output": output}


def _uniform(line: list[int]) -> bool:
    return all(colour == line[0] for colour in line)


def verify(grid: Grid) -> Grid:
    """Slide every loose cell toward the wall of its colour."""
    if len(grid) < 3 or len(grid[0]) < 3:
        return [row[:] for row in grid]
    columns = _transpose(grid)
    if _uniform(columns[0]) and _uniform(columns[-1]) and columns[0][0] != columns[-1][0]:
        return _solve_side_walls(grid)
    if _uniform(grid[0]) and _uniform(grid[-1]) and grid[0][0] != grid[-1][0]:
        return _transpose(_solve_side_walls(columns))
    return [row[:] for row in grid]


def _settle(cells: list[int], first: int, second: int, background: int) -> list[int]:
    """One row of the interior: each run between obstacles packs ``first`` left, ``second`` right."""
    out: list[int] = []
    run: list[int] = []
    for colour in [*cells, -1]:
        if colour in (first, second, background):
            run.append(colour)
            continue
        ones, twos = run.count(first), run.count(second)
        out += [first] * ones + [background] * (len(run) - ones - twos) + [second] * twos
        run = []
        if colour != -1:
            out.append(colour)
    return out


def _solve_side_walls(grid: Grid) -> Grid:
    first, second = grid[0][0], grid[0][-1]
    counts = [0] * 10
    for row in grid:
        for colour in row[1:-1]:
            counts[colour] += 1
    counts[first] = counts[second] = -1
    # The background is the commonest colour of the interior besides the two walls' colours.
    background = counts.index(max(counts))
    return [[row[0], *_settle(row[1:-1], first, second, background), row[-1]] for row in grid]
