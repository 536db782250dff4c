"""Trails: a motif repeated from each seed cell at a fitted step."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.ops import WIDE
from continual_arc_baselines.dsl.trailing import fit_trail

# A seed in the top row grows a zigzag downwards: its two lower diagonals, then itself two rows on.
ZIGZAG = [
    (g("00300", "00000", "00000", "00000", "00000"), g("00300", "03030", "00300", "03030", "00300")),
    (g("0600", "0000", "0000", "0000"), g("0600", "6060", "0600", "6060")),
]


def test_the_step_and_motif_are_fitted_and_the_seed_colour_carries_over() -> None:
    ops = fit_trail(fit_input(ZIGZAG, g("0010", "0000")))
    assert [op.text for op in ops] == ["trail(one){2,0;0:0:=,1:-1:=,1:1:=}"]
    text = ops[0].text
    assert parse(text).text == text
    # A new colour and two seeds: each grows its own zigzag, clipped at the edge.
    assert execute(parse(text), g("40002", "00000", "00000")) == g("40002", "04020", "40002")


def test_a_two_way_trail_runs_its_motif_turned_the_other_way() -> None:
    # One cell each way along the diagonal, in grey, from a red seed.
    demo = (g("00000", "00000", "00200", "00000", "00000"), g("00005", "00050", "00200", "05000", "50000"))
    ops = fit_trail(fit_input([demo], g("000", "010", "000")))
    assert ops and ops[0].text == "trail(two){-1,1;0:0:5}"
    assert execute(parse(ops[0].text), g("000", "010", "000")) == g("005", "010", "500")


def test_an_output_that_does_not_repeat_fits_no_trail() -> None:
    # The added cells are one shift each way at most: a halo, not a trail of repetitions.
    demo = (g("000", "010", "000"), g("000", "111", "000"))
    assert fit_trail(fit_input([demo], g("000", "010", "000"))) == []
    # Two seeds each add the cell below: one shift, read from either seed, is no trail either.
    demo2 = (g("11000", "00000"), g("11000", "11000"))
    assert fit_trail(fit_input([demo2], g("01000", "00000"))) == []


def test_the_next_search_answers_with_a_trail() -> None:
    result = search(ZIGZAG, g("00070", "00000", "00000"), catalogue=WIDE)
    assert result.candidates
    assert result.candidates[0].prediction == g("00070", "00707", "00070")


def test_with_no_lone_seed_each_added_cell_is_read_as_its_nearest_seeds() -> None:
    # Two seeds far apart, each growing a column downwards every other row in its own colour.
    demo = (
        g("2000300", "0000000", "0000000", "0000000", "0000000"),
        g("2000300", "0000000", "2000300", "0000000", "2000300"),
    )
    ops = fit_trail(fit_input([demo], g("0400", "0000", "0000", "0000")))
    assert ops and ops[0].text == "trail(one){2,0;0:0:=}"
    assert execute(parse(ops[0].text), g("0400", "0000", "0000", "0000")) == g("0400", "0000", "0400", "0000")


def test_an_edge_trail_points_away_from_the_edge_each_seed_lies_on() -> None:
    # A seed on the top edge shoots down, one on the left edge shoots right: one motif, turned.
    demos = [
        (g("00200", "00000", "00000", "00000"), g("00200", "00200", "00200", "00200")),
        (g("00000", "00000", "40000", "00000"), g("00000", "00000", "44444", "00000")),
    ]
    ops = fit_trail(fit_input(demos, g("0000", "0003", "0000")))
    assert [op.text for op in ops] == ["trail(edge){1,0;0:0:=}"]
    # On the right edge it shoots left; a seed in a corner cannot say which way is inward.
    assert execute(parse(ops[0].text), g("0000", "0003", "0000")) == g("0000", "3333", "0000")
    assert execute(parse(ops[0].text), g("1000", "0000")) is None
