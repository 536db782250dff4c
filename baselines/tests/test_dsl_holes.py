"""Holes counted and measured: ``holesize`` (painting) and ``relabel(...,nholes)`` (object ops)."""

from __future__ import annotations

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def run(text: str, grid: Grid) -> Grid | None:
    return execute(parse(text), grid)


def test_holesize_labels_each_enclosed_region_by_its_size() -> None:
    # The 1-ring encloses two cells (label 12), the 2-ring one cell (label 11).
    grid = g("000000000", "011110000", "010010222", "011110202", "000000222", "000000000")
    assert run("holesize | map(11>5,12>7)", grid) == g(
        "000000000", "011110000", "017710222", "011110252", "000000222", "000000000"
    )


def test_holesize_needs_a_hole() -> None:
    assert run("holesize", g("000", "010", "000")) is None


def test_relabel_by_the_number_of_holes() -> None:
    # The 1-object has two holes (label 12), the 2-object one (label 11).
    grid = g("0000000", "0111110", "0101010", "0111110", "0000000", "0222000", "0202000", "0222000")
    assert run("relabel(4,nholes) | map(11>3,12>4)", grid) == g(
        "0000000", "0444440", "0404040", "0444440", "0000000", "0333000", "0303000", "0333000"
    )
