"""Arrow shots: each arrow fires a ray, and the shape it strikes takes the arrow's colour.

An arrow is two cells: a tail, whose colour every arrow shares, and a head of the arrow's own
colour. From the head a ray of the head's colour runs on, away from the tail, across background
cells, until it leaves the grid or strikes a shape. A struck shape is repainted entirely in the
head's colour. Rays never cross, and no two rays strike the same shape.
"""

from __future__ import annotations

import random

RULE = "arrow-shots"

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


class _Board:
    """The generator's scene: shapes (by index), arrows, and the rays already fired."""

    def __init__(self, height: int, width: int) -> None:
        self.height, self.width = height, width
        self.shape_at: dict[Cell, int] = {}
        self.shapes = 0
        self.taken: set[Cell] = set()  # every cell of a shape or an arrow
        self.near: set[Cell] = set()  # those cells and their 8 neighbours
        self.arrows: list[tuple[Cell, Cell, list[Cell], int | None]] = []
        self.rayed: set[Cell] = set()

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width

    def occupy(self, cells: list[Cell]) -> None:
        self.taken.update(cells)
        self.near.update((r + dr, c + dc) for r, c in cells for dr, dc in _AROUND)

    def add_shape(self, rng: random.Random) -> None:
        top, left = rng.randrange(self.height), rng.randrange(self.width)
        cells = [(top + r, left + c) for r, c in _blob(rng, rng.randint(3, 8))]
        if all(self.inside(*cell) and cell not in self.near for cell in cells):
            self.shape_at.update((cell, self.shapes) for cell in cells)
            self.shapes += 1
            self.occupy(cells)

    def add_arrow(self, rng: random.Random) -> None:
        tail = (rng.randrange(self.height), rng.randrange(self.width))
        dr, dc = rng.choice(_STEPS4)
        head = (tail[0] + dr, tail[1] + dc)
        if not self.inside(*head) or {tail, head} & (self.near | self.rayed):
            return
        ray, (r, c) = [], (head[0] + dr, head[1] + dc)
        while self.inside(r, c) and (r, c) not in self.taken:
            ray.append((r, c))
            r, c = r + dr, c + dc
        struck = self.shape_at.get((r, c)) if self.inside(r, c) else None
        if not self.inside(r, c) or struck is not None:
            hit_before = {arrow[3] for arrow in self.arrows} - {None}
            if ray and not self.rayed.intersection(ray) and struck not in hit_before:
                self.arrows.append((tail, head, ray, struck))
                self.rayed.update(ray)
                self.occupy([tail, head])


def _scene(rng: random.Random, height: int, width: int, shapes: int, arrows: int) -> _Board | None:
    board = _Board(height, width)
    for _ in range(20 * shapes):
        if board.shapes < shapes:
            board.add_shape(rng)
    for _ in range(50 * arrows):
        if len(board.arrows) < arrows:
            board.add_arrow(rng)
    # At least one ray strikes a shape, so that every pair shows the repainting.
    if len(board.arrows) < arrows or all(arrow[3] is None for arrow in board.arrows):
        return None
    return board


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: 1-4 shapes and 2-4 arrows with their rays."""
    height = _level(rng, diff_lb, diff_ub, 7, 30)
    width = _level(rng, diff_lb, diff_ub, 7, 30)
    shapes, arrows = _level(rng, diff_lb, diff_ub, 1, 4), _level(rng, diff_lb, diff_ub, 2, 4)
    background, tail_colour, shape_colour, *heads = rng.sample(range(10), 3 + arrows)
    for _ in range(50):
        board = _scene(rng, height, width, shapes, arrows)
        if board is not None:
            break
    else:
        raise ValueError("no scene in 50 tries")
    grid = [[background] * width for _ in range(height)]
    for r, c in board.shape_at:
        grid[r][c] = shape_colour
    output = [row[:] for row in grid]
    for (tail, head, ray, struck), colour in zip(board.arrows, heads, strict=True):
        grid[tail[0]][tail[1]] = output[tail[0]][tail[1]] = tail_colour
        grid[head[0]][head[1]] = colour
        hit = [cell for cell, index in board.shape_at.items() if struck is not None and index == struck]
        for r, c in [head, *ray, *hit]:
            output[r][c] = colour
    return {"input": grid, "output": output}


def _component(grid: Grid, start: Cell) -> list[Cell]:
    """The 4-connected cells of ``start``'s colour that contain ``start``."""
    colour = grid[start[0]][start[1]]
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for dr, dc in _STEPS4:
            nr, nc = r + dr, c + dc
            near = 0 <= nr < len(grid) and 0 <= nc < len(grid[0]) and (nr, nc) not in seen
            if near and grid[nr][nc] == colour:
                seen.add((nr, nc))
                stack.append((nr, nc))
    return sorted(seen)


def verify(grid: Grid) -> Grid:
    """Fire every arrow: paint its ray and the shape it strikes in its head's colour."""
    height, width = len(grid), len(grid[0])
    counts = [sum(row.count(colour) for row in grid) for colour in range(10)]
    background = counts.index(max(counts))
    cells = [(r, c) for r in range(height) for c in range(width) if grid[r][c] != background]
    lone = [cell for cell in cells if len(_component(grid, cell)) == 1]
    # The tail colour is the one that stands alone most often: one cell in every arrow.
    per_colour = [sum(grid[r][c] == colour for r, c in lone) for colour in range(10)]
    tail = per_colour.index(max(per_colour))
    output = [row[:] for row in grid]
    for r, c in (cell for cell in lone if grid[cell[0]][cell[1]] == tail):
        heads = [
            (dr, dc)
            for dr, dc in _STEPS4
            if 0 <= r + dr < height and 0 <= c + dc < width and grid[r + dr][c + dc] not in (background, tail)
        ]
        if len(heads) != 1:
            continue
        (dr, dc), colour = heads[0], grid[r + heads[0][0]][c + heads[0][1]]
        nr, nc = r + 2 * dr, c + 2 * dc
        while 0 <= nr < height and 0 <= nc < width and grid[nr][nc] == background:
            output[nr][nc] = colour
            nr, nc = nr + dr, nc + dc
        if 0 <= nr < height and 0 <= nc < width and grid[nr][nc] != tail:
            for sr, sc in _component(grid, (nr, nc)):
                output[sr][sc] = colour
    return output
