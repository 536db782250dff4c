"""Inward rays: border cells shooting straight in, meeting halfway (`dsl.inward`)."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.inward import fit_inward, inward_op, parse_inward

# A cell on the left side and one on the right shoot toward each other; grey where they meet.
_DEMOS = [
    (
        [[0, 0, 0, 0, 0], [2, 0, 0, 0, 3], [0, 0, 0, 0, 0]],
        [[0, 0, 0, 0, 0], [2, 2, 5, 3, 3], [0, 0, 0, 0, 0]],
    ),
    (
        [[0, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 8], [0, 0, 0, 0, 0, 0, 0]],
        [[0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 5, 8, 8, 8], [0, 0, 0, 0, 0, 0, 0]],
    ),
]


def test_inward_reads_each_cells_way_from_the_side_it_lies_on() -> None:
    # The test grid stands on its side: the cells lie on the top and bottom and shoot down and up.
    test = [[0, 4, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 6, 0]]
    given = fit_input(_DEMOS, test)
    ops = fit_inward(given)
    assert [op.text for op in ops] == ["inward{5}"]
    check_fitted(ops[0], given, [[0, 4, 0], [0, 4, 0], [0, 5, 0], [0, 6, 0], [0, 6, 0]])


def test_inward_corner_cells_shoot_on_the_others_axis() -> None:
    # Corner cells alone: no cell on a side says which way they shoot, so nothing does.
    corners = cells([[7, 0, 0, 0, 9], [0, 0, 0, 0, 0], [0, 0, 0, 0, 3]])
    assert inward_op(5)(corners, Context(corners)) is None
    # A cell on the right side shoots across: so does the top-left corner, to the right.
    side = cells([[7, 0, 0, 0, 0], [0, 0, 0, 0, 9], [0, 0, 0, 0, 0]])
    made = inward_op(5)(side, Context(side))
    assert made is not None
    assert made.tolist() == [[7, 7, 7, 7, 7], [9, 9, 9, 9, 9], [0, 0, 0, 0, 0]]


def test_inward_needs_one_meeting_colour() -> None:
    # The second demonstration meets in red, the first in grey: no one rule.
    demos = [_DEMOS[0], (_DEMOS[1][0], [[0] * 7, [1, 1, 1, 2, 8, 8, 8], [0] * 7])]
    assert fit_inward(fit_input(demos, _DEMOS[0][0])) == []
    # With no meeting shown, a test input where two rays meet has no answer.
    apart = [([[0, 0, 0], [4, 0, 0], [0, 0, 0]], [[0, 0, 0], [4, 4, 4], [0, 0, 0]])]
    ops = fit_inward(fit_input(apart, _DEMOS[0][0]))
    assert ops == []
    assert inward_op(None)(cells(_DEMOS[0][0]), Context(cells(_DEMOS[0][0]))) is None


def test_inward_parses_only_its_own_text() -> None:
    op = parse_inward("inward{5}")
    assert op is not None and op.text == "inward{5}"
    assert parse_inward("inward{-}") is not None
    assert parse_inward("inward{12}") is None
    assert parse_inward("inward(5)") is None
