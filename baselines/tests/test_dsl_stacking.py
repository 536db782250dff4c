"""``stack(how){...}`` (stacking): parts laid over each other in a fitted order of colours."""

from __future__ import annotations

import pytest

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import ProgramError, execute, parse
from continual_arc_baselines.dsl.grid import Context, to_array
from continual_arc_baselines.dsl.stacking import fit_stack


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


# Left half "11"/"10", right half "20"/"00": they overlap only at the top-left cell.
GRID = g("1120", "1000")


def test_the_first_colour_of_the_order_shows_on_top() -> None:
    assert execute(parse("stack(h){2,1}"), GRID) == g("21", "10")
    assert execute(parse("stack(h){1,2}"), GRID) == g("11", "10")


def test_the_order_is_fitted_from_the_demonstrations() -> None:
    # Demo 1 shows 2 over 1, demo 2 shows 3 over 2: the order 3, 2, 1.
    inputs = [to_array(GRID), to_array(g("3020", "0000"))]
    outputs = [to_array(g("21", "10")), to_array(g("30", "00"))]
    texts = [op.text for op in fit_stack(inputs, outputs, [Context(a) for a in inputs])]
    assert "stack(h){3,2,1}" in texts
    assert all(t.endswith("{3,2,1}") for t in texts)


def test_a_cycle_fits_no_order() -> None:
    # 2 over 1 in one demonstration, 1 over 2 in another (and 3 over 2): no ranking explains all.
    inputs = [to_array(GRID), to_array(GRID), to_array(g("3020", "0000"))]
    outputs = [to_array(g("21", "10")), to_array(g("11", "10")), to_array(g("30", "00"))]
    assert fit_stack(inputs, outputs, [Context(a) for a in inputs]) == []


def test_a_repeated_colour_does_not_parse() -> None:
    with pytest.raises(ProgramError):
        parse("stack(h){1,1}")
