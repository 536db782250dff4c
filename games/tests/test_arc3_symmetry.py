"""The eight symmetries the generators turn their layouts by, and the line art of strokes.py."""

from __future__ import annotations

import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games.strokes import SIDE_STEPS, arms, band, odd_cell
from continual_arc_games.symmetry import (
    SYMMETRIES,
    swaps_diagonals,
    turned_cell,
    turned_grid,
    turned_side,
)

GRID = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]  # 5 wide, 3 high, no symmetry


def test_the_eight_symmetries_give_eight_different_grids_and_move_cells_as_the_grid() -> None:
    turned = [turned_grid(GRID, k) for k in range(SYMMETRIES)]
    assert len({tuple(map(tuple, g)) for g in turned}) == 8
    assert turned[0] == GRID and turned[1][0] == [5, 4, 3, 2, 1] and turned[2][0] == [11, 12, 13, 14, 15]
    assert turned[4] == [[1, 6, 11], [2, 7, 12], [3, 8, 13], [4, 9, 14], [5, 10, 15]]  # transposed
    for k, grid in enumerate(turned):
        for y, row in enumerate(GRID):
            for x, code in enumerate(row):
                nx, ny = turned_cell((x, y), k, 5, 3)
                assert grid[ny][nx] == code


def test_sides_turn_with_the_cells() -> None:
    for k in range(SYMMETRIES):
        for x in range(1, 4):
            for y in range(1, 2):
                for side, (dx, dy) in enumerate(SIDE_STEPS):
                    here, there = turned_cell((x, y), k, 5, 3), turned_cell((x + dx, y + dy), k, 5, 3)
                    assert SIDE_STEPS[turned_side(side, k)] == (there[0] - here[0], there[1] - here[1])


def test_diagonals_swap_exactly_when_one_mirror_is_applied() -> None:
    for k in range(SYMMETRIES):
        slash = {turned_cell((x, 2 - x), k, 3, 3) for x in range(3)}  # a / across a 3x3 grid
        still_slash = all(x + y == 2 for x, y in slash)
        assert swaps_diagonals(k) == (not still_slash)


def test_arms_reach_the_sides_asked_for() -> None:
    assert odd_cell(7, 4) == 9 and odd_cell(12, 12) == 5 and odd_cell(8, 8) == 7
    assert band(5) == (2, 3) and band(9) == (3, 6)
    east_and_south = arms(0b0110, 5, 9)
    assert (east_and_south[2, 2:] == 9).all() and (east_and_south[2:, 2] == 9).all()
    assert (east_and_south[:2] == -1).all() and (east_and_south[:, :2] == -1).all()
