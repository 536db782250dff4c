"""Line analogies: begun rows finished like a complete row, recoloured."""

from __future__ import annotations

from dsl_rig import digits as g

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.analogy import finish_rows
from continual_arc_baselines.dsl.grid import to_array


def test_a_begun_row_is_finished_under_the_recolouring_of_its_start() -> None:
    # 3 -> 8 and 2 -> 4 from the first three cells; the rest of 332332 follows.
    grid = g("332332", "000000", "884000", "000000")
    assert execute(parse("analogy(h)"), grid) == g("332332", "000000", "884884", "000000")


def test_a_row_drawn_only_at_its_end_is_finished_too() -> None:
    # The last two cells 5 4 under 3 2 say 3 -> 5 and 2 -> 4: the rest of 332332 follows.
    grid = g("332332", "000054", "000000")
    assert execute(parse("analogy(h)"), grid) == g("332332", "554554", "000000")
    # Both ways: the rows are finished; no column is complete, so the columns add nothing.
    assert execute(parse("analogy(hv)"), grid) == g("332332", "554554", "000000")
    assert execute(parse("analogy(v)"), grid) is None


def test_columns_follow_a_complete_column() -> None:
    # Column 0 is complete; column 1 begins 5 6, so 1 -> 5 and 2 -> 6.
    grid = g("15", "26", "10", "20")
    assert execute(parse("analogy(v)"), grid) == g("15", "26", "15", "26")


def test_a_start_that_does_not_cover_every_colour_or_maps_two_ways_is_left() -> None:
    # The begun row's start 8 8 covers only colour 3 of 33233: colour 2 has no image.
    assert finish_rows(to_array(g("33233", "88000")), 0) is None
    # 3 would map to 8 and to 4 at once.
    assert finish_rows(to_array(g("33233", "84000")), 0) is None
    # No complete row to follow.
    assert finish_rows(to_array(g("33203", "84000")), 0) is None
