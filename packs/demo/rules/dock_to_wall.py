"""Dock to wall: blocks of the wall's colour slide to the wall until they touch it or a block.

One edge of the grid is a solid wall. Small blocks lie about; some are of the wall's colour,
others of other colours. Every block of the wall's colour slides straight toward the wall until
it touches the wall or another block; blocks of other colours never move, and stop the sliding
ones that run into them.
"""

from __future__ import annotations

import random

RULE = "dock-to-wall"

Grid = list[list[int]]
Cell = tuple[int, int]

_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
_AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _rotate(grid: Grid) -> Grid:
    """The grid turned a quarter clockwise."""
    return [list(row) for row in zip(*grid[::-1], strict=True)]


def _blocks(rng: random.Random, height: int, width: int, count: int) -> list[list[Cell]]:
    """Up to ``count`` rectangles of 1-3 x 1-3 cells above the wall's neighbour row, none touching."""
    near: set[Cell] = set()
    blocks: list[list[Cell]] = []
    for _ in range(20 * count):
        tall, wide = rng.randint(1, 3), rng.randint(1, 3)
        top, left = rng.randint(0, height - 2 - tall), rng.randint(0, width - wide)
        cells = [(r, c) for r in range(top, top + tall) for c in range(left, left + wide)]
        if len(blocks) < count and not near.intersection(cells):
            blocks.append(cells)
            near.update((r + dr, c + dc) for r, c in cells for dr, dc in _AROUND)
    return blocks


def _drop(grid: Grid, blocks: list[list[Cell]], background: int) -> Grid:
    """The generator's answer: blocks of rectangles fall straight down, lowest first.

    For rectangles the lowest bottom edge falls first without being held up by a later one, so a
    single pass in that order settles them all.
    """
    output = [row[:] for row in grid]
    for cells in sorted(blocks, key=lambda cells: -max(r for r, _ in cells)):
        colour = grid[cells[0][0]][cells[0][1]]
        for r, c in cells:
            output[r][c] = background
        fall = 0
        while all(output[r + fall + 1][c] == background for r, c in cells):
            fall += 1
        for r, c in cells:
            output[r + fall][c] = colour
    return output


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: a wall on the bottom edge (then turned), and 2-8 blocks, some of its colour."""
    height = _level(rng, diff_lb, diff_ub, 6, 30)
    width = _level(rng, diff_lb, diff_ub, 6, 30)
    background, wall, *others = rng.sample(range(10), 2 + _level(rng, diff_lb, diff_ub, 1, 3))
    for _ in range(50):
        blocks = _blocks(rng, height, width, _level(rng, diff_lb, diff_ub, 2, 8))
        grid = [[background] * width for _ in range(height - 1)] + [[wall] * width]
        sliding = []
        for index, cells in enumerate(blocks):
            # The first block always slides; the others slide half of the time.
            colour = wall if index == 0 or rng.random() < 0.5 else rng.choice(others)
            for r, c in cells:
                grid[r][c] = colour
            if colour == wall:
                sliding.append(cells)
        output = _drop(grid, sliding, background)
        tally = [sum(row.count(colour) for row in grid) for colour in range(10)]
        # The background must be the commonest colour: that is how a solver finds it.
        if output != grid and tally.count(max(tally)) == 1 and max(tally) == tally[background]:
            break
    else:
        raise ValueError("no usable grid in 50 tries")
    for _ in range(rng.randrange(4)):
        grid, output = _rotate(grid), _rotate(output)
    return {"input": grid, "output": output}


def _edges(height: int, width: int) -> dict[tuple[int, int], list[Cell]]:
    """The cells of each edge, keyed by the step that leads toward it."""
    return {
        (-1, 0): [(0, c) for c in range(width)],
        (1, 0): [(height - 1, c) for c in range(width)],
        (0, -1): [(r, 0) for r in range(height)],
        (0, 1): [(r, width - 1) for r in range(height)],
    }


def verify(grid: Grid) -> Grid:
    """Slide the wall-coloured blocks a step at a time toward the wall until none can move."""
    height, width = len(grid), len(grid[0])
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    output = [row[:] for row in grid]
    walls = [
        (step, cells)
        for step, cells in _edges(height, width).items()
        if len({grid[r][c] for r, c in cells}) == 1 and grid[cells[0][0]][cells[0][1]] != background
    ]
    if len(walls) != 1 or height < 2 or width < 2:
        return output
    step, wall = walls[0]
    colour = grid[wall[0][0]][wall[0][1]]
    blocks = _components(grid, colour, set(wall))
    moved = True
    # Every pass moves some block one step nearer the wall, so the passes are finite.
    while moved:
        moved = False
        for index, cells in enumerate(blocks):
            own = set(cells)
            target = [(r + step[0], c + step[1]) for r, c in cells]
            if all(
                0 <= r < height and 0 <= c < width and ((r, c) in own or output[r][c] == background)
                for r, c in target
            ):
                for r, c in cells:
                    output[r][c] = background
                for r, c in target:
                    output[r][c] = colour
                blocks[index] = target
                moved = True
    return output


def _components(grid: Grid, colour: int, skip: set[Cell]) -> list[list[Cell]]:
    """4-connected groups of ``colour`` cells outside ``skip``, in reading order."""
    height, width = len(grid), len(grid[0])
    seen = set(skip)
    groups = []
    for start in ((r, c) for r in range(height) for c in range(width)):
        if start in seen or grid[start[0]][start[1]] != colour:
            continue
        seen.add(start)
        stack, group = [start], []
        while stack:
            r, c = stack.pop()
            group.append((r, c))
            for dr, dc in _STEPS4:
                nr, nc = r + dr, c + dc
                if 0 <= nr < height and 0 <= nc < width and (nr, nc) not in seen and grid[nr][nc] == colour:
                    seen.add((nr, nc))
                    stack.append((nr, nc))
        groups.append(group)
    return groups
