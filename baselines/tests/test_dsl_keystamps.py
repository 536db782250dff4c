"""Key stamps: the key across a dividing line stamped, centred, on each lone marker."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]

KEYED: Cells = [
    [1, 2, 1, 5, 0, 0, 0],
    [2, 3, 2, 5, 0, 0, 0],
    [1, 2, 1, 5, 0, 0, 0],
    [0, 0, 0, 5, 0, 0, 0],
    [0, 0, 0, 5, 0, 8, 0],
]
"""A 3 x 3 key left of a line of 5, one marker of 8 right of it."""


def test_keystamp_is_added_to_wide() -> None:
    assert "keystamp" in WIDE.by_text
    assert "keystamp" not in CORE.by_text


def test_the_key_is_stamped_on_the_marker_and_cut_at_the_border() -> None:
    assert step_on("keystamp", KEYED) == [
        [1, 2, 1, 5, 0, 0, 0],
        [2, 3, 2, 5, 0, 0, 0],
        [1, 2, 1, 5, 0, 0, 0],
        [0, 0, 0, 5, 1, 2, 1],
        [0, 0, 0, 5, 2, 3, 2],
    ]


def test_a_copy_stops_at_the_line() -> None:
    grid = [row[:] for row in KEYED]
    grid[4][5] = 0
    grid[1][4] = 8
    assert step_on("keystamp", grid) == [
        [1, 2, 1, 5, 2, 1, 0],
        [2, 3, 2, 5, 3, 2, 0],
        [1, 2, 1, 5, 2, 1, 0],
        [0, 0, 0, 5, 0, 0, 0],
        [0, 0, 0, 5, 0, 0, 0],
    ]


def test_touching_markers_or_no_line_do_not_apply() -> None:
    touching = [row[:] for row in KEYED]
    touching[3][6] = 8
    assert step_on("keystamp", touching) is None
    assert step_on("keystamp", [[1, 2, 1, 0], [2, 3, 2, 0], [0, 0, 0, 8]]) is None
