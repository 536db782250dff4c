"""Bands across the gaps between facing objects (`dsl.links`): hand-made grids and fitting."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.links import LINK, parse_link

SIDE = g("220033", "220033", "220000", "000000")
STACK = g("11111", "00000", "00000", "22222")
STACK_LINKED = g("11111", "08880", "08880", "22222")


def test_link_spans_the_rows_two_blocks_share() -> None:
    assert execute(parse("link{0;8}"), SIDE) == g("228833", "228833", "220000", "000000")
    # Narrowed by a cell at each edge, two shared rows leave nothing.
    assert execute(parse("link{1;8}"), SIDE) is None


def test_link_joins_blocks_one_above_the_other() -> None:
    assert execute(parse("link{1;8}"), STACK) == STACK_LINKED


def test_link_is_blocked_by_anything_in_the_gap() -> None:
    assert execute(parse("link{1;8}"), g("11111", "00500", "00000", "22222")) is None
    assert parse_link("link{2;8}") is None


def test_link_is_fitted() -> None:
    ops = LINK.fit(fit_input([(STACK, STACK_LINKED)], STACK))
    assert [op.text for op in ops] == ["link{1;8}"]
    dots = [(g("000", "010", "000"), g("080", "010", "000"))]  # one object: nothing to join
    assert LINK.fit(fit_input(dots, g("000", "010", "000"))) == []
