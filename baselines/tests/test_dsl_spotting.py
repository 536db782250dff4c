"""Spotting the difference: the one spoiled copy of a repeated panel, its faults marked."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, digits, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.spotting import fit_spot, spot_op

# Three 2 x 2 panels between columns of 5; the middle copy lost its bottom-right 1.
_DEMO = (digits("10510510", "01500501"), digits("10", "03"))


def test_the_spoiled_copy_is_marked_where_it_differs() -> None:
    # Here the first copy is the spoiled one: its top-right cell is 0 where the others show 2.
    given = fit_input([_DEMO], digits("20522522", "02502502"))
    ops = fit_spot(given)
    assert [op.text for op in ops] == ["spot{3}"]
    check_fitted(ops[0], given, [[2, 3], [0, 2]])


def test_no_single_spoiled_copy_no_answer() -> None:
    # Four panels, two of each kind: no one copy stands out.
    grid = cells([[1, 0, 5, 1, 0, 5, 1, 1, 5, 1, 1], [0, 1, 5, 0, 1, 5, 0, 1, 5, 0, 1]])
    assert spot_op(3)(grid, Context(grid)) is None
    # Every copy alike: nothing to spot.
    same = cells([[1, 0, 5, 1, 0, 5, 1, 0], [0, 1, 5, 0, 1, 5, 0, 1]])
    assert spot_op(3)(same, Context(same)) is None
