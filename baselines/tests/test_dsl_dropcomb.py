"""Drop and comb: the lone dot falls a row and a comb of teeth is labelled above it."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE


def test_dropcomb_is_added_to_wide() -> None:
    assert "dropcomb" in WIDE.by_text
    assert "dropcomb" not in CORE.by_text


def test_the_dot_drops_and_the_teeth_share_its_column_parity() -> None:
    grid = [[0] * 5, [0, 0, 6, 0, 0], [0] * 5, [0] * 5]
    t = 11
    assert step_on("dropcomb", grid) == [
        [t, 0, t, 0, t],
        [t, 0, t, 0, t],
        [0, 0, 6, 0, 0],
        [0, 0, 0, 0, 0],
    ]


def test_two_dots_or_a_dot_on_the_floor_do_not_apply() -> None:
    assert step_on("dropcomb", [[0, 6, 0], [0, 0, 6], [0, 0, 0]]) is None
    assert step_on("dropcomb", [[0, 0, 0], [0, 0, 0], [0, 6, 0]]) is None
