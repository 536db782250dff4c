"""Fence boxes: the box one cell inside the lone markers drawn in the figure's colour."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]

FENCED: Cells = [
    [0, 0, 0, 5, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0],
    [5, 0, 0, 8, 8, 0, 5],
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 5, 0, 0, 0, 0],
]
"""Four lone markers of 5 around a figure of 8."""


def test_fencebox_is_added_to_wide() -> None:
    assert "fencebox" in WIDE.by_text
    assert "fencebox" not in CORE.by_text


def test_the_box_is_drawn_one_cell_inside_the_markers() -> None:
    assert step_on("fencebox", FENCED) == [
        [0, 0, 0, 5, 0, 0, 0],
        [0, 8, 8, 8, 8, 8, 0],
        [0, 8, 0, 0, 0, 8, 0],
        [5, 8, 0, 8, 8, 8, 5],
        [0, 8, 0, 0, 0, 8, 0],
        [0, 8, 8, 8, 8, 8, 0],
        [0, 0, 5, 0, 0, 0, 0],
    ]


def test_touching_markers_or_a_third_colour_do_not_apply() -> None:
    touching = [row[:] for row in FENCED]
    touching[1][3] = 5
    assert step_on("fencebox", touching) is None
    third = [row[:] for row in FENCED]
    third[5][5] = 7
    assert step_on("fencebox", third) is None
