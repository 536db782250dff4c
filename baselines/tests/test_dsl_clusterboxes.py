"""Cluster boxes: loose clusters of the rarest colour boxed in, checked on hand-made grids."""

from __future__ import annotations

from dsl_rig import assert_added_to_wide, step_on

from continual_arc_baselines.dsl.grid import TRUE

T = TRUE

_GRID = [
    [0, 1, 0, 1, 0, 0],
    [0, 2, 1, 2, 0, 1],
    [1, 0, 0, 0, 1, 0],
    [0, 2, 0, 0, 0, 0],
    [0, 0, 0, 1, 0, 2],
]
"""Four cells of 2 (the rarest colour): three two apart at rows 1-3, columns 1-3, one far off."""


def test_the_steps_are_in_wide() -> None:
    assert_added_to_wide("clusterbox(1)", "clusterbox(2)")


def test_cells_two_apart_make_one_cluster_whose_box_is_labelled() -> None:
    assert step_on("clusterbox(2)", _GRID) == [
        [0, 1, 0, 1, 0, 0],
        [0, 2, T, 2, 0, 1],
        [1, T, T, T, 1, 0],
        [0, 2, T, T, 0, 0],
        [0, 0, 0, 1, 0, 2],
    ]


def test_with_a_gap_of_one_every_cell_stands_alone_and_nothing_changes() -> None:
    assert step_on("clusterbox(1)", _GRID) is None


def test_two_colours_have_no_noise_to_box() -> None:
    assert step_on("clusterbox(2)", [[0, 2, 0], [2, 0, 2], [0, 0, 0]]) is None


def test_a_tie_for_the_rarest_colour_is_not_guessed() -> None:
    assert step_on("clusterbox(2)", [[0, 2, 0, 3], [0, 0, 2, 3], [0, 0, 1, 1]]) is None
