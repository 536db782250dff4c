"""Pattern completion by fitted translations (latfill, latcrop) on hand-made grids."""

from __future__ import annotations

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.grid import to_array
from continual_arc_baselines.dsl.lattice import translations


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def run(text: str, grid: Grid) -> Grid | None:
    return execute(parse(text), grid)


# Cell (i, j) holds (i + j) % 3 + 1: constant along the anti-diagonals. A 2 x 2 hole of 0 sits at
# rows 2-3, columns 2-3, where the pattern holds 2 3 / 3 1.
STRIPES = g("123123", "231231", "312312", "123123", "231231", "312312")
MASKED = g("123123", "231231", "310012", "120023", "231231", "312312")


def test_latfill_restores_a_slanted_pattern() -> None:
    assert run("latfill", MASKED) == STRIPES


def test_latcrop_answers_what_was_under_the_mask() -> None:
    assert run("latcrop", MASKED) == g("23", "31")


def test_the_anti_diagonal_shift_fits_with_the_hole_unknown() -> None:
    # (i, j) and (i + 1, j - 1) hold the same value; so do cells three apart along a row.
    found = translations(to_array(MASKED))[0]
    assert (1, -1) in found
    assert (0, 3) in found
    assert (1, 0) not in found


def test_a_frame_that_does_not_repeat_is_filled_along_its_line() -> None:
    # A frame of 5 around the stripes (core cell (r, c) holds (r + c) % 3 + 1); one hole in the
    # frame's top row (a 5 there) and one at core (2, 2), which holds (2 + 2) % 3 + 1 = 2.
    framed = g("55505555", "51231235", "52312315", "53103125", "51231235", "52312315", "53123125", "55555555")
    assert run("latfill", framed) == g(
        "55555555", "51231235", "52312315", "53123125", "51231235", "52312315", "53123125", "55555555"
    )


def test_no_repetition_no_answer() -> None:
    assert run("latfill", g("12", "34")) is None


def test_only_the_programs_input_is_completed() -> None:
    assert run("flip_h | latfill", MASKED) is None
