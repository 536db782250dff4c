"""Dotted boxes: list the boxes' colours from the one holding the most dots to the one holding fewest.

A few hollow rectangles, each drawn in its own colour, hold some dots of one shared colour;
more dots lie loose outside every box. The output is a single column with one cell per box, the
box's colour, from the box with the most dots inside (top) to the box with the fewest (bottom).
Dots outside the boxes do not count.
"""

from __future__ import annotations

import random

RULE = "dotted-boxes"

Grid = list[list[int]]
Cell = tuple[int, int]

_AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def _level(rng: random.Random, diff_lb: float, diff_ub: float, lo: int, hi: int) -> int:
    """An integer in ``[lo, hi]``, higher for a harder draw (difficulty drawn between the bounds)."""
    return min(hi, max(lo, round(lo + (hi - lo) * rng.uniform(diff_lb, diff_ub))))


def _boxes(rng: random.Random, height: int, width: int, count: int) -> list[tuple[int, int, int, int]] | None:
    """``count`` rectangles (top, left, bottom, right), 5-8 cells a side, no two touching."""
    boxes: list[tuple[int, int, int, int]] = []
    near: set[Cell] = set()
    for _ in range(count):
        for _ in range(100):
            tall, wide = rng.randint(5, 8), rng.randint(5, 8)
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
    """Draw one pair: 2-4 boxes with different numbers of dots, and loose dots outside."""
    count = _level(rng, diff_lb, diff_ub, 2, 4)
    height = _level(rng, diff_lb, diff_ub, 9 + 2 * count, 30)
    width = _level(rng, diff_lb, diff_ub, 9 + 2 * count, 30)
    background, dot, *colours = rng.sample(range(10), 2 + count)
    for _ in range(50):
        boxes = _boxes(rng, height, width, count)
        if boxes is not None:
            break
    else:
        raise ValueError("no room for the boxes in 50 tries")
    grid = [[background] * width for _ in range(height)]
    inside: set[Cell] = set()
    # Inner areas are at least 3 x 3, so up to 7 dots always fit.
    for (top, left, bottom, right), colour, dots in zip(
        boxes, colours, rng.sample(range(8), count), strict=True
    ):
        for r in range(top, bottom + 1):
            for c in range(left, right + 1):
                edge = r in (top, bottom) or c in (left, right)
                grid[r][c] = colour if edge else background
                inside.update([] if edge else [(r, c)])
        room = [(r, c) for r in range(top + 1, bottom) for c in range(left + 1, right)]
        for r, c in rng.sample(room, dots):
            grid[r][c] = dot
    free = [
        (r, c)
        for r in range(height)
        for c in range(width)
        if grid[r][c] == background and (r, c) not in inside
    ]
    for r, c in rng.sample(free, min(len(free), _level(rng, diff_lb, diff_ub, 1, 8))):
        grid[r][c] = dot
    ranked = sorted(zip([_count(grid, box, dot) for box in boxes], colours, strict=True), reverse=True)
    return {"input": grid, "output": [[colour] for _, colour in ranked]}


def _count(grid: Grid, box: tuple[int, int, int, int], dot: int) -> int:
    top, left, bottom, right = box
    return sum(row[left + 1 : right].count(dot) for row in grid[top + 1 : bottom])


def verify(grid: Grid) -> Grid:
    """Find the hollow rectangles, count the other cells inside each, and list them by that count."""
    height, width = len(grid), len(grid[0])
    cells: dict[int, list[Cell]] = {}
    for r in range(height):
        for c in range(width):
            cells.setdefault(grid[r][c], []).append((r, c))
    background = max(sorted(cells), key=lambda colour: len(cells[colour]))
    found = []
    for colour in sorted(cells):
        rows = [r for r, _ in cells[colour]]
        cols = [c for _, c in cells[colour]]
        top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
        ring = {(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)} - {
            (r, c) for r in range(top + 1, bottom) for c in range(left + 1, right)
        }
        if colour != background and bottom - top >= 2 and right - left >= 2 and ring == set(cells[colour]):
            found.append((top, left, bottom, right, colour))
    boxed = {colour for *_, colour in found}
    ranked = []
    for top, left, bottom, right, colour in found:
        inner = [x for row in grid[top + 1 : bottom] for x in row[left + 1 : right]]
        dots = sum(x not in boxed and x != background for x in inner)
        ranked.append((-dots, top, left, colour))
    if not ranked:
        return [row[:] for row in grid]
    return [[colour] for *_, colour in sorted(ranked)]
