"""Self-similar placing: a one-block pattern copied into the blocks its own cells pick, in place."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def test_selfplace_is_added_to_wide() -> None:
    for where in ("fg", "bg"):
        assert f"selfplace({where})" in WIDE.by_text
        assert f"selfplace({where})" not in CORE.by_text


def test_the_pattern_fills_the_blocks_its_cells_pick() -> None:
    # The 2 x 2 pattern 1. / 11 sits in the top-right block; its cells pick blocks (0,0), (1,0), (1,1).
    grid: Cells = [
        [0, 0, 1, 0],
        [0, 0, 1, 1],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
    ]
    assert step_on("selfplace(fg)", grid) == [
        [1, 0, 0, 0],
        [1, 1, 0, 0],
        [1, 0, 1, 0],
        [1, 1, 1, 1],
    ]
    # Its one background cell picks the top-right block alone.
    assert step_on("selfplace(bg)", grid) == grid


def test_a_grid_of_other_sides_or_a_spread_foreground_does_not_apply() -> None:
    assert step_on("selfplace(fg)", [[0] * 5 for _ in range(5)]) is None
    spread: Cells = [
        [0, 1, 1, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
    ]
    assert step_on("selfplace(fg)", spread) is None
