"""Wall slopes: a floor and a diagonal slope of wall-thick blocks laid beside a wall, as labels."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

s, f = 11, 12  # the slope's label and the floor's


def test_wallslope_is_added_to_wide() -> None:
    assert "wallslope" in WIDE.by_text
    assert "wallslope" not in CORE.by_text


def test_a_thin_wall_gets_a_floor_and_a_slope_to_the_corner() -> None:
    grid = [[6, 0, 0, 0, 0] for _ in range(5)]
    assert step_on("wallslope", grid) == [
        [6, 0, 0, 0, s],
        [6, 0, 0, s, 0],
        [6, 0, s, 0, 0],
        [6, s, 0, 0, 0],
        [6, f, f, f, f],
    ]


def test_a_thick_wall_lays_thick_blocks() -> None:
    grid = [[6, 6, 0, 0, 0, 0] for _ in range(6)]
    assert step_on("wallslope", grid) == [
        [6, 6, 0, 0, s, s],
        [6, 6, 0, 0, s, s],
        [6, 6, s, s, 0, 0],
        [6, 6, s, s, 0, 0],
        [6, 6, f, f, f, f],
        [6, 6, f, f, f, f],
    ]


def test_two_walls_or_none_do_not_apply() -> None:
    assert step_on("wallslope", [[6, 0, 0, 7] for _ in range(4)]) is None
    assert step_on("wallslope", [[0, 0, 0] for _ in range(3)]) is None
