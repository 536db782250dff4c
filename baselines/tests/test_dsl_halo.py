"""Halos: a pattern each colour paints around its cells, fitted from demonstrations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import ProgramError, execute, parse, search
from continual_arc_baselines.dsl.grid import to_array
from continual_arc_baselines.dsl.halo import fit_halo, halo_op


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def arr(*rows: str) -> np.ndarray:  # type: ignore[type-arg]
    return to_array(g(*rows))


# Red (2) grows yellow (4) corners; blue (1) grows orange (7) sides; grey (5) grows nothing.
DEMOS = [
    (g("00000", "02000", "00000", "00010", "00000"), g("40400", "02000", "40470", "00717", "00070")),
    (
        g("000000", "000000", "001000", "000000", "000050"),
        g("000000", "007000", "071700", "007000", "000050"),
    ),
    (g("0000", "0200", "0000", "0000"), g("4040", "0200", "4040", "0000")),
]


def test_stamps_are_fitted_per_literal_colour_and_written_into_the_text() -> None:
    stamps = fit_halo([to_array(i) for i, _ in DEMOS], [to_array(o) for _, o in DEMOS], [0, 0, 0], 1)
    assert stamps is not None
    assert stamps[2] == (4, -1, 4, -1, -1, -1, 4, -1, 4)
    assert stamps[1] == (-1, 7, -1, 7, -1, 7, -1, 7, -1)
    assert stamps[5] == (-1,) * 9
    text = halo_op(1, stamps).text
    assert text == "halo(1){1:.7.7.7.7.;2:4.4...4.4;5:.........;*:.........}"
    assert parse(text).text == text
    # A new grid: the stamps go round each cell; a colour never shown (3) paints nothing, like grey.
    assert execute(parse(text), g("0000", "0010", "0000", "3000")) == g("0070", "0717", "0070", "3000")
    # Only background cells are painted: the red cell's corner on the blue cell stays blue.
    assert execute(parse(text), g("200", "010", "000")) == g("270", "717", "070")


def test_the_search_finds_the_halo_and_answers_with_it() -> None:
    result = search(DEMOS, g("00000", "00200", "00000", "10000", "00000"))
    assert result.candidates
    first = result.candidates[0]
    assert first.program.text.startswith("halo(1){")
    assert first.prediction == g("04040", "00200", "74040", "17000", "70000")


def test_stamps_that_cross_in_two_colours_make_the_step_not_apply() -> None:
    text = "halo(1){1:.7.7.7.7.;2:4.4...4.4}"
    assert execute(parse(text), g("200", "001", "000")) is None  # both paint the middle cell
    assert execute(parse(text), g("000", "030", "000")) is None  # 3 is unknown and no '*' entry


def test_fitting_refuses_what_a_halo_cannot_say() -> None:
    bg = [0]
    # A foreground cell changes colour.
    assert fit_halo([arr("010")], [arr("020")], bg, 1) is None
    # One colour's right-hand neighbour becomes two colours: no stamp says both.
    assert fit_halo([arr("100", "000", "100")], [arr("130", "000", "140")], bg, 1) is None
    # Nothing is painted.
    assert fit_halo([arr("010")], [arr("010")], bg, 1) is None
    # A change far from every cell: no stamp of radius 1 reaches it.
    assert fit_halo([arr("10000")], [arr("10003")], bg, 1) is None


def test_a_stamp_only_shadowing_another_is_dropped() -> None:
    # Grey (5) stands where red's (2) halo always covers its upper-right cell: red explains it.
    inputs = [arr("0000", "0200", "0050", "0000"), arr("00000", "00000", "00200", "00000", "05000")]
    outputs = [arr("4440", "4240", "4450", "0000"), arr("00000", "04440", "04240", "04440", "05000")]
    stamps = fit_halo(inputs, outputs, [0, 0], 1)
    assert stamps is not None and stamps[5] == (-1,) * 9 and stamps[2] == (4, 4, 4, 4, -1, 4, 4, 4, 4)


@pytest.mark.parametrize(
    "bad",
    [
        "halo(3){1:.........}",  # no such radius
        "halo(1){1:....}",  # a stamp of the wrong size
        "halo(1){x:.........}",  # not a colour
        "halo(1){1:....a....}",  # not a colour in the stamp
        "halo(1){*:.........;1:.7.......}",  # not canonical: '*' goes last
    ],
)
def test_malformed_halos(bad: str) -> None:
    with pytest.raises(ProgramError):
        parse(bad)


def _paint_by_hand(grid: list[list[int]], stamps: dict[int, list[list[int]]]) -> list[list[int]]:
    """What a radius-1 halo must give, cell by cell, with no NumPy and no shared code."""
    h, w = len(grid), len(grid[0])
    out = [row[:] for row in grid]
    for y in range(h):
        for x in range(w):
            stamp = stamps.get(grid[y][x])
            if stamp is None:
                continue
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    ty, tx = y + dy, x + dx
                    if 0 <= ty < h and 0 <= tx < w and grid[ty][tx] == 0 and stamp[dy + 1][dx + 1]:
                        out[ty][tx] = stamp[dy + 1][dx + 1]
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=4, unique=True),
    st.lists(st.sampled_from([0, 0, 6, 7]), min_size=9, max_size=9),
    st.integers(1, 3),
)
def test_a_halo_painted_by_hand_on_spread_cells_is_fitted_back(
    spots: list[tuple[int, int]], cells: list[int], colour: int
) -> None:
    # Cells of one colour four apart, on a 15 x 15 grid: their stamps never touch nor leave the grid.
    stamp = [cells[0:3], cells[3:6], cells[6:9]]
    stamp[1][1] = 0
    grid = [[0] * 15 for _ in range(15)]
    for y, x in spots:
        grid[1 + 4 * y][1 + 4 * x] = colour
    as_grid = tuple(tuple(row) for row in grid)
    painted = tuple(tuple(row) for row in _paint_by_hand(grid, {colour: stamp}))
    fitted = fit_halo([to_array(as_grid)], [to_array(painted)], [0], 1)
    if not any(any(row) for row in stamp):
        assert fitted is None  # a stamp that paints nothing is no halo
        return
    assert fitted is not None
    text = halo_op(1, fitted).text
    assert execute(parse(text), as_grid) == painted
