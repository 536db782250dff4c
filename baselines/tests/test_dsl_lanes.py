"""Lanes: rows or columns clear from one frame wall to the other."""

from __future__ import annotations

from dsl_rig import digits as g

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.grid import to_array
from continual_arc_baselines.dsl.lanes import lane_rows

# A frame of 2 on a background of 0; the wall juts in at row 1, column 6.
FRAMED = g("22222222", "20000022", *["20000002"] * 5, "22222222")


def test_rows_clear_between_the_end_walls_are_labelled() -> None:
    # Row 1 is blocked by the wall jutting in at column 6; rows 2 to 6 run clear.
    assert execute(parse("lanes(h) | map(11>3)"), FRAMED) == g(
        "22222222", "20000022", *["23333332"] * 5, "22222222"
    )


def test_columns_too_and_both_at_once() -> None:
    # Columns 1 to 5 run clear from row 0's wall to row 7's; column 6 is blocked at row 1.
    assert execute(parse("lanes(v) | map(11>3)"), FRAMED) == g(
        "22222222", "23333322", *["23333302"] * 5, "22222222"
    )
    # Both ways, every background cell is in a lane: labelling them all says nothing, so no step.
    assert execute(parse("lanes(hv)"), FRAMED) is None
    # Now the wall also juts in at row 6, column 2: column 2 and row 6 are blocked.
    both = g("22222222", "20000022", *["20000002"] * 4, "20200002", "22222222")
    assert execute(parse("lanes(hv) | map(11>3)"), both) == g(
        "22222222", "23033322", *["23333332"] * 4, "23233302", "22222222"
    )


def test_a_row_open_at_an_edge_or_blocked_is_no_lane() -> None:
    free = to_array(g("20000", "20002", "20202", "00000")) == 0
    assert lane_rows(free).tolist() == [False, True, False, False]
    # No lane anywhere: the step does not apply.
    assert execute(parse("lanes(h)"), g("2020", "0000", "0220")) is None
