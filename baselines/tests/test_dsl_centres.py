"""Middle lines of objects across the grid (`dsl.centres`): hand-made grids and fitting."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.centres import AXES, parse_axes


def test_axes_draws_a_frames_middle_lines_over_the_background() -> None:
    # The middle row and column cross the frame's own cells untouched and its hole painted.
    grid = g("00000", "01110", "01010", "01110", "00000")
    assert execute(parse("axes{hv;6}"), grid) == g("00600", "01110", "61616", "01110", "00600")
    assert execute(parse("axes{h;=}"), grid) == g("00000", "01110", "11111", "01110", "00000")


def test_axes_needs_an_odd_side() -> None:
    assert execute(parse("axes{hv;6}"), g("0000", "0110", "0110", "0000")) is None
    assert parse_axes("axes{d;6}") is None


def test_axes_is_fitted() -> None:
    demos = [(g("0000", "0111", "0101", "0111"), g("0060", "0111", "6161", "0111"))]
    ops = AXES.fit(fit_input(demos, g("00000", "01110", "01010", "01110", "00000")))
    assert ops and ops[0].text == "axes{hv;6}"
    lines = [(g("000", "010", "000"), g("010", "010", "010"))]  # a dot is no frame
    assert AXES.fit(fit_input(lines, g("000", "010", "000"))) == []
