"""Per-object rewriting: cells repainted by where they lie in their object, shapes replaced by a table."""

from __future__ import annotations

import random

import numpy as np
from dsl_rig import made_pairs

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context, to_array
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup
from continual_arc_baselines.dsl.perobject import fit_objcell, fit_objmap

Cells = list[list[int]]


def _grid(cells: Cells) -> Grid:
    return tuple(tuple(row) for row in cells)


def _bars(rng: random.Random) -> Pair:
    """Bars of one colour standing on the bottom row; the lower half of each (rounded down) turns 8."""
    size = 10
    colour = rng.choice([1, 2, 3, 4, 6])
    grid = [[0] * size for _ in range(size)]
    out = [[0] * size for _ in range(size)]
    for x in range(rng.randrange(2), size, 2):
        height = rng.randint(2, size - 1)
        for k in range(height):
            y = size - 1 - k
            grid[y][x] = colour
            # Counted from the bottom: the first height // 2 cells are the lower half.
            out[y][x] = 8 if k < height // 2 else colour
    return _grid(grid), _grid(out)


_HOLLOW = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
_PLUS = [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]
_WIDE_RING = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3)]


def _rings(rng: random.Random) -> Pair:
    """Hollow blue 3 x 3 squares become red pluses; hollow blue 3 x 4 boxes stay as they are.

    Each corner of either looks the same from its 3 x 3 neighbourhood, so only the whole shape
    says whether it changes.
    """
    size = 14
    grid = [[0] * size for _ in range(size)]
    out = [[0] * size for _ in range(size)]
    taken = np.zeros((size + 2, size + 2), dtype=bool)
    rings = 0
    for attempt in range(60):
        ring = attempt % 2 == 0
        y, x = rng.randrange(size - 2), rng.randrange(size - 2)
        # The piece's 3 x 3 box and a cell around it must be free, so no two pieces touch.
        if taken[y : y + 5, x : x + 6].any() or (not ring and x + 4 > size):
            continue
        taken[y + 1 : y + 4, x + 1 : x + 5] = True
        for dy, dx in _HOLLOW if ring else _WIDE_RING:
            grid[y + dy][x + dx] = 1
        for dy, dx in _PLUS if ring else _WIDE_RING:
            out[y + dy][x + dx] = 2 if ring else 1
        rings += ring
    assert rings >= 1
    return _grid(grid), _grid(out)


def test_the_wide_search_paints_the_lower_half_of_each_bar() -> None:
    *demos, test = made_pairs(_bars, 3, 4)
    assert not any(c.prediction == test[1] for c in search(demos, test[0], catalogue=CORE).candidates)
    first = search(demos, test[0], catalogue=WIDE).candidates[0]
    assert first.program.text.startswith("objcell(")
    assert first.prediction == test[1]
    # The kept program reads back from its text and answers a new grid with no demonstrations.
    program = parse(first.program.text)
    assert program.text == first.program.text
    fresh_input, fresh_output = _bars(random.Random(99))
    assert execute(program, fresh_input) == fresh_output


def test_the_wide_search_replaces_each_hollow_square_by_a_plus() -> None:
    *demos, test = made_pairs(_rings, 5, 4)
    assert not any(c.prediction == test[1] for c in search(demos, test[0], catalogue=CORE).candidates)
    first = search(demos, test[0], catalogue=WIDE).candidates[0]
    assert first.program.text == "objmap(4,r,0){3x3:0000-0000>_2_222_2_;*>.}"
    assert first.prediction == test[1]
    program = parse(first.program.text)
    fresh_input, fresh_output = _rings(random.Random(42))
    assert execute(program, fresh_input) == fresh_output


def test_written_steps_run_with_no_demonstrations() -> None:
    text = "objcell(4,par){0.0.0>a;0.0.1>a;0.1.0>a;0.1.1>_}"
    op = lookup(text)
    assert op is not None and op.text == text
    block = [[5, 5, 5, 5, 5]] * 3
    # The middle row's cells at odd columns from the block's left edge are hollowed.
    want = [[5, 5, 5, 5, 5], [5, 0, 5, 0, 5], [5, 5, 5, 5, 5]]
    empty = [[0] * 5] * 4
    assert execute(parse(text), _grid([*empty, *block])) == _grid([*empty, *want])
    # A background cell inside a box is a key this table lacks: the step does not apply.
    ring = [[5, 5, 5, 0, 0], [5, 0, 5, 0, 0], [5, 5, 5, 0, 0]]
    assert execute(parse(text), _grid([*empty, *ring])) is None

    shapes = "objmap(4,d,0){1x2:00>a3;*>.}"
    assert lookup(shapes) is not None
    # A domino's second cell turns green, in whatever orientation: a vertical one's lower cell.
    grid = _grid([[7, 0, 0], [7, 0, 0], [0, 0, 4]])
    assert execute(parse(shapes), grid) == _grid([[7, 0, 0], [3, 0, 0], [0, 0, 4]])


def test_malformed_texts_do_not_parse_as_steps() -> None:
    for text in (
        "objcell(4,par){0.0.0>a;0.1.1>q}",  # no such token
        "objcell(4,girth){0.0.0>a}",  # no such place
        "objcell(c,par){0.0.0>a}",  # colour classes are not a mode here
        "objcell(4,par){0.0.3>a}",  # a place field out of range
        "objmap(4,r,0){2x2:0000>__}",  # a value of the wrong length
        "objmap(4,r,2){1x1:0>_}",  # no such margin
        "objmap(4,r,0){*>2}",  # the default only keeps
        "objmap(4,r,0){1x1:0>_",  # no closing brace
    ):
        assert lookup(text) is None


def _fit(pairs: list[Pair]) -> list[str]:
    inputs = tuple(to_array(i) for i, _ in pairs)
    outputs = tuple(to_array(o) for _, o in pairs[:-1])
    given = FitInput(inputs, outputs, tuple(Context(a) for a in inputs))
    return [op.text for op in (*fit_objcell(given), *fit_objmap(given))]


def test_nothing_is_fitted_when_changes_follow_no_object() -> None:
    # Random cells of random grids flip colour: no place in a box, nor any shape, says which.
    rng = random.Random(8)
    pairs = []
    for _ in range(4):
        grid = [[rng.choice([0, 0, 0, 1, 2]) for _ in range(8)] for _ in range(8)]
        out = [[rng.choice([c, c, 6]) for c in row] for row in grid]
        pairs.append((_grid(grid), _grid(out)))
    assert _fit(pairs) == []


def test_no_table_is_offered_for_a_test_shape_the_demonstrations_never_show() -> None:
    demos = made_pairs(_rings, 5, 3)
    # The test input holds only a hollow 4 x 4 square: a shape no entry answers.
    grid = [[0] * 8 for _ in range(8)]
    for y in range(1, 5):
        for x in range(1, 5):
            if y in (1, 4) or x in (1, 4):
                grid[y][x] = 1
    assert not any(t.startswith("objmap(") for t in _fit([*demos, (_grid(grid), _grid(grid))]))
