"""Piercing from a region's rim: a border marker against its own colour still shoots its line."""

from __future__ import annotations

from dsl_rig import digits, step_on

from continual_arc_baselines.dsl.ops import NEXT, WIDE


def _rows(*rows: str) -> list[list[int]]:
    return [list(row) for row in digits(*rows)]


def test_the_step_is_next_only() -> None:
    assert "pierce(rim)" in NEXT.by_text
    assert "pierce(rim)" not in WIDE.by_text


def test_a_marker_against_its_own_region_shoots_through_it() -> None:
    grid = _rows("00200", "00220", "00000", "03330", "00000")
    # Column 2: the marker stays, its own colour turns background, everything else turns 2.
    assert step_on("pierce(rim)", grid) == _rows("00200", "00020", "00200", "03230", "00200")
    # The strict reading takes the cell for a region's edge: no marker, no answer.
    assert step_on("pierce", grid) is None


def test_a_run_along_the_border_is_no_marker() -> None:
    assert step_on("pierce(rim)", _rows("02200", "00000", "00000", "00000")) is None
