"""Crossing rings: the crossing of a row band and a column band ringed in a colour."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def test_crossring_is_added_to_wide() -> None:
    assert "crossring" in WIDE.by_text
    assert "crossring" not in CORE.by_text


def test_the_crossing_of_two_lines_is_ringed() -> None:
    grid: Cells = [
        [0, 2, 0, 0, 0],
        [0, 2, 0, 0, 0],
        [3, 2, 3, 3, 3],
        [0, 2, 0, 0, 0],
        [0, 2, 0, 0, 0],
    ]
    r = 11  # the ring's label, which a fitted map colours
    assert step_on("crossring", grid) == [
        [0, 2, 0, 0, 0],
        [r, r, r, 0, 0],
        [r, 2, r, 3, 3],
        [r, r, r, 0, 0],
        [0, 2, 0, 0, 0],
    ]


def test_thick_bands_ring_their_shared_box() -> None:
    grid: Cells = [
        [0, 0, 1, 1, 0, 0],
        [0, 0, 1, 1, 0, 0],
        [0, 0, 1, 1, 0, 0],
        [6, 6, 6, 6, 6, 6],
        [0, 0, 1, 1, 0, 0],
        [0, 0, 1, 1, 0, 0],
    ]
    r = 11
    assert step_on("crossring", grid) == [
        [0, 0, 1, 1, 0, 0],
        [0, 0, 1, 1, 0, 0],
        [0, r, r, r, r, 0],
        [6, r, 6, 6, r, 6],
        [0, r, r, r, r, 0],
        [0, 0, 1, 1, 0, 0],
    ]


def test_a_band_one_way_only_does_not_apply() -> None:
    assert step_on("crossring", [[0, 0, 0], [3, 3, 3], [0, 0, 0]]) is None
