"""The DSL's newer pieces on hand-made grids, each expected output written out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import ProgramError, execute, parse, search
from continual_arc_baselines.dsl.grid import to_array
from continual_arc_baselines.dsl.layout import fit_blocks
from continual_arc_baselines.dsl.local import fit_local


def run(text: str, grid: list[list[int]]) -> Grid | None:
    return execute(parse(text), tuple(tuple(row) for row in grid))


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def arr(*rows: str) -> np.ndarray:  # type: ignore[type-arg]
    return to_array(g(*rows))


# -- layers: a result laid back over the input ------------------------------------------------------

SCENE = [[0, 0, 0, 0, 0], [0, 3, 3, 0, 0], [0, 3, 3, 0, 4], [0, 0, 0, 0, 0]]


def test_restore_lays_a_partial_result_over_the_input() -> None:
    # keep the big square only, outline it, then put the dot back: a program of three steps.
    assert run("keep(4,big) | outline(4) | restore | map(11>7)", SCENE) == g(
        "07700", "73370", "73374", "07700"
    )
    assert run("keep(4,big) | under", SCENE) == g(*("".join(map(str, r)) for r in SCENE))
    assert run("restore", SCENE) is None  # nothing to restore on the input itself


@pytest.mark.parametrize(
    ("text", "grid", "expected"),
    [
        ("mirrorfill(h)", [[1, 0, 0], [0, 2, 0]], g("101", "020")),
        ("mirrorfill(v)", [[5, 0], [0, 0], [0, 6]], g("56", "00", "56")),
        ("mirrorfill(rot)", [[1, 0], [0, 0]], g("11", "11")),
        ("mirrorfill(d)", [[0, 2, 0], [0, 0, 0], [0, 0, 0]], g("020", "202", "020")),
    ],
)
def test_mirror_overlays(text: str, grid: list[list[int]], expected: Grid) -> None:
    assert run(text, grid) == expected


# -- objects ---------------------------------------------------------------------------------------


def test_fall_moves_objects_as_wholes_until_they_rest() -> None:
    grid = [[0, 1, 1, 0], [0, 0, 1, 0], [0, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0]]
    # The 2 lands on the floor; the L-shape falls until its lowest cell meets the floor.
    assert run("fall(down)", grid) == g("0000", "0000", "0000", "0110", "2010")
    assert run("fall(left)", [[0, 0, 3], [0, 0, 0]]) == g("300", "000")
    assert run("fall(down)", [[0], [5]]) is None  # nothing moves


def test_tally_writes_one_cell_per_object() -> None:
    grid = [[4, 0, 2], [0, 0, 0], [7, 7, 0]]
    assert run("tally(4)", grid) == g("427")
    assert run("tally(c)", [[4, 0, 4], [0, 0, 0], [9, 0, 4]]) == g("49")


def test_colour_classes_are_objects_of_one_colour_each() -> None:
    grid = [[1, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 1], [2, 2, 0, 0]]
    # All the 1s are one object (not connected), the largest; its bounding box is the top three rows.
    assert run("pick(c,big)", grid) == g("1001", "0000", "0001")
    assert run("pick(c,small)", [[1, 0, 2], [0, 0, 2], [0, 0, 2]]) == g("1")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("relabel(4,holes) | map(10>5,11>6)", g("0000000", "0666000", "0606005", "0666000", "0000000")),
        ("relabel(4,width) | map(11>5,13>6)", g("0000000", "0666000", "0606005", "0666000", "0000000")),
        ("relabel(4,border) | map(10>8,11>4)", g("0000000", "0888000", "0808004", "0888000", "0000000")),
    ],
)
def test_relabel_by_property(text: str, expected: Grid) -> None:
    # A ring (holes, off the border, 3 wide) and a dot (no holes, on the border, 1 wide).
    grid = [[0] * 7, [0, 2, 2, 2, 0, 0, 0], [0, 2, 0, 2, 0, 0, 3], [0, 2, 2, 2, 0, 0, 0], [0] * 7]
    assert run(text, grid) == expected


def test_relabel_by_shape_ranks_the_commonest_first() -> None:
    grid = [[1, 0, 1, 0, 2, 2]]
    assert run("relabel(4,shape) | map(10>4,11>5)", grid) == g("404055")


def test_diagonal_connect() -> None:
    grid = [[6, 0, 0, 0], [0, 0, 0, 0], [0, 0, 6, 0], [0, 0, 0, 0]]
    assert run("connect(x)", grid) == g("6000", "0600", "0060", "0000")


# -- parts -----------------------------------------------------------------------------------------


def test_separators_are_the_colour_that_is_mostly_lines() -> None:
    # Column 0 is uniform 4s (part of the left half), column 3 the separating 6s.
    grid = [[4, 4, 0, 6, 8, 0, 8], [4, 0, 4, 6, 8, 8, 0], [4, 4, 4, 6, 0, 8, 8]]
    assert run("bg0 | logic(sep,and) | map(10>0,11>2)", grid) == g("200", "200", "022")


def test_each_part_is_read_against_its_own_background() -> None:
    # The halves have backgrounds 4 and 8; their foregrounds overlap in one cell.
    grid = [[4, 1, 4, 6, 8, 1, 8], [4, 4, 4, 6, 8, 8, 8], [1, 4, 4, 6, 1, 8, 8]]
    assert run("logic(sep,and) | map(10>0,11>3)", grid) == g("030", "000", "300")


# -- fitted steps ----------------------------------------------------------------------------------


def test_local_rule_is_fitted_by_role_and_written_into_the_text() -> None:
    # Rule: a background cell with foreground to its left and its right becomes colour 9.
    inputs = [arr("0000", "1010", "0000"), arr("22222", "25252", "22222")]
    outputs = [arr("0000", "1910", "0000"), arr("22222", "25952", "22222")]
    table = fit_local(inputs, outputs, "b4")
    assert table is not None and ("0.0.0.1.1", "9") in table
    text = "local(b4){" + ";".join(f"{k}>{v}" for k, v in table) + "}"
    assert parse(text).text == text
    # A new palette: roles carry over, so background 3 with foreground 7 on both sides gets 9.
    assert run(text, [[3, 3, 3, 3], [7, 3, 7, 3], [3, 3, 3, 3]]) == g("3333", "7973", "3333")
    # A neighbourhood the table never saw makes the step not apply.
    assert run(text, [[3, 7, 3], [7, 3, 7], [3, 7, 3]]) is None


def test_local_rules_refuse_contradictions() -> None:
    inputs = [arr("010"), arr("010")]
    assert fit_local(inputs, [arr("020"), arr("030")], "b4") is None  # one key, two literal colours


@pytest.mark.parametrize(
    "bad", ["local(b4){0.0.0.0>c1}", "local(zz){0.0.0.0.0>c1}", "local(b4){0.0.0.0.0>cq}"]
)
def test_malformed_local_rules(bad: str) -> None:
    with pytest.raises(ProgramError):
        parse(bad)


def test_block_layout_is_fitted_per_block() -> None:
    state = arr("12", "34")
    output = arr("1221", "3443", "3443", "1221")
    fitted = fit_blocks([state], [output], [0])
    assert fitted == (2, 2, ("id", "flip_h", "flip_v", "rot180"))
    text = "blocks(2x2){id,flip_h,flip_v,rot180}"
    assert run(text, [[5, 6], [7, 8]]) == g("5665", "7887", "7887", "5665")
    assert run("blocks(1x2){blank,id}", [[5, 6]]) == g("5556")  # a blank block is background 5
    assert fit_blocks([state], [arr("1212", "3434")], [0]) == (1, 2, ("id", "id"))  # a plain tiling


def test_the_search_finds_fitted_steps() -> None:
    pairs = [(g("12", "34"), g("1221", "3443")), (g("56", "78"), g("5665", "7887"))]
    result = search(pairs[:1] + pairs[1:], g("90", "11"))
    assert result.candidates[0].prediction == g("9009", "1111")


# -- summaries, hulls, swaps, choosers --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "grid", "expected"),
    [
        ("vote(2)", [[1, 1, 2, 2], [1, 3, 2, 2]], g("12")),
        ("hull(c)", [[0, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 4]], g("0000", "4444", "4444")),
        ("swap(m4)", [[0, 0, 0], [0, 1, 2], [0, 2, 2]], g("000", "021", "011")),
        ("partfill", [[1, 0, 5, 0], [0, 0, 5, 3]], g("1153", "1153")),
        ("pick(8,sym)", [[1, 0, 0, 0, 2, 2], [1, 1, 0, 0, 2, 2], [0] * 6], g("22", "22")),
        ("pick(8,asym)", [[1, 0, 0, 0, 2, 2], [1, 1, 0, 0, 2, 2], [0] * 6], g("10", "11")),
        ("part(asym)", [[0, 0, 5, 2, 0, 5, 0, 0], [0, 0, 5, 0, 0, 5, 0, 0]], g("20", "00")),
        (
            "logic(q,or) | map(10>0,11>7)",
            [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]],
            g("70", "07"),
        ),
        ("continue{2,6}", [[1, 2, 1, 2]], g("121212", "121212")),
        (
            "vacant(2) | map(11>9)",
            [[0, 0, 1, 0], [0, 0, 1, 0], [1, 0, 0, 1], [0, 1, 0, 0]],
            g("9910", "9910", "1001", "0100"),
        ),
        ("mirrormark(h) | map(11>9)", [[1, 0, 0], [0, 2, 0]], g("109", "020")),
        ("half(br)", [[1, 2, 3], [4, 5, 6], [7, 8, 9]], g("9")),
        ("half(tl)", [[1, 2, 3, 4], [5, 6, 7, 8]], g("12")),
        ("continue{x3/2,x1}", [[1, 2], [3, 4], [1, 2], [3, 4]], g("12", "34", "12", "34", "12", "34")),
        ("stripes(h)", [[1, 1, 2], [3, 4, 4]], g("111", "444")),
        ("emptylines(h) | map(11>7)", [[0, 0, 0], [0, 5, 0], [0, 0, 0]], g("777", "050", "777")),
        ("palette(vc)", [[0, 0, 0, 1], [0, 2, 2, 0], [0, 2, 0, 0]], g("2", "1")),
        ("tallysize(4)", [[1, 0, 2, 2], [0, 0, 2, 0], [3, 3, 0, 0]], g("231")),
        (
            "part(odd)",
            [[1, 1, 0, 1, 1], [1, 1, 0, 1, 1], [0, 0, 0, 0, 0], [1, 1, 0, 2, 1], [1, 1, 0, 1, 1]],
            g("21", "11"),
        ),
        (
            "fillin",
            [[0, 0, 0, 0, 0], [0, 3, 3, 3, 0], [0, 3, 0, 3, 0], [0, 3, 3, 3, 0]],
            g("00000", "03330", "03330", "03330"),
        ),
    ],
)
def test_summaries_and_object_paints(text: str, grid: list[list[int]], expected: Grid) -> None:
    assert run(text, grid) == expected
