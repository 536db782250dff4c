"""Whole lines judged as one (``uniform``, ``centre``), on hand-made grids."""

from __future__ import annotations

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def test_uniform_labels_the_rows_of_one_colour() -> None:
    assert execute(parse("uniform(h) | map(11>5,10>0)"), g("111", "121", "222")) == g("555", "000", "555")
    assert execute(parse("uniform(v) | map(11>5,10>0)"), g("12", "11")) == g("50", "50")


def test_uniform_needs_lines_of_both_kinds() -> None:
    assert execute(parse("uniform(v) | map(11>5,10>0)"), g("12", "12")) is None


def test_centre_keeps_the_middle_column_on_the_background() -> None:
    grid = g("10201", "11111", "10301")
    assert execute(parse("centre(v)"), grid) == g("11211", "11111", "11311")
    assert execute(parse("centre(h)"), grid) == g("11111", "11111", "11111")


def test_centre_needs_an_odd_side() -> None:
    assert execute(parse("centre(v)"), g("1012")) is None
