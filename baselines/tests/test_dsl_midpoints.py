"""Midpoints: a fitted stamp halfway between the two cells of a colour."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, digits, fit_input

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.midpoints import fit_midpoint
from continual_arc_baselines.dsl.ops import lookup

# Two blue dots on a row: a green plus halfway between them.
_DEMO = (
    digits("0000000", "0000000", "1000100", "0000000", "0000000"),
    digits("0000000", "0030000", "1333100", "0030000", "0000000"),
)


def test_a_plus_halfway_between_two_dots() -> None:
    # Two red dots in a column this time.
    given = fit_input([_DEMO], digits("00000", "02000", "00000", "00000", "00000", "02000", "00000"))
    ops = fit_midpoint(given)
    assert [op.text for op in ops] == ["midpoint{.3.333.3.}"]
    check_fitted(
        ops[0],
        given,
        [
            [0, 0, 0, 0, 0],
            [0, 2, 0, 0, 0],
            [0, 3, 0, 0, 0],
            [3, 3, 3, 0, 0],
            [0, 3, 0, 0, 0],
            [0, 2, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
    )


def test_no_midpoint_no_stamp() -> None:
    # The two dots are an odd distance apart: no cell lies halfway, so nothing is fitted.
    odd = (digits("100001", "000000", "000000"), digits("133331", "000000", "000000"))
    assert fit_midpoint(fit_input([odd], _DEMO[0])) == []
    op = lookup("midpoint{.3.333.3.}")
    grid = cells([[1, 0, 0, 1], [0, 0, 0, 0]])
    assert op is not None and op(grid, Context(grid)) is None
    assert lookup("midpoint{.........}") is None
