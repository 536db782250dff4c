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


def test_nearer_paints_cells_in_the_nearer_walls_colour() -> None:
    # Walls: the first column (4) and the last (7); each 3 takes the colour of the nearer one.
    grid = g("4007", "4307", "4037", "4007")
    assert execute(parse("nearer"), grid) == g("4007", "4407", "4077", "4007")
    # Rows as walls; a cell midway between them stays.
    assert execute(parse("nearer"), g("111", "030", "300", "030", "222")) == g(
        "111", "010", "300", "020", "222"
    )


def test_nearer_needs_two_walls() -> None:
    assert execute(parse("nearer"), g("4000", "4300", "4000")) is None


def test_spread_repeats_the_band_of_foreground_rows_in_phase() -> None:
    # Rows 2-3 hold the foreground: the grid becomes that band repeated, row 2 staying row 2.
    grid = g("000", "000", "120", "300", "000")
    assert execute(parse("spread"), grid) == g("120", "300", "120", "300", "120")
    # A band of columns when every row holds foreground.
    assert execute(parse("spread"), g("0100", "0200")) == g("1111", "2222")


def test_spread_needs_a_band_narrower_than_the_grid() -> None:
    assert execute(parse("spread"), g("12", "21")) is None
