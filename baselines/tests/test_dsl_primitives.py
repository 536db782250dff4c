"""Each primitive family on small hand-made grids, with the expected output written out."""

from __future__ import annotations

import pytest

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse


def run(text: str, grid: list[list[int]]) -> Grid | None:
    return execute(parse(text), tuple(tuple(row) for row in grid))


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


L = [[1, 2, 3], [4, 5, 6]]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rot90", g("41", "52", "63")),
        ("rot180", g("654", "321")),
        ("rot270", g("36", "25", "14")),
        ("flip_h", g("321", "654")),
        ("flip_v", g("456", "123")),
        ("transpose", g("14", "25", "36")),
        ("antitranspose", g("63", "52", "41")),
    ],
)
def test_geometry(text: str, expected: Grid) -> None:
    assert run(text, L) == expected


OBJECTS = [
    [0, 0, 0, 0, 0, 0],
    [0, 3, 3, 0, 0, 0],
    [0, 3, 3, 0, 7, 0],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
    [5, 5, 5, 0, 0, 0],
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("crop", g("03300", "03307", "00000", "00000", "55500")),
        ("pick(4,big)", g("33", "33")),
        ("pick(4,small)", g("7")),
        ("pick(4,bottom)", g("555")),
        ("pick(4,top)", g("33", "33")),
        ("pick(4,right)", g("7")),
        ("cut(8,big)", g("33", "33")),
        ("keep(4,big)", g("000000", "033000", "033000", "000000", "000000", "000000")),
        ("erase(4,dot)", g("000000", "033000", "033000", "000000", "000000", "555000")),
        ("mark(4,rect) | map(11>1)", g("000000", "011000", "011010", "000000", "000000", "111000")),
    ],
)
def test_extraction_and_object_lists(text: str, expected: Grid) -> None:
    assert run(text, OBJECTS) == expected


def test_labels_need_a_map() -> None:
    # Marked cells carry a label, not a colour: without a map the program gives no grid.
    assert run("mark(4,rect)", OBJECTS) is None


def test_relabel_ranks_objects_by_size() -> None:
    out = run("relabel(4,rank) | map(10>1,11>2,12>4)", OBJECTS)
    assert out == g("000000", "011000", "011040", "000000", "000000", "222000")


def test_holes_and_fill() -> None:
    ring = [[0, 0, 0, 0, 0], [0, 2, 2, 2, 0], [0, 2, 0, 2, 0], [0, 2, 2, 2, 0], [0, 0, 0, 0, 0]]
    assert run("fill | map(11>4)", ring) == g("00000", "02220", "02420", "02220", "00000")
    assert run("mark(4,holes) | map(11>6)", ring) == g("00000", "06660", "06060", "06660", "00000")
    assert run("outline(4) | map(11>9)", [[0, 0, 0], [0, 1, 0], [0, 0, 0]]) == g("090", "919", "090")
    assert run("interior | map(11>c0)", ring) is None  # no cell is surrounded by its own colour


def test_separator_parts_and_logic() -> None:
    grid = [[1, 0, 5, 1, 0], [0, 0, 5, 1, 0], [0, 1, 5, 0, 0]]
    assert run("part(first)", grid) == g("10", "00", "01")
    assert run("part(last)", grid) == g("10", "10", "00")
    assert run("logic(sep,and) | map(10>0,11>2)", grid) == g("20", "00", "00")
    assert run("logic(sep,or) | map(10>0,11>2)", grid) == g("20", "20", "02")
    assert run("logic(sep,xor) | map(10>0,11>2)", grid) == g("00", "20", "02")
    assert run("overlay(sep,fwd)", grid) == g("10", "10", "01")
    assert run("half(left)", grid) == g("10", "00", "01")
    assert run("half(right)", grid) == g("10", "10", "00")


