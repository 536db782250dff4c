"""Stretching: a box pulled out along one axis until it reaches the lone marker cell."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def test_stretch_is_added_to_wide() -> None:
    assert "stretch" in WIDE.by_text
    assert "stretch" not in CORE.by_text


def test_the_box_grows_down_to_the_marker() -> None:
    grid: Cells = [
        [0, 0, 0, 0, 0],
        [0, 2, 2, 2, 0],
        [0, 2, 1, 2, 0],
        [0, 2, 2, 2, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 8, 0, 0],
    ]
    assert step_on("stretch", grid) == [
        [0, 0, 0, 0, 0],
        [0, 2, 2, 2, 0],
        [0, 2, 1, 2, 0],
        [0, 2, 1, 2, 0],
        [0, 2, 1, 2, 0],
        [0, 2, 1, 2, 0],
        [0, 2, 2, 2, 0],
    ]


def test_the_box_grows_left_to_the_marker() -> None:
    grid: Cells = [
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 3, 3, 3],
        [8, 0, 0, 0, 3, 4, 3],
        [0, 0, 0, 0, 3, 3, 3],
        [0, 0, 0, 0, 0, 0, 0],
    ]
    assert step_on("stretch", grid) == [
        [0, 0, 0, 0, 0, 0, 0],
        [3, 3, 3, 3, 3, 3, 3],
        [3, 4, 4, 4, 4, 4, 3],
        [3, 3, 3, 3, 3, 3, 3],
        [0, 0, 0, 0, 0, 0, 0],
    ]


def test_a_diagonal_marker_or_two_markers_do_not_apply() -> None:
    box = [[0, 0, 0, 0, 0, 0], [0, 2, 2, 2, 0, 0], [0, 2, 1, 2, 0, 0], [0, 2, 2, 2, 0, 0], [0, 0, 0, 0, 0, 0]]
    diagonal = [row[:] for row in box]
    diagonal[4][5] = 8
    assert step_on("stretch", diagonal) is None
    two = [row[:] for row in box]
    two[4][2] = 8
    two[2][5] = 8
    assert step_on("stretch", two) is None
