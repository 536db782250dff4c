"""L-shaped paths between two single cells (`dsl.elbows`): hand-made grids and fitting."""

from __future__ import annotations

from dsl_rig import digits as g
from dsl_rig import fit_input

from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.elbows import ELBOW, parse_elbow


def test_elbow_leaves_the_start_along_its_first_axis() -> None:
    grid = g("2000", "0000", "0003")
    # Along the row to the 3's column, then down to it.
    assert execute(parse("elbow{2;3;h;8}"), grid) == g("2888", "0008", "0003")
    # Down the column to the 3's row, then along it.
    assert execute(parse("elbow{2;3;v;8}"), grid) == g("2000", "8000", "8883")
    # Cells on one row: the straight line between them.
    assert execute(parse("elbow{2;3;v;8}"), g("20030")) == g("28830")


def test_elbow_needs_one_cell_of_each_colour() -> None:
    assert execute(parse("elbow{2;3;h;8}"), g("2002", "0003")) is None
    assert parse_elbow("elbow{2;2;h;8}") is None


def test_elbow_is_fitted() -> None:
    demos = [
        (g("0200", "0000", "0000", "0003"), g("0288", "0008", "0008", "0003")),
        (g("0003", "0000", "2000"), g("0003", "0008", "2888")),
    ]
    ops = ELBOW.fit(fit_input(demos, g("200", "003")))
    assert [op.text for op in ops] == ["elbow{2;3;h;8}"]


def test_elbow_fits_nothing_when_the_path_bends_twice() -> None:
    demos = [(g("2000", "0000", "0003"), g("2800", "0880", "0083"))]
    assert ELBOW.fit(fit_input(demos, g("2000", "0003"))) == []
