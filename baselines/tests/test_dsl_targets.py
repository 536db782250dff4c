"""Rays to a target colour (`dsl.targets`): hand-made grids, fitting, and a case that must not fit."""

from __future__ import annotations

import numpy as np
from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.targets import TOWARD, parse_toward


def test_toward_draws_only_the_lines_that_reach_the_target() -> None:
    # 1 sees the 3 along its row; 2 sees the 1 first down its column, 4 sees nothing.
    grid = g("10030", "00000", "00004", "20000", "01000")
    assert execute(parse("toward{3;+;=}"), grid) == g("11130", "00000", "00004", "20000", "01000")
    # In a fixed colour, and along diagonals: 5 at (2,0) sees the 3 up-right at (0,2).
    assert execute(parse("toward{3;x;7}"), g("003", "000", "500")) == g("003", "070", "500")


def test_toward_does_nothing_without_its_target() -> None:
    assert execute(parse("toward{3;+;=}"), g("100", "000", "002")) is None


def test_toward_is_fitted_and_read_back() -> None:
    demos = [
        (g("1003", "0000", "0200"), g("1113", "0000", "0200")),
        (g("0003", "0000", "0203"), g("0003", "0000", "0223")),
    ]
    ops = TOWARD.fit(fit_input(demos, g("3000", "0000", "3060")))
    assert ops and ops[0].text == "toward{3;+;=}"
    assert (
        ops[0](np.array(g("3000", "0000", "3060"), dtype=np.uint8), Context(np.zeros((3, 4), np.uint8)))
        is not None
    )
    assert parse_toward(ops[0].text) is not None
    assert parse_toward("toward{3;y;=}") is None


def test_toward_fits_nothing_when_a_line_reaches_no_target() -> None:
    # The 1 draws a line to the border, where no 3 stands: not this rule.
    demos = [(g("1000", "0030"), g("1111", "0030"))]
    assert TOWARD.fit(fit_input(demos, g("1000", "0030"))) == []
