"""Lanes open from one side of a frame to the other (`dsl.spans`): hand-made grids and fitting."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.spans import SPANS, parse_spans

# A frame whose row 3 and column 4 are blocked at (3,4), row 5 and column 2 at (5,2).
FRAME = g("11111111", "10000001", "10000001", "10001001", "10000001", "10100001", "10000001", "11111111")
# Every open row and column painted: only (3,2) and (5,4), on blocked lines both ways, stay.
BOTH = g("11111111", "13333331", "13333331", "13031331", "13333331", "13130331", "13333331", "11111111")


def test_spans_paint_the_open_lanes() -> None:
    assert execute(parse("spans{hv;3}"), FRAME) == BOTH
    rows = g("11111111", "13333331", "13333331", "10001001", "13333331", "10100001", "13333331", "11111111")
    assert execute(parse("spans{h;3}"), FRAME) == rows


def test_spans_need_walls_at_both_ends() -> None:
    assert execute(parse("spans{hv;3}"), g("000", "010", "000")) is None
    assert parse_spans("spans{hv;=}") is None


def test_spans_are_fitted() -> None:
    ops = SPANS.fit(fit_input([(FRAME, BOTH)], FRAME))
    assert [op.text for op in ops] == ["spans{hv;3}"]
    # A line painted from a cell to the border is no lane.
    lines = [(g("000", "100", "000"), g("000", "133", "000"))]
    assert SPANS.fit(fit_input(lines, g("000", "100", "000"))) == []
