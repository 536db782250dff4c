"""Key stripes: the rows past a key line and its rule striped in the key's colours in turn."""

from __future__ import annotations

from dsl_rig import step_on

from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def test_keystripes_is_added_to_wide() -> None:
    assert "keystripes" in WIDE.by_text
    assert "keystripes" not in CORE.by_text


def test_a_top_key_stripes_the_rows_below_in_turn() -> None:
    grid: Cells = [[2, 1, 4], [5, 5, 5], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert step_on("keystripes", grid) == [[2, 1, 4], [5, 5, 5], [2, 2, 2], [1, 1, 1], [4, 4, 4], [2, 2, 2]]


def test_a_left_key_reads_bottom_to_top() -> None:
    grid: Cells = [[1, 5, 0, 0, 0], [2, 5, 0, 0, 0], [3, 5, 0, 0, 0]]
    assert step_on("keystripes", grid) == [[1, 5, 3, 2, 1], [2, 5, 3, 2, 1], [3, 5, 3, 2, 1]]


def test_a_drawn_on_field_or_no_rule_does_not_apply() -> None:
    assert step_on("keystripes", [[2, 1, 4], [5, 5, 5], [0, 7, 0], [0, 0, 0]]) is None
    assert step_on("keystripes", [[2, 1, 4], [5, 6, 5], [0, 0, 0], [0, 0, 0]]) is None
