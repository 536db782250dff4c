"""The eight symmetries of a grid (turns and mirror images), to serve a layout in any orientation.

A generator that builds its layouts one way round (the start on the left, say) turns the finished
grid by a random symmetry, so that a plan remembered from one level rarely fits another. A symmetry
is a number 0-7: bit 2 transposes (swaps x and y), then bit 0 mirrors left to right and bit 1 top to
bottom. Games whose codes carry a direction map them with `turned_side`.
"""

from __future__ import annotations

from .layouts import Cell, Grid

__all__ = ["SYMMETRIES", "swaps_diagonals", "turned_cell", "turned_grid", "turned_side"]

#: How many symmetries there are: draw one with ``rng.randrange(SYMMETRIES)``.
SYMMETRIES = 8

# Sides are 0-3: north, east, south, west (as in strokes.SIDE_STEPS).
_TRANSPOSED = (3, 2, 1, 0)  # x and y swapped: north <-> west, east <-> south
_ACROSS = (0, 3, 2, 1)  # mirrored left to right: east <-> west
_DOWN = (2, 1, 0, 3)  # mirrored top to bottom: north <-> south


def turned_cell(cell: Cell, symmetry: int, width: int, height: int) -> Cell:
    """Where a cell of a ``width`` x ``height`` grid goes under the symmetry."""
    x, y = cell
    if symmetry & 4:
        x, y, width, height = y, x, height, width
    if symmetry & 1:
        x = width - 1 - x
    if symmetry & 2:
        y = height - 1 - y
    return x, y


def turned_grid(grid: Grid, symmetry: int) -> Grid:
    """A new grid: ``grid`` under the symmetry (transposed grids swap their width and height)."""
    height, width = len(grid), len(grid[0])
    new_width, new_height = (height, width) if symmetry & 4 else (width, height)
    out = [[0] * new_width for _ in range(new_height)]
    for y, row in enumerate(grid):
        for x, code in enumerate(row):
            nx, ny = turned_cell((x, y), symmetry, width, height)
            out[ny][nx] = code
    return out


def turned_side(side: int, symmetry: int) -> int:
    """Where a side (0 north, 1 east, 2 south, 3 west) points under the symmetry."""
    if symmetry & 4:
        side = _TRANSPOSED[side]
    if symmetry & 1:
        side = _ACROSS[side]
    if symmetry & 2:
        side = _DOWN[side]
    return side


def swaps_diagonals(symmetry: int) -> bool:
    r"""Whether the symmetry turns a / diagonal into a \ one and back.

    Transposing keeps each diagonal (it is the mirror in one of them); each mirroring swaps them.
    """
    return bool((symmetry ^ symmetry >> 1) & 1)
