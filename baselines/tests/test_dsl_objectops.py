"""Object ops on hand-made grids: ``degree`` and ``relabel(...,ends)``."""

from __future__ import annotations

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def test_degree_tells_corners_edges_and_inside_apart() -> None:
    square = g("00000", "01110", "01110", "01110", "00000")
    # Corners have 2 same-coloured neighbours (12), edges 3 (13), the centre 4 (14).
    assert execute(parse("degree | map(12>1,13>4,14>2)"), square) == g(
        "00000", "01410", "04240", "01410", "00000"
    )


def test_degree_counts_only_the_cells_own_colour() -> None:
    # The 1 touches a 2, not a 1: no neighbour of its colour (10); the 2 likewise.
    assert execute(parse("degree | map(10>5)"), g("000", "120", "000")) == g("000", "550", "000")


def test_relabel_ends_marks_the_largest_and_the_smallest() -> None:
    # Objects of 3, 2 and 1 cells: the largest is labelled 11, the smallest 12, the other 10.
    grid = g("1110", "0000", "1101", "0000")
    assert execute(parse("relabel(4,ends) | map(10>c0,11>5,12>6)"), grid) == g("5550", "0000", "0006", "0000")
