"""Band lines: each speck of a band draws a line across its band."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def test_bandline_is_added_to_wide() -> None:
    assert "bandline" in WIDE.by_text
    assert "bandline" not in CORE.by_text


def test_specks_cross_their_own_band_only() -> None:
    grid: Cells = [
        [4, 4, 4, 4],
        [4, 8, 4, 4],
        [2, 2, 2, 2],
        [2, 2, 2, 8],
        [2, 2, 2, 2],
    ]
    assert step_on("bandline", grid) == [
        [4, 8, 4, 4],
        [4, 8, 4, 4],
        [2, 2, 2, 8],
        [2, 2, 2, 8],
        [2, 2, 2, 8],
    ]


def test_column_bands_draw_along_rows() -> None:
    grid: Cells = [
        [1, 1, 0, 0, 0],
        [1, 1, 0, 5, 0],
        [1, 6, 0, 0, 0],
    ]
    assert step_on("bandline", grid) == [
        [1, 1, 0, 0, 0],
        [1, 1, 5, 5, 5],
        [6, 6, 0, 0, 0],
    ]


def test_two_colours_in_a_lane_or_one_band_do_not_apply() -> None:
    clash: Cells = [[4, 4, 4], [4, 4, 4], [2, 2, 8], [2, 2, 2], [2, 2, 5]]
    assert step_on("bandline", clash) is None
    assert step_on("bandline", [[4, 4, 4], [4, 8, 4], [4, 4, 4]]) is None
