"""Colour shifts: each colour's cells moved by a vector fitted for that colour."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, digits, fit_input

from continual_arc_baselines.dsl.colourshifts import fit_cshift
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup

# Red moves two columns left, green one row down.
_DEMO = (
    digits("00000", "00020", "03000", "00000"),
    digits("00000", "02000", "00000", "03000"),
)


def test_each_colour_moves_by_its_own_vector() -> None:
    given = fit_input([_DEMO], digits("00002", "00000", "30000", "00000"))
    ops = fit_cshift(given)
    assert [op.text for op in ops] == ["cshift{2:0,-2;3:1,0}"]
    check_fitted(ops[0], given, [[0, 0, 2, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [3, 0, 0, 0, 0]])


def test_disagreeing_or_unknown_colours_fit_nothing() -> None:
    # A second demonstration moves red the other way: no one vector for red.
    other = (digits("00000", "02000", "00000", "00000"), digits("00000", "00020", "00000", "00000"))
    assert fit_cshift(fit_input([_DEMO, other], _DEMO[0])) == []
    # A blue cell in the test input: the table has no vector for blue.
    assert fit_cshift(fit_input([_DEMO], digits("00020", "01000", "00000", "00000"))) == []
    op = lookup("cshift{2:0,-2;3:1,0}")
    grid = cells([[0, 0, 0], [0, 5, 0]])
    assert op is not None and op(grid, Context(grid)) is None
    assert lookup("cshift{x:0,1}") is None


def test_a_colour_that_stays_put_fits_nothing() -> None:
    # Green stays while red moves two columns left: red likely moves relative to green, not by colour.
    anchored = (digits("00000", "00020", "03000", "00000"), digits("00000", "02000", "03000", "00000"))
    assert fit_cshift(fit_input([anchored], digits("00002", "00000", "30000", "00000"))) == []
