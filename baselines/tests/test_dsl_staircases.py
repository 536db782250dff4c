"""Staircases: growing steps on one side of an edge bar, shrinking steps on the other, as labels."""

from __future__ import annotations

from dsl_rig import digits, step_on

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def test_staircase_is_added_to_wide() -> None:
    assert "staircase" in WIDE.by_text
    assert "staircase" not in CORE.by_text


def test_a_bar_out_of_the_left_edge_grows_above_and_shrinks_below() -> None:
    grid: Cells = [[0] * 5, [0] * 5, [2, 2, 0, 0, 0], [0] * 5, [0] * 5]
    assert step_on("staircase", grid) == [
        [11, 11, 11, 11, 0],
        [11, 11, 11, 0, 0],
        [2, 2, 0, 0, 0],
        [12, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
    ]


def test_a_bar_out_of_the_bottom_edge_grows_to_its_left() -> None:
    grid: Cells = [[0] * 5, [0] * 5, [0] * 5, [0, 2, 0, 0, 0], [0, 2, 0, 0, 0]]
    assert step_on("staircase", grid) == [
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [11, 0, 0, 0, 0],
        [11, 2, 0, 0, 0],
        [11, 2, 12, 0, 0],
    ]


def test_a_floating_bar_or_two_bars_do_not_apply() -> None:
    assert step_on("staircase", [[0] * 5, [0, 2, 2, 0, 0], [0] * 5]) is None
    assert step_on("staircase", [[2, 2, 0, 0, 0], [0] * 5, [2, 2, 0, 0, 0]]) is None


def test_the_search_colours_the_steps() -> None:
    train = [
        (
            digits("0000000", "0000000", "2200000", "0000000", "0000000"),
            digits("3333000", "3330000", "2200000", "1000000", "0000000"),
        ),
        (
            digits("000000", "000000", "222000", "000000", "000000", "000000"),
            digits("333330", "333300", "222000", "110000", "100000", "000000"),
        ),
    ]
    test_in = digits("0000", "2000", "0000", "0000")
    result = search(train, test_in, catalogue=WIDE)
    assert result.candidates
    assert result.candidates[0].prediction == digits("3300", "2000", "0000", "0000")
