"""Periodic extension: the foreground's box carried on to the grid's edges by its period."""

from __future__ import annotations

from dsl_rig import digits as g

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.extending import extend, tile_lines
from continual_arc_baselines.dsl.grid import to_array


def test_a_frieze_is_carried_on_along_its_rows_with_its_background_cells() -> None:
    # The box is columns 0-4 of rows 1-2; its period is 2 (column 0 = column 2 = column 4).
    grid = g("00000000", "10101000", "12121000")
    assert execute(parse("periodic(x)"), grid) == g("00000000", "10101010", "12121212")


def test_the_period_runs_both_ways_and_along_columns_too() -> None:
    # Box columns 2-5, period 2: column 0 repeats column 2 (3) and column 1 column 3 (4).
    assert execute(parse("periodic(x)"), g("0034340")) == g("3434343")
    assert execute(parse("periodic(y)"), g("0", "5", "6", "5", "0", "0")) == g("6", "5", "6", "5", "6", "5")
    # Both: the rows have no period here (one column), the columns do.
    assert execute(parse("periodic(xy)"), g("0", "5", "6", "5", "0", "0")) == g("6", "5", "6", "5", "6", "5")


def test_a_box_with_no_shorter_period_is_left_alone() -> None:
    assert extend(to_array(g("0000", "1230", "0000")), 0, "x") is None
    assert extend(to_array(g("0000", "0000")), 0, "x") is None  # no foreground at all


def test_each_line_repeats_its_one_segment_along_itself() -> None:
    # Row 1's segment 2 3 (columns 2-3) is one period: column 0 repeats column 2, column 1 column 3.
    grid = g("0000000", "0023000", "0000000")
    assert execute(parse("linetile(h)"), grid) == g("0000000", "2323232", "0000000")
    # Both ways: row 0 (1 2) and column 0 (1 3) each carry on; lone cells are no sequence.
    assert execute(parse("linetile(hv)"), g("120", "300", "000")) == g("121", "300", "100")


def test_a_line_crossed_by_another_arm_keeps_its_longest_run_as_the_period() -> None:
    # Runs: column 0 (the crossing arm's 2) and 1 2 3 at columns 2-4; the 2 agrees with the tiling.
    assert execute(parse("linetile(h)"), g("2012300")) == g("2312312")
    # A 1 at column 0 disagrees with the sequence (it would be 2): the row is left alone.
    assert tile_lines(to_array(g("1012300")), 0, "h") is None


def test_lines_with_two_longest_segments_or_a_lone_cell_are_left_alone() -> None:
    assert tile_lines(to_array(g("1101100")), 0, "h") is None
    assert tile_lines(to_array(g("0001000", "0000000")), 0, "hv") is None