@pytest.mark.parametrize(
    ("text", "grid", "expected"),
    [
        ("up(2)", [[1, 2]], g("1122", "1122")),
        ("down(2)", [[1, 1, 2, 2], [1, 1, 2, 2]], g("12")),
        ("shrink", [[1, 1, 1, 2, 2, 2]], g("12")),
        ("tile(2x1)", [[1, 2]], g("12", "12")),
        ("mirror(h)", [[1, 2]], g("1221")),
        ("mirror(v2)", [[1], [2]], g("2", "1", "1", "2")),
        ("mirror(hv)", [[1, 2]], g("1221", "1221")),
        ("fractal(fg)", [[1, 0], [0, 0], [0, 0]], g("1000", "0000", "0000", *["0000"] * 6)),
        ("count", [[0, 3, 0], [3, 0, 0], [0, 0, 0]], g("33")),
        ("period(hv)", [[1, 2, 1, 2], [3, 4, 3, 4]], g("12", "34")),
        ("period(h)", [[1, 2, 1, 2], [1, 2, 1, 2]], g("12", "12")),
        ("period(v)", [[1, 2, 1, 2], [1, 2, 1, 2]], g("1212")),
        ("dedup", [[1, 1, 2], [1, 1, 2], [3, 3, 4]], g("12", "34")),
        ("trim", [[5, 5, 5], [5, 1, 5], [5, 5, 5]], g("1")),
    ],
)
def test_size(text: str, grid: list[list[int]], expected: Grid) -> None:
    assert run(text, grid) == expected


@pytest.mark.parametrize(
    ("text", "grid", "expected"),
    [
        ("gravity(down)", [[1, 0], [0, 0], [0, 2]], g("00", "00", "12")),
        ("gravity(left)", [[0, 0, 3]], g("300")),
        ("shift(right)", [[0, 0, 0, 0], [1, 2, 0, 0], [0, 0, 0, 0]], g("0000", "0120", "0000")),
        ("extend(down)", [[0, 4, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], g("040", "040", "040", "040")),
        ("extend(h)", [[0, 0, 0], [0, 4, 0], [0, 0, 0], [0, 0, 0]], g("000", "444", "000", "000")),
        ("connect(h)", [[3, 0, 0, 3], [0, 0, 0, 0], [0, 0, 0, 0]], g("3333", "0000", "0000")),
        ("bridge(h) | map(11>8)", [[3, 0, 0, 3], [0, 0, 0, 0], [0, 0, 0, 0]], g("3883", "0000", "0000")),
        ("sym(h)", [[1, 2, 9, 1], [3, 3, 3, 3], [4, 5, 5, 4]], g("1221", "3333", "4554")),
        ("tilefill", [[1, 2, 1, 2], [3, 4, 3, 9], [1, 9, 1, 2]], g("1212", "3434", "1212")),
        ("frame | map(11>7)", [[0, 0, 0], [0, 1, 0], [0, 0, 0]], g("777", "717", "777")),
    ],
)
def test_painting(text: str, grid: list[list[int]], expected: Grid) -> None:
    assert run(text, grid) == expected


def test_regions_and_stamp() -> None:
    grid = [[0, 0, 0, 5, 0], [0, 0, 0, 5, 0], [5, 5, 5, 5, 5], [0, 0, 0, 5, 0]]
    # Background regions of 6, 2, 3 and 1 cells: the largest becomes 1, the smallest 8.
    assert run("regions | map(11>1,12>8)", grid) == g("11150", "11150", "55555", "00058")
    dot = [[0, 0, 0], [0, 4, 0], [0, 0, 0]]
    assert run("stamp(4) | map(12>1,13>2,14>3,15>6)", dot) == g("010", "346", "020")


def test_one_cell_summaries() -> None:
    grid = [[0, 2, 0, 0], [0, 3, 3, 0], [0, 0, 0, 0]]
    assert run("swatch", grid) == g("3")
    assert run("palette(h)", grid) == g("23")
    assert run("palette(v)", grid) == g("2", "3")
    ring = [[0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 2, 2], [1, 0, 1, 0, 2, 2], [1, 1, 1, 0, 0, 0]]
    assert run("pick(4,holes)", ring) == g("111", "101", "111")


def test_cells_summarises_parts() -> None:
    grid = [[0, 0, 5, 0, 0], [0, 3, 5, 0, 0], [5, 5, 5, 5, 5], [0, 0, 5, 4, 4], [0, 0, 5, 0, 4]]
    assert run("cells", grid) == g("30", "04")


def test_map_by_role_follows_the_input() -> None:
    # c1 is the second most frequent colour of each input, whatever colour it is.
    assert run("map(c1>c2)", [[0, 0, 0], [1, 1, 2]]) == g("000", "222")
    assert run("map(c1>c2)", [[5, 5, 5], [7, 7, 3]]) == g("555", "333")
    assert run("map(c3>1)", [[0, 1]]) == g("01")  # an absent role maps nothing
    assert run("map(11>c3)", [[0, 1]]) == g("01")  # a label absent from the grid needs no value


def test_background_zero_step() -> None:
    grid = [[3, 3, 3], [3, 0, 3], [0, 0, 3]]
    assert run("crop", grid) == g("30", "00")
    assert run("bg0 | crop", grid) == g("333", "303", "003")
