"""Crossed corners: each corner colour of a shape painted past the opposite corner."""

from __future__ import annotations

from dsl_rig import digits, step_on

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def test_crosscorners_is_added_to_wide() -> None:
    for how in ("copy", "move"):
        assert f"crosscorners({how})" in WIDE.by_text
        assert f"crosscorners({how})" not in CORE.by_text


def test_a_block_copies_its_colours_past_the_opposite_corners() -> None:
    grid: Cells = [[0] * 6 for _ in range(6)]
    grid[2][2:4] = [1, 2]
    grid[3][2:4] = [3, 4]
    assert step_on("crosscorners(copy)", grid) == [
        [4, 4, 0, 0, 3, 3],
        [4, 4, 0, 0, 3, 3],
        [0, 0, 1, 2, 0, 0],
        [0, 0, 3, 4, 0, 0],
        [2, 2, 0, 0, 1, 1],
        [2, 2, 0, 0, 1, 1],
    ]


def test_a_box_moves_its_marks_past_the_opposite_corners() -> None:
    grid: Cells = [
        [0, 0, 0, 0, 0, 0, 0],
        [0, 7, 7, 7, 7, 7, 0],
        [0, 7, 1, 0, 2, 7, 0],
        [0, 7, 0, 0, 0, 7, 0],
        [0, 7, 3, 0, 4, 7, 0],
        [0, 7, 7, 7, 7, 7, 0],
        [0, 0, 0, 0, 0, 0, 0],
    ]
    assert step_on("crosscorners(move)", grid) == [
        [4, 0, 0, 0, 0, 0, 3],
        [0, 7, 7, 7, 7, 7, 0],
        [0, 7, 0, 0, 0, 7, 0],
        [0, 7, 0, 0, 0, 7, 0],
        [0, 7, 0, 0, 0, 7, 0],
        [0, 7, 7, 7, 7, 7, 0],
        [2, 0, 0, 0, 0, 0, 1],
    ]


def test_shapes_of_neither_kind_do_not_apply() -> None:
    line: Cells = [[0, 0, 0, 0], [0, 5, 5, 5], [0, 0, 0, 0]]
    assert step_on("crosscorners(copy)", line) is None
    assert step_on("crosscorners(move)", line) is None
    # A box at the border: its marks would leave the grid.
    edge: Cells = [
        [7, 7, 7, 7],
        [7, 1, 2, 7],
        [7, 3, 4, 7],
        [7, 7, 7, 7],
    ]
    assert step_on("crosscorners(move)", [[0] * 4, *edge]) is None


def test_the_search_finds_crossed_corners() -> None:
    train = [
        (
            digits("000000", "000000", "001200", "003400", "000000", "000000"),
            digits("440033", "440033", "001200", "003400", "220011", "220011"),
        ),
        (
            digits("000000", "056000", "078000", "000000", "000000", "000000"),
            digits("800770", "056000", "078000", "600550", "600550", "000000"),
        ),
    ]
    test_in = digits("000000", "000000", "000000", "000190", "000230", "000000")
    result = search(train, test_in, catalogue=WIDE)
    assert result.candidates
    answer = digits("000000", "033002", "033002", "000190", "000230", "099001")
    assert result.candidates[0].prediction == answer
