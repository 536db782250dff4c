"""Counting steps (`counting`): outputs whose size or content a count decides, on hand-made tasks."""

from __future__ import annotations

import random

import pytest

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import ProgramError, execute, parse, search
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.counting import fit_count
from continual_arc_baselines.dsl.grid import Context, to_array
from continual_arc_baselines.dsl.ops import CORE, WIDE


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def grid(rows: list[list[int]]) -> Grid:
    return tuple(tuple(row) for row in rows)


def scatter(rng: random.Random, h: int, w: int, bg: int, blocks: list[tuple[int, int, int]]) -> Grid:
    """A grid of ``bg`` with each (colour, height, width) block placed apart from every other."""
    rows = [[bg] * w for _ in range(h)]
    taken: list[tuple[int, int, int, int]] = []
    for colour, bh, bw in blocks:
        while True:
            y, x = rng.randrange(h - bh + 1), rng.randrange(w - bw + 1)
            # One free cell all round, so no two blocks touch, even at a corner.
            if all(y + bh < ty or ty + th < y or x + bw < tx or tx + tw < x for ty, tx, th, tw in taken):
                break
        taken.append((y, x, bh, bw))
        for dy in range(bh):
            for dx in range(bw):
                rows[y + dy][x + dx] = colour
    return grid(rows)


def diagonal(n: int, ink: int, bg: int) -> Grid:
    return grid([[ink if i == j else bg for j in range(n)] for i in range(n)])


def diagonal_task(seed: int) -> tuple[list[Pair], Pair]:
    """As many objects as there are, a diagonal that long: colours drawn afresh per pair."""
    rng = random.Random(seed)
    pairs = []
    for n in (2, 4, 3, 5):
        bg, ink = rng.sample(range(10), 2)
        shapes = [(ink, rng.randint(1, 2), rng.randint(1, 2)) for _ in range(n)]
        pairs.append((scatter(rng, 12, 12, bg, shapes), diagonal(n, ink, bg)))
    return pairs[:3], pairs[3]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_count_of_objects_laid_out_as_a_diagonal_is_found_by_wide_only(seed: int) -> None:
    demos, (test_input, answer) = diagonal_task(seed)
    found = search(demos, test_input, catalogue=WIDE)
    assert found.candidates and found.candidates[0].prediction == answer
    text = found.candidates[0].program.text
    assert text.startswith("count(") and text.endswith("}")
    core = search(demos, test_input, catalogue=CORE)
    assert not core.candidates or core.candidates[0].prediction != answer


def test_the_text_runs_again_with_no_demonstrations() -> None:
    demos, (test_input, answer) = diagonal_task(0)
    text = search(demos, test_input, catalogue=WIDE).candidates[0].program.text
    program = parse(text)
    assert program.text == text
    assert execute(program, test_input) == answer
    # Three objects of colour 4 on 0: a three-long diagonal, whatever the colours.
    assert execute(program, g("40000", "00044", "00000", "40000")) == diagonal(3, 4, 0)


def test_a_histogram_bar_per_colour_as_long_as_its_count() -> None:
    rng = random.Random(7)
    demos = []
    for _ in range(4):
        colours = rng.sample(range(1, 10), 3)
        counts = sorted(rng.sample(range(1, 8), 3), reverse=True)
        cells = [c for c, n in zip(colours, counts, strict=True) for _ in range(n)]
        cells += [0] * (36 - len(cells))  # most cells stay background
        rng.shuffle(cells)
        expected = [
            [c if i < n else 0 for c, n in zip(colours, counts, strict=True)] for i in range(counts[0])
        ]
        demos.append((grid([cells[i : i + 6] for i in range(0, 36, 6)]), grid(expected)))
    (test_input, answer), demos = demos[3], demos[:3]
    found = search(demos, test_input, catalogue=WIDE)
    assert found.candidates[0].program.text == "count(fg,cols){c0}"
    assert found.candidates[0].prediction == answer


