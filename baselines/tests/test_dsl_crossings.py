"""Marked crossings: a lattice's coloured crossings read as the cells between them."""

from __future__ import annotations

from dsl_rig import cells, step_on

from continual_arc_baselines.dsl.crossings import read_crossings


def _lattice(marks: list[list[int]]) -> list[list[int]]:
    # Lines of 4 on a ground of 0 at rows and columns 1, 3, 5, 7; crossing (i, j) shows marks[i][j].
    plain = [0, 4, 0, 4, 0, 4, 0, 4, 0]
    grid = []
    for y in range(9):
        if y % 2 == 0:
            grid.append(plain[:])
        else:
            row = [4] * 9
            for j, colour in enumerate(marks[y // 2]):
                row[2 * j + 1] = colour
            grid.append(row)
    return grid


def test_cells_whose_corners_agree_take_their_colour() -> None:
    # The coloured crossings span rows 0-2 and columns 0-3 of the lattice: a 2 x 3 answer. Only
    # the top-left cell has four corners of 2 and the bottom-right four of 3.
    marks = [[2, 2, 4, 4], [2, 2, 3, 3], [4, 4, 3, 3], [4, 4, 4, 4]]
    assert step_on("crossings{}", _lattice(marks)) == [[2, 0, 0], [0, 0, 3]]


def test_no_coloured_crossing_no_answer() -> None:
    assert read_crossings(cells(_lattice([[4] * 4] * 4)), 0) is None
    # Coloured crossings on one line only span no cell.
    assert read_crossings(cells(_lattice([[2, 2, 4, 4], [4] * 4, [4] * 4, [4] * 4])), 0) is None
