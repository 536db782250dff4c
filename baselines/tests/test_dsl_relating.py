"""Relations: each object recoloured, kept or erased by a fitted table of a property or relation."""

from __future__ import annotations

import random

import numpy as np
from dsl_rig import made_pairs

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context, to_array
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup
from continual_arc_baselines.dsl.relating import fit_relate

Cells = list[list[int]]


def _grid(cells: Cells) -> Grid:
    return tuple(tuple(row) for row in cells)


def _markers_above(rng: random.Random) -> Pair:
    """Grey blocks below a row of coloured dots; each block takes the colour of the dot above it."""
    size = 12
    grid = [[0] * size for _ in range(size)]
    out = [[0] * size for _ in range(size)]
    left = rng.randrange(2)
    while left + 2 <= size:
        width = rng.randint(2, 3)
        if left + width > size:
            break
        colour = rng.choice([1, 2, 3, 4, 6, 7, 8, 9])
        mark = left + rng.randrange(width)
        top = rng.randint(2, 6)
        bottom = rng.randint(top + 1, size)
        grid[0][mark] = out[0][mark] = colour
        for y in range(top, bottom):
            for x in range(left, left + width):
                grid[y][x], out[y][x] = 5, colour
        left += width + 1 + rng.randrange(2)
    return _grid(grid), _grid(out)


_PIECES = {1: [(0, 0)], 2: [(0, 0), (0, 1)], 3: [(0, 0), (1, 0), (2, 0)]}


def _by_size(rng: random.Random, sizes: tuple[int, ...] = (1, 2, 3)) -> Pair:
    """Pieces of many colours: single cells vanish, pairs stay as they are, triples turn grey."""
    size = 12
    grid = [[0] * size for _ in range(size)]
    out = [[0] * size for _ in range(size)]
    taken = np.zeros((size + 2, size + 2), dtype=bool)
    for _ in range(40):
        cells = _PIECES[rng.choice(sizes)]
        y, x = rng.randrange(size - 2), rng.randrange(size - 1)
        # A piece and the cells around it must be free, so no two pieces touch.
        if any(taken[y + dy : y + dy + 3, x + dx : x + dx + 3].any() for dy, dx in cells):
            continue
        colour = rng.choice([1, 2, 3, 4, 6, 7, 8, 9])
        for dy, dx in cells:
            taken[y + dy + 1, x + dx + 1] = True
            grid[y + dy][x + dx] = colour
            out[y + dy][x + dx] = {1: 0, 2: colour, 3: 5}[len(cells)]
    return _grid(grid), _grid(out)


def test_the_wide_search_recolours_blocks_by_the_dot_above_them() -> None:
    *demos, test = made_pairs(_markers_above, 7, 4)
    assert not any(c.prediction == test[1] for c in search(demos, test[0], catalogue=CORE).candidates)
    found = search(demos, test[0], catalogue=WIDE)
    assert found.candidates
    first = found.candidates[0]
    assert first.program.text == "relate(4,all){0>u}"
    assert first.prediction == test[1]


def test_the_wide_search_keeps_erases_and_recolours_by_size() -> None:
    *demos, test = made_pairs(_by_size, 11, 4)
    assert not any(c.prediction == test[1] for c in search(demos, test[0], catalogue=CORE).candidates)
    first = search(demos, test[0], catalogue=WIDE).candidates[0]
    assert first.program.text.startswith("relate(")
    assert first.prediction == test[1]
    # The kept program reads back from its text and answers a new grid with no demonstrations.
    program = parse(first.program.text)
    assert program.text == first.program.text
    fresh_input, fresh_output = _by_size(random.Random(99))
    assert execute(program, fresh_input) == fresh_output


def test_a_written_table_runs_with_no_demonstrations() -> None:
    text = "relate(4,size){1>c0;2>k;3>5}"
    op = lookup(text)
    assert op is not None and op.text == text
    grid = _grid([[1, 0, 2, 2], [0, 0, 0, 0], [3, 0, 0, 4], [3, 0, 0, 0], [3, 0, 0, 0]])
    want = _grid([[0, 0, 2, 2], [0, 0, 0, 0], [5, 0, 0, 0], [5, 0, 0, 0], [5, 0, 0, 0]])
    assert execute(parse(text), grid) == want
    # A piece of four cells: a size the table never saw, so the step does not apply.
    assert execute(parse(text), _grid([[1, 1, 1, 1], [0, 0, 0, 0]])) is None


def test_an_inner_fill_keeps_the_rim_and_paints_the_inside_by_rank() -> None:
    text = "relate(4,rank){0>i2;1>i1}"
    top, bottom = [4, 4, 4, 4, 0, 0, 0], [0, 0, 0, 0, 3, 3, 3]
    grid = _grid([top, top, top, bottom, bottom, bottom])
    # The larger block's two inner cells turn red; the smaller's one inner cell blue.
    want = _grid([top, [4, 2, 2, 4, 0, 0, 0], top, bottom, [0, 0, 0, 0, 3, 1, 3], bottom])
    assert execute(parse(text), grid) == want


def test_malformed_texts_do_not_parse_as_steps() -> None:
    for text in (
        "relate(4,size){1>c0;2>q}",  # no such value
        "relate(4,size){1>c0;2>im}",  # an inner fill names a colour, not a relation
        "relate(5,size){1>c0}",  # no such mode
        "relate(4,girth){1>c0}",  # no such key
        "relate(4,colour+size){1>c0}",  # a key of two fields written with one
        "relate(4,size){1>c0;2>k",  # no closing brace
    ):
        assert lookup(text) is None


def _fit(pairs: list[Pair]) -> list[str]:
    inputs = tuple(to_array(i) for i, _ in pairs)
    outputs = tuple(to_array(o) for _, o in pairs[:-1])
    return [op.text for op in fit_relate(FitInput(inputs, outputs, tuple(Context(a) for a in inputs)))]


def test_nothing_is_fitted_when_an_object_changes_only_in_part() -> None:
    # Each object's top cell turns grey and the rest keeps its colour: no table says that.
    pairs = []
    rng = random.Random(3)
    for _ in range(3):
        grid = [[0] * 6 for _ in range(6)]
        out = [[0] * 6 for _ in range(6)]
        for x in (0, 3):
            colour = rng.choice([1, 2, 3])
            for y in range(2, 5):
                grid[y][x] = out[y][x] = colour
            out[2][x] = 5
        pairs.append((_grid(grid), _grid(out)))
    assert _fit(pairs) == []


def test_nothing_is_fitted_when_the_test_holds_an_object_the_table_never_saw() -> None:
    # The demonstrations show single cells and pairs only; the test input holds triples too.
    demos = made_pairs(lambda rng: _by_size(rng, (1, 2)), 5, 3)
    test_input, _ = _by_size(random.Random(1))
    assert not any(t.startswith("relate(4,size)") for t in _fit([*demos, (test_input, test_input)]))
