"""Spiralling: a square spiral drawn in from the top-left corner over the grid."""

from __future__ import annotations

from dsl_rig import digits, step_on

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def test_spiral_is_added_to_wide() -> None:
    assert "spiral" in WIDE.by_text
    assert "spiral" not in CORE.by_text


def test_the_spiral_keeps_one_cell_of_gap_and_lets_the_grid_show_through() -> None:
    grid: Cells = [[0] * 6 for _ in range(6)]
    grid[0][0] = 7  # under the path: painted over
    grid[1][0] = 7  # in a gap: shows through
    s = 11  # the path's label, which a fitted map colours
    assert step_on("spiral", grid) == [
        [s, s, s, s, s, s],
        [7, 0, 0, 0, 0, s],
        [s, s, s, s, 0, s],
        [s, 0, s, s, 0, s],
        [s, 0, 0, 0, 0, s],
        [s, s, s, s, s, s],
    ]


def test_a_single_row_is_all_path() -> None:
    assert step_on("spiral", [[0, 0, 0]]) == [[11, 11, 11]]


def test_the_search_colours_the_spiral() -> None:
    train = [
        (digits("0000", "0000", "0000", "0000"), digits("3333", "0003", "3303", "3333")),
        (
            digits("00000", "00000", "00000", "00000", "00000"),
            digits("33333", "00003", "33303", "30003", "33333"),
        ),
    ]
    result = search(train, digits("000", "000", "000"), catalogue=WIDE)
    assert result.candidates
    assert result.candidates[0].prediction == digits("333", "003", "333")
