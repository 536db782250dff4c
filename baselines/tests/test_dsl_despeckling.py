"""Despeckling: specks of a noise colour lifted off solid shapes, checked on hand-made grids."""

from __future__ import annotations

from dsl_rig import assert_added_to_wide, digits, step_on

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.ops import WIDE


def test_the_steps_are_in_wide() -> None:
    assert_added_to_wide("despeck")


def test_specks_on_a_block_take_its_colour_and_the_others_the_background() -> None:
    grid = [
        [0, 0, 0, 0, 0, 0, 8],
        [0, 8, 3, 3, 3, 0, 0],  # a speck on the block's corner: the tie goes to the block
        [0, 3, 8, 3, 3, 0, 0],  # a speck inside the block
        [0, 3, 3, 3, 3, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 8, 0],  # a speck in the open
    ]
    assert step_on("despeck", grid) == [
        [0, 0, 0, 0, 0, 0, 0],
        [0, 3, 3, 3, 3, 0, 0],
        [0, 3, 3, 3, 3, 0, 0],
        [0, 3, 3, 3, 3, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
    ]


def test_two_specks_side_by_side_are_healed_in_turn() -> None:
    grid = [
        [0, 0, 0, 0, 0, 0],
        [0, 2, 2, 2, 2, 0],
        [0, 2, 8, 8, 2, 0],
        [0, 2, 2, 2, 2, 0],
        [0, 0, 0, 0, 0, 0],
        [8, 0, 0, 0, 8, 0],
        [0, 0, 8, 0, 0, 0],
    ]
    # Each of the pair has three neighbours of the ring and one speck: both become 2.
    assert step_on("despeck", grid) == [
        [0, 0, 0, 0, 0, 0],
        [0, 2, 2, 2, 2, 0],
        [0, 2, 2, 2, 2, 0],
        [0, 2, 2, 2, 2, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]


def test_dots_with_no_shape_are_not_noise() -> None:
    assert step_on("despeck", [[0, 0, 8, 0], [8, 0, 0, 0], [0, 0, 0, 8]]) is None


def test_dominoes_are_shapes_not_noise() -> None:
    grid = [
        [0, 0, 0, 0, 0, 0],
        [5, 5, 0, 5, 5, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 4, 4, 4, 0, 5],
        [0, 0, 0, 0, 0, 5],
    ]
    assert step_on("despeck", grid) is None


def test_a_tie_between_two_shapes_is_not_guessed() -> None:
    # The speck at row 1, column 1 has two neighbours of 1 and two of 2, and 8-neighbours tie too.
    grid = [
        [1, 1, 2, 0],
        [1, 8, 2, 0],
        [1, 2, 2, 0],
        [8, 0, 0, 8],
    ]
    assert step_on("despeck", grid) is None


def test_the_search_finds_despeck() -> None:
    one_in = ("00000000", "06660000", "06960090", "06660000", "00000000", "00944440", "09044440", "00000000")
    one_out = ("00000000", "06660000", "06660000", "06660000", "00000000", "00044440", "00044440", "00000000")
    demos = [
        (digits(*one_in), digits(*one_out)),
        (
            digits("0000000", "0333300", "0393300", "0333300", "0000000", "9000000", "0000090"),
            digits("0000000", "0333300", "0333300", "0333300", "0000000", "0000000", "0000000"),
        ),
    ]
    test_in = digits("0000000", "0777000", "0797090", "0777000", "0000000", "0900000", "0000000")
    test_out = digits("0000000", "0777000", "0777000", "0777000", "0000000", "0000000", "0000000")
    found = search(demos, test_in, catalogue=WIDE)
    assert found.candidates and found.candidates[0].prediction == test_out
