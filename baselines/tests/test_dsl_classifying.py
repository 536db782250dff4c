"""Classifying steps (`classifying`): an output chosen from a table by a property of the input."""

from __future__ import annotations

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.classifying import (
    classify_op,
    fit_classify,
    fit_specked,
    parse_classify,
    parse_specked,
    property_of,
    specked_colour,
)
from continual_arc_baselines.dsl.grid import Context, to_array
from continual_arc_baselines.dsl.ops import WIDE


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def given(demos: list[Pair], test: Grid) -> FitInput:
    inputs = (*(to_array(i) for i, _ in demos), to_array(test))
    return FitInput(inputs, tuple(to_array(o) for _, o in demos), tuple(Context(a) for a in inputs))


# A cross means 1, a ring means 2, in any colour: the shape is read colour-blind.
CROSS_A, CROSS_B = g("030", "333", "030"), g("070", "777", "070")
RING_A, RING_B = g("444", "404", "444"), g("222", "202", "222")
SHAPES: list[Pair] = [(CROSS_A, g("1")), (RING_A, g("2")), (CROSS_B, g("1")), (RING_B, g("2"))]


def test_pattern_table_names_each_shape_and_answers_the_test() -> None:
    ops = fit_classify(given(SHAPES, g("050", "555", "050")))
    assert [op.text for op in ops] == ["classify(pattern){3x3.000010000/1x1/2,3x3.010111010/1x1/1}"]
    assert ops[0](to_array(g("080", "888", "080")), Context(to_array(CROSS_A))).tolist() == [[1]]
    assert ops[0](to_array(g("666", "606", "666")), Context(to_array(RING_A))).tolist() == [[2]]


def test_search_finds_the_table_and_its_text_runs_alone() -> None:
    result = search(SHAPES, g("090", "999", "090"), catalogue=WIDE)
    assert result.candidates and result.candidates[0].prediction == g("1")
    program = result.candidates[0].program.text
    assert execute(parse(program), g("111", "101", "111")) == g("2")


def test_an_unseen_value_has_no_answer() -> None:
    # A diagonal is neither a cross nor a ring, so the table does not apply to it.
    op = classify_op("pattern", [("3x3.010111010", to_array(g("1"))), ("3x3.000010000", to_array(g("2")))])
    diagonal = to_array(g("500", "050", "005"))
    assert op is not None and op(diagonal, Context(diagonal)) is None


def test_outputs_no_property_names_fit_nothing() -> None:
    # The same cross answers 1 once and 2 once: no property of the input tells them apart.
    demos: list[Pair] = [(CROSS_A, g("1")), (CROSS_B, g("2")), (CROSS_A, g("1")), (CROSS_B, g("2"))]
    assert fit_classify(given(demos, CROSS_A)) == []


def test_values_that_never_repeat_fit_nothing() -> None:
    # Three shapes, three answers, no value seen twice: a description, not a rule.
    demos: list[Pair] = [(CROSS_A, g("1")), (RING_A, g("2")), (g("500", "050", "005"), g("3"))]
    assert fit_classify(given(demos, CROSS_B)) == []


def test_joined_counts_the_objects_that_hold_a_colour() -> None:
    # Two 2-blocks linked by a path of 8s: one object holds colour 2; without the link, two.
    linked = g("22000", "22800", "00800", "00822", "00022")
    apart = g("220000", "220000", "000800", "000000", "000022", "000022")
    assert property_of("joined@2", to_array(linked), Context(to_array(linked))) == "1"
    assert property_of("joined@2", to_array(apart), Context(to_array(apart))) == "2"


def test_holes_and_symmetry() -> None:
    # Two rings on a wider background enclose two regions; a ring alone has every mirror symmetry.
    rings = to_array(
        g("000000000", "044400000", "040400000", "044400000", "000002220", "000002020", "000002220")
    )
    assert property_of("holes", rings, Context(rings)) == "2"
    ring = to_array(RING_A)
    assert property_of("sym", ring, Context(ring)) == "15"
    step = to_array(g("110", "010", "000"))
    assert property_of("sym", step, Context(step)) == "0"


def test_parse_reads_back_only_canonical_text() -> None:
    text = "classify(holes){0/1x1/3,1/1x2/44}"
    op = parse_classify(text)
    assert op is not None and op.text == text
    assert parse_classify("classify(holes){0/1x1/3}") is None  # one case is no table
    assert parse_classify("classify(colour){0/1x1/3,1/1x1/4}") is None  # not a property
    assert parse_classify("classify(holes){0/1x2/3,1/1x1/4}") is None  # cells do not fill the size


# Two regions, 1 above 3, strewn with specks of 5: the region holding more specks names the answer.
SPECKS_TOP = g("111111", "151151", "111111", "333333", "333533", "333333")
SPECKS_BOTTOM = g("111111", "111151", "111111", "333333", "353353", "333333")


def test_specked_names_the_region_with_the_most_specks() -> None:
    assert specked_colour(to_array(SPECKS_TOP)) == 1
    assert specked_colour(to_array(SPECKS_BOTTOM)) == 3
    demos: list[Pair] = [(SPECKS_TOP, g("1")), (SPECKS_BOTTOM, g("3"))]
    ops = fit_specked(given(demos, SPECKS_TOP))
    assert [op.text for op in ops] == ["specked{1,1}"]
    op = parse_specked("specked{1,1}")
    assert op is not None and op(to_array(SPECKS_BOTTOM), Context(to_array(SPECKS_BOTTOM))).tolist() == [[3]]


def test_specked_fits_nothing_on_a_tie_or_a_fixed_colour() -> None:
    tie = to_array(g("111111", "111151", "111111", "333333", "333533", "333333"))
    assert specked_colour(tie) is None  # one speck each
    demos: list[Pair] = [(SPECKS_TOP, g("1")), (SPECKS_BOTTOM, g("1"))]
    assert fit_specked(given(demos, SPECKS_TOP)) == []  # the answer never changes: no choice shown
