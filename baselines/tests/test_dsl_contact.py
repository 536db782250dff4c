"""Parts read against their shared colour (``logicbg``) and objects moved by a rule of their own
(``attract``, ``leap``), on hand-made grids."""

from __future__ import annotations

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def test_logicbg_reads_each_half_against_the_colour_both_hold() -> None:
    # Left half 7 on 8 (mostly 7), right half 5 on 8: 8 is the one colour both hold.
    grid = g("787" + "585", "778" + "885")
    # nor: 11 where both halves hold 8, 8 elsewhere.
    assert execute(parse("logicbg(h,nor) | map(11>3)"), grid) == g("838", "888")
    # or: 11 where either half holds its foreground.
    assert execute(parse("logicbg(h,or) | map(11>3)"), grid) == g("383", "333")


def test_logicbg_hv_takes_the_halves_that_share_one_colour() -> None:
    # Left and right halves both hold 1, 2 and 4; top and bottom share only 1, so they are the parts.
    grid = g("21", "12", "14", "41")
    assert execute(parse("logicbg(hv,xor) | map(11>6)"), grid) == g("66", "66")
    assert execute(parse("logicbg(hv,and) | map(11>6)"), grid) == g("11", "11")


def test_logicbg_needs_exactly_one_shared_colour() -> None:
    assert execute(parse("logicbg(h,and) | map(11>6)"), g("1212")) is None


def test_attract_slides_objects_until_they_touch_the_anchor() -> None:
    # The anchor (the biggest object) stays; the L slides right, the dot slides up-left diagonally.
    grid = g("10003300", "11003300", "00000000", "00000000", "00000005", "00000000")
    assert execute(parse("attract(big)"), grid) == g(
        "00103300", "00113300", "00000500", "00000000", "00000000", "00000000"
    )


def test_attract_needs_its_anchor() -> None:
    # Two dots: no one biggest object.
    assert execute(parse("attract(big)"), g("100", "000", "001")) is None


def test_leap_moves_each_object_by_its_own_extent() -> None:
    grid = g("0000", "0000", "0000", "1000", "1000", "0022")
    # The column (2 high) goes up 2; the bar (1 high) up 1.
    assert execute(parse("leap(up)"), grid) == g("0000", "1000", "1000", "0000", "0022", "0000")
    # leap(away): the bar leaves the bottom (up 1), the column the left border (right 1).
    assert execute(parse("leap(away)"), grid) == g("0000", "0000", "0000", "0100", "0122", "0000")
    # Moving right by its width, the bar leaves the grid.
    assert execute(parse("leap(right)"), grid) == g("0000", "0000", "0000", "0100", "0100", "0000")


def test_settle_lets_cells_fall_toward_the_fullest_border() -> None:
    # The right border holds three foreground cells, the left and the bottom two: cells fall right.
    grid = g("0000", "1003", "0003", "1003")
    assert execute(parse("settle"), grid) == g("0000", "0013", "0003", "0013")


def test_settle_needs_one_fullest_border() -> None:
    assert execute(parse("settle"), g("10", "01")) is None


def test_sink_lets_cells_fall_toward_the_chosen_object_from_both_sides() -> None:
    grid = g("0300", "0000", "2222", "0000", "0030", "0030")
    assert execute(parse("sink(big)"), grid) == g("0000", "0300", "2222", "0030", "0030", "0000")


def test_sink_leaves_a_cell_diagonal_to_the_anchor() -> None:
    # The 3 faces the 22 on neither axis: it stays; the 4 below the 22 rises to it.
    grid = g("3000", "0022", "0000", "0004")
    assert execute(parse("sink(big)"), grid) == g("3000", "0022", "0004", "0000")