def test_a_fixed_grid_in_the_colour_of_the_largest_object() -> None:
    rng = random.Random(3)
    pairs = []
    for _ in range(4):
        bg, big, small, other = rng.sample(range(10), 4)
        blocks = [(big, 3, 3), (small, 2, 2), (other, 1, 2), (small, 1, 1)]
        pairs.append((scatter(rng, 10, 10, bg, blocks), grid([[big] * 2] * 2)))
    found = search(pairs[:3], pairs[3][0], catalogue=WIDE)
    assert found.candidates[0].prediction == pairs[3][1]
    assert found.candidates[0].program.text == "count(big8,solid){2,2}"


def test_written_steps_do_what_their_text_says() -> None:
    two = g("1001", "0000", "2002")  # four objects, two of colour 1, on 0
    assert execute(parse("count(o4,row){k}"), two) == g("1111")
    assert execute(parse("count(o4@2,col){3}"), two) == g("3", "3")
    assert execute(parse("count(cells@1,first){1,c0,2,3}"), two) == g("110", "000")
    assert execute(parse("count(o4,table){1x1,4:7,5:8}"), two) == g("7")
    assert execute(parse("count(o4,table){1x1,5:8}"), two) is None  # a count the table never saw
    assert execute(parse("count(fg,rows){0}"), g("122", "300", "000")) == g("22", "10", "30")
    assert execute(parse("count(cells,rank){1}"), g("122", "300", "333")) == g("2", "1")
    # Objects by size, the largest first, as a column; ties in reading order.
    assert execute(parse("count(o4,sizes){}"), g("1022", "0002", "3300")) == g("2", "3", "1")
    # A table keyed by the main foreground colour.
    assert execute(parse("count(main,table){1x2,1:56,2:78}"), g("200", "022")) == g("78")


@pytest.mark.parametrize(
    "text",
    [
        "count(o4,row){k,c0}",  # a row takes one colour
        "count(o4,first){1,c0,0,3}",  # an empty shape
        "count(o9,row){k}",  # no such count
        "count(o4,table){1x2,4:7}",  # a table entry of the wrong size
        "count(big8,bars){1}",
        "count(cells,rank){5}",
    ],
)
def test_malformed_counting_text_is_refused(text: str) -> None:
    with pytest.raises(ProgramError):
        parse(text)


def fit(demos: list[Pair], test_input: Grid) -> list[str]:
    inputs = (*(to_array(i) for i, _ in demos), to_array(test_input))
    outputs = tuple(to_array(o) for _, o in demos)
    return [op.text for op in fit_count(FitInput(inputs, outputs, tuple(Context(a) for a in inputs)))]


def test_no_count_is_fitted_where_the_outputs_do_not_count() -> None:
    # The same row whatever the input: a constant, not a count.
    same = [(g("100", "001"), g("11")), (g("101", "000", "001"), g("11"))]
    assert fit(same, g("1")) == []
    # Rows whose lengths no count of the inputs gives (each input holds one object of one cell).
    odd = [(g("100", "000"), g("1111111")), (g("000", "010"), g("11"))]
    assert fit(odd, g("001")) == []
    # A grid kept in shape and repainted is not counted.
    kept = [(g("12", "21"), g("21", "12")), (g("13", "33"), g("31", "11"))]
    assert fit(kept, g("11", "22")) == []


def test_a_table_needs_numbers_seen_again_and_the_test_number_seen() -> None:
    # One object gives one grid, two objects another; each seen twice, the table holds.
    one, two = g("7"), g("8")
    demos = [(g("100", "000"), one), (g("101", "000"), two), (g("000", "010"), one), (g("001", "100"), two)]
    assert fit(demos, g("100", "001")) == ["count(o8,table){1x1,1:7,2:8}"]
    assert fit(demos, g("101", "000", "001")) == []  # no demonstration had three objects
    assert fit(demos[:3], g("100", "001")) == []  # one repeat only: no evidence
    assert execute(parse("count(o8,table){1x1,1:7,2:8}"), g("01")) == g("7")
