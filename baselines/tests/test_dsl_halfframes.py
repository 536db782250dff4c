"""Half frames: each half of the grid framed in its seed's colour and ruled across at the seed."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE


def test_halfframe_is_added_to_wide() -> None:
    assert "halfframe" in WIDE.by_text
    assert "halfframe" not in CORE.by_text


def test_each_half_is_framed_and_ruled_by_its_seed() -> None:
    grid = [[0] * 4, [0, 0, 3, 0], [0] * 4, [0] * 4, [0, 5, 0, 0], [0] * 4]
    assert step_on("halfframe", grid) == [
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [3, 0, 0, 3],
        [5, 0, 0, 5],
        [5, 5, 5, 5],
        [5, 5, 5, 5],
    ]


def test_seeds_in_one_half_or_an_odd_grid_do_not_apply() -> None:
    assert step_on("halfframe", [[0, 3, 0], [0, 0, 5], [0, 0, 0], [0, 0, 0]]) is None
    assert step_on("halfframe", [[0, 3, 0], [0, 0, 0], [0, 5, 0]]) is None
