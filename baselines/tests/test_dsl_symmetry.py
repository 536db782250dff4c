"""Symmetry completion with fitted axes, and the palette rule it needed, on hand-made grids."""

from __future__ import annotations

import numpy as np

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.grid import to_array
from continual_arc_baselines.dsl.shapes import expect
from continual_arc_baselines.dsl.symmetry import Reflection, reflections


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def run(text: str, grid: Grid) -> Grid | None:
    return execute(parse(text), grid)


# Columns 1-4 mirror each other about the line between columns 2 and 3 (off the grid's centre);
# column 0 has no partner. The hole (0) at row 1, column 4 mirrors row 1, column 1, a 3.
OFF_CENTRE = g("71221", "83440")


def test_symfill_fits_an_axis_off_the_centre() -> None:
    assert run("symfill", OFF_CENTRE) == g("71221", "83443")
    assert run("symcrop", OFF_CENTRE) == g("3")


def test_the_axis_found_is_the_one_the_cells_agree_on() -> None:
    # Column j pairs with 5 - j: in the flipped view that is column j + (4 - 5) = j - 1.
    assert reflections(to_array(OFF_CENTRE))[0] == [Reflection("h", 0, -1)]


def test_symcrop_answers_what_was_under_the_mask() -> None:
    masked = g("1221", "3443", "3003", "1221")
    assert run("symcrop", masked) == g("44")
    assert run("symfill", masked) == g("1221", "3443", "3443", "1221")


def test_no_symmetry_no_answer() -> None:
    assert run("symfill", g("12", "34")) is None


def test_only_the_programs_input_is_completed() -> None:
    # After a flip the grid is no longer the input: the step declines rather than fit again.
    assert run("flip_h | symfill", OFF_CENTRE) is None


def test_a_colour_every_output_holds_may_be_new_to_the_test_input() -> None:
    inputs = [to_array(g("57", "11")), to_array(g("75", "11"))]
    outputs = [to_array(g("55", "11")), to_array(g("55", "11"))]
    rule = expect(inputs, outputs)
    test = to_array(g("17", "71"))
    assert rule.always == frozenset({1, 5})
    assert rule.admits(test, to_array(g("15", "51")))
    assert not rule.admits(test, np.full((2, 2), 6, dtype=np.uint8))
