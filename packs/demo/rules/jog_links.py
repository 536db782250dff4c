"""Jog links: two markers on opposite edges are joined by a path that jogs at a third marker's line.

Each colour (besides the background) marks three cells on the edges of the grid: two on opposite
edges, one on an edge between them. The output joins the two opposite markers with a path of
their colour: straight in from the first marker to the row or column of the third marker, along
that line to the second marker's row or column, and straight out to the second marker. Paths of
different colours never meet.
"""

from __future__ import annotations

import random

RULE = "jog-links"

Grid = list[list[int]]
Cell = tuple[int, int]


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _rotate(grid: Grid) -> Grid:
    """The grid turned a quarter clockwise."""
    return [list(row) for row in zip(*grid[::-1], strict=True)]


def _link(height: int, width: int, left: int, right: int, jog: int) -> list[Cell]:
    """The generator's path from ``(left, 0)`` to ``(right, width - 1)`` jogging at column ``jog``."""
    low, high = min(left, right), max(left, right)
    return (
        [(left, c) for c in range(jog)]
        + [(r, jog) for r in range(low, high + 1)]
        + [(right, c) for c in range(jog + 1, width)]
    )


def _layout(rng: random.Random, height: int, width: int, count: int) -> list[tuple[int, int, int]] | None:
    """``count`` (left row, right row, jog column) triples whose paths and markers never meet."""
    used: set[Cell] = set()
    links = []
    for _ in range(count):
        for _ in range(20):
            left, right = rng.sample(range(1, height - 1), 2)
            jog = rng.randint(1, width - 2)
            path = _link(height, width, left, right, jog)
            if (0, jog) not in used and not used.intersection(path):
                break
        else:
            return None
        used.update([*path, (0, jog)])
        links.append((left, right, jog))
    return links


def generate(rng: random.Random, diff_lb: float = 0.0, diff_ub: float = 1.0) -> dict[str, Grid]:
    """Draw one pair: markers on the left, right and top edges for 1-4 colours."""
    height = _level(rng, diff_lb, diff_ub, 5, 30)
    width = _level(rng, diff_lb, diff_ub, 5, 30)
    count = _level(rng, diff_lb, diff_ub, 1, min(4, (height - 2) // 2, width - 2))
    background, *colours = rng.sample(range(10), 1 + count)
    for _ in range(50):
        links = _layout(rng, height, width, count)
        if links is not None:
            break
    else:
        raise ValueError("no room for the paths in 50 tries")
    grid = [[background] * width for _ in range(height)]
    output = [row[:] for row in grid]
    for colour, (left, right, jog) in zip(colours, links, strict=True):
        for r, c in [(left, 0), (right, width - 1), (0, jog)]:
            grid[r][c] = colour
        for r, c in [*_link(height, width, left, right, jog), (0, jog)]:
            output[r][c] = colour
    for _ in range(rng.randrange(4)):
        grid, output = _rotate(grid), _rotate(output)
    return {"input": grid, "output": output}


def _edges(cell: Cell, height: int, width: int) -> set[str]:
    r, c = cell
    return {name for name, on in (("top", r == 0), ("bottom", r == height - 1)) if on} | {
        name for name, on in (("left", c == 0), ("right", c == width - 1)) if on
    }


def _join(start: Cell, end: Cell, jog: int, across: bool) -> list[Cell]:
    """Cells from ``start`` to ``end``: straight to line ``jog``, along it, then straight on.

    ``across`` means the markers face each other left and right (the jog is a column); otherwise
    they face each other top and bottom (the jog is a row).
    """
    if not across:
        return [(r, c) for c, r in _join((start[1], start[0]), (end[1], end[0]), jog, True)]
    (r1, c1), (r2, c2) = start, end
    step = 1 if c2 > c1 else -1
    first = [(r1, c) for c in range(c1, jog + step, step)]
    middle = [(r, jog) for r in range(min(r1, r2), max(r1, r2) + 1)]
    last = [(r2, c) for c in range(jog, c2 + step, step)]
    return first + middle + last


def verify(grid: Grid) -> Grid:
    """Join each colour's facing markers with a path jogging at its third marker's line."""
    height, width = len(grid), len(grid[0])
    output = [row[:] for row in grid]
    cells: dict[int, list[Cell]] = {}
    for r in range(height):
        for c in range(width):
            cells.setdefault(grid[r][c], []).append((r, c))
    for colour in sorted(cells):
        marks = cells[colour]
        sides = [_edges(cell, height, width) for cell in marks]
        # Three markers, each on exactly one edge (corners would be ambiguous).
        if len(marks) != 3 or any(len(side) != 1 for side in sides):
            continue
        named = {next(iter(side)): cell for side, cell in zip(sides, marks, strict=True)}
        if len(named) != 3:
            continue
        if "left" in named and "right" in named:
            third = named.get("top", named.get("bottom"))
            path = _join(named["left"], named["right"], third[1], True) if third else []
        elif "top" in named and "bottom" in named:
            third = named.get("left", named.get("right"))
            path = _join(named["top"], named["bottom"], third[0], False) if third else []
        else:
            path = []
        for r, c in path:
            output[r][c] = colour
    return output
