"""Turning ray: a ray leaves its source and turns clockwise at every block in its way.

One cell on the edge of the grid, of a colour found nowhere else, is the source. A ray of the
source's colour leaves it straight into the grid. When the next cell ahead is a block (any other
colour but the background), the ray turns a quarter clockwise and goes on; it ends when it leaves
the grid. Blocks that the ray never meets change nothing.
"""

from __future__ import annotations

import random

RULE = "turning-ray"

Grid = list[list[int]]
Cell = tuple[int, int]
Step = tuple[int, int]


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _clockwise(step: Step) -> Step:
    """A quarter turn clockwise of a (row, column) step: right, down, left, up, right."""
    return step[1], -step[0]


class _Tracer:
    """Lays a ray's route segment by segment, with a block at every turn, from the left edge."""

    def __init__(self, height: int, width: int, row: int) -> None:
        self.height, self.width = height, width
        self.route: list[Cell] = [(row, 0)]
        self.blocks: set[Cell] = set()
        self.head, self.step = (row, 0), (0, 1)

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def ahead(self, cell: Cell, step: Step) -> Cell:
        return cell[0] + step[0], cell[1] + step[1]

    def free_run(self) -> list[Cell]:
        """The cells the ray crosses going straight from its head, up to the edge or a block."""
        run, cell = [], self.ahead(self.head, self.step)
        while self.inside(cell) and cell not in self.blocks:
            run.append(cell)
            cell = self.ahead(cell, self.step)
        return run

    def turn_points(self, run: list[Cell]) -> list[int]:
        """The run lengths after which the ray may turn: a block fits ahead, and the way on is free."""
        on_route = set(self.route)
        lengths = []
        for length, here in enumerate(run, 1):
            block = self.ahead(here, self.step)
            # A new block may not sit on the route; the cell past the run may already be a block.
            if length < len(run) and block in on_route:
                continue
            if length == len(run) and block not in self.blocks:
                continue
            after = self.ahead(here, _clockwise(self.step))
            if self.inside(after) and after not in self.blocks and after != block:
                lengths.append(length)
        return lengths

    def turn(self, run: list[Cell], length: int) -> None:
        self.route += run[:length]
        self.head = run[length - 1]
        self.blocks.add(self.ahead(self.head, self.step))
        self.step = _clockwise(self.step)


def _route(rng: random.Random, height: int, width: int, turns: int) -> _Tracer | None:
    """A route with ``turns`` turns that ends by leaving the grid, or None where none was found."""
    tracer = _Tracer(height, width, rng.randint(1, height - 2))
    for _ in range(turns):
        run = tracer.free_run()
        lengths = tracer.turn_points(run)
        if not lengths:
            return None
        tracer.turn(run, rng.choice(lengths))
    run = tracer.free_run()
    if tracer.inside(tracer.ahead(run[-1] if run else tracer.head, tracer.step)):
        return None  # the last straight run would meet a block
    tracer.route += run
    return tracer


def _rotate(grid: Grid) -> Grid:
    """The grid turned a quarter clockwise."""
    return [list(row) for row in zip(*grid[::-1], strict=True)]


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: a source on the left edge, the blocks of a route, and a few stray blocks."""
    height = _level(rng, diff_lb, diff_ub, 6, 30)
    width = _level(rng, diff_lb, diff_ub, 6, 30)
    background, source, block = rng.sample(range(10), 3)
    turns = _level(rng, diff_lb, diff_ub, 1, 2 + min(height, width) // 4)
    for _ in range(100):
        tracer = _route(rng, height, width, turns)
        if tracer is not None:
            break
    else:
        raise ValueError("no route in 100 tries")
    grid = [[background] * width for _ in range(height)]
    # Stray blocks go anywhere off the route and off the route's blocks (a block used twice would
    # leave its colour with one cell, like the source's).
    taken = set(tracer.route) | tracer.blocks
    strays = [(r, c) for r in range(height) for c in range(width) if (r, c) not in taken]
    for r, c in sorted(tracer.blocks) + rng.sample(strays, _level(rng, diff_lb, diff_ub, 1, 8)):
        grid[r][c] = block
    grid[tracer.route[0][0]][0] = source
    output = [row[:] for row in grid]
    for r, c in tracer.route:
        output[r][c] = source
    for _ in range(rng.randrange(4)):
        grid, output = _rotate(grid), _rotate(output)
    return {"input": grid, "output": output}


def _source(grid: Grid, background: int) -> tuple[Cell, Step] | None:
    """The lone-coloured cell on an edge (not a corner) and the step pointing into the grid."""
    height, width = len(grid), len(grid[0])
    counts = [0] * 10
    for row in grid:
        for colour in row:
            counts[colour] += 1
    found = []
    for r in range(height):
        for c in range(width):
            if counts[grid[r][c]] != 1 or grid[r][c] == background:
                continue
            inward = {0: (1, 0), height - 1: (-1, 0)}.get(r) if 0 < c < width - 1 else None
            if 0 < r < height - 1:
                inward = {0: (0, 1), width - 1: (0, -1)}.get(c)
            if inward is not None:
                found.append(((r, c), inward))
    return found[0] if len(found) == 1 else None


def verify(grid: Grid) -> Grid:
    """Trace the ray from the source, turning clockwise before every block, until it leaves."""
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    output = [row[:] for row in grid]
    start = _source(grid, background)
    if start is None:
        return output
    (r, c), (dr, dc) = start
    colour = grid[r][c]
    seen = set()
    # A state repeats only if the ray would circle forever; stop it there.
    while (r, c, dr, dc) not in seen:
        seen.add((r, c, dr, dc))
        nr, nc = r + dr, c + dc
        if not (0 <= nr < len(grid) and 0 <= nc < len(grid[0])):
            break
        if grid[nr][nc] not in (background, colour):
            dr, dc = dc, -dr
            continue
        r, c = nr, nc
        output[r][c] = colour
    return output
