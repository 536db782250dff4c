"""Choosing an object by its content (pickc) on hand-made grids."""

from __future__ import annotations

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def run(text: str, grid: Grid) -> Grid | None:
    return execute(parse(text), grid)


# Three 2 x 2 squares of one outline on a background of 0: two show 12/21, the third 21/12.
SQUARES = g("1200120021", "2100210012", "0000000000")


def test_oddc_picks_the_content_no_other_shares() -> None:
    assert run("pickc(m4,oddc)", SQUARES) == g("21", "12")


def test_twin_picks_the_content_shared_by_several() -> None:
    assert run("pickc(m8,twin)", SQUARES) == g("12", "21")


# Squares with 0, 1 and 2 cells off their main colour 1 (12/21 ties 1 and 2; the lower, 1, wins).
MIXED = g("11012012", "11011021", "00000000", "00000000")


def test_plain_and_busy_count_the_cells_off_the_main_colour() -> None:
    assert run("pickc(m4,plain)", MIXED) == g("11", "11")
    assert run("pickc(m4,busy)", MIXED) == g("12", "21")


def test_no_single_answer_no_grid() -> None:
    # Two plain squares tie; with one object there is nothing to compare.
    assert run("pickc(m4,plain)", g("11011012", "11011011", "00000000", "00000000")) is None
    assert run("pickc(m4,oddc)", g("12", "00", "00")) is None
    # Every content alone: nothing is repeated.
    assert run("pickc(m4,twin)", g("12013", "00000", "00000")) is None


# Three parts between columns of 5: 12/21 (two cells off its main colour), 33/30 (none), 12/21.
PARTS = g("12533512", "21530521", "00500500", "00500500")


def test_partc_chooses_among_the_parts_between_separators() -> None:
    assert run("partc(twin)", PARTS) == g("12", "21", "00", "00")
    assert run("partc(plain)", PARTS) == g("33", "30", "00", "00")
    assert run("partc(busy)", PARTS) is None  # the two busiest tie
