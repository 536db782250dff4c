"""Drawn lines (`dsl.drawing`): fitted tables of rays, tasks the wide search solves, round trips."""

from __future__ import annotations

import random

import numpy as np
from dsl_rig import Made, solves

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.drawing import DRAW, parse_draw
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup


def diagonal_table(rng: random.Random) -> Made:
    """Dots of colour 1 shoot a line up-left, dots of colour 2 down-right, each to the border.

    The dots stand on distinct rows, columns and diagonals, so no two lines meet; the expected
    output is painted by walking each diagonal cell by cell.
    """
    n = 12
    a = np.zeros((n, n), dtype=np.uint8)
    spots: list[tuple[int, int]] = []
    while len(spots) < 4:
        y, x = rng.randrange(1, n - 1), rng.randrange(1, n - 1)
        if all(y != p and x != q and y - x != p - q and y + x != p + q for p, q in spots):
            spots.append((y, x))
    colours = [1, 2, 1, 2]
    rng.shuffle(colours)
    for (y, x), c in zip(spots, colours, strict=True):
        a[y, x] = c
    b = a.copy()
    for (y, x), c in zip(spots, colours, strict=True):
        step = -1 if c == 1 else 1
        y, x = y + step, x + step
        while 0 <= y < n and 0 <= x < n and a[y, x] == 0:
            b[y, x] = c
            y, x = y + step, x + step
    return a, b


def joined_pairs(rng: random.Random) -> Made:
    """Pairs of one colour on a row or a column are joined; a column's line wins where lines cross.

    Two rows and two columns, each with its own colour; every row's pair lies beyond both columns
    and every column's pair beyond both rows, so each line crosses both lines of the other axis.
    Lone dots stand where they join nothing.
    """
    n = 14
    a = np.zeros((n, n), dtype=np.uint8)
    colours = rng.sample(range(1, 10), 4)
    rows = sorted(rng.sample(range(3, n - 3), 2))
    cols = sorted(rng.sample(range(3, n - 3), 2))
    while rows[1] - rows[0] < 2 or cols[1] - cols[0] < 2:
        rows = sorted(rng.sample(range(3, n - 3), 2))
        cols = sorted(rng.sample(range(3, n - 3), 2))
    b = a.copy()
    for k, r in enumerate(rows):
        lo, hi = rng.randrange(0, cols[0]), rng.randrange(cols[1] + 1, n)
        a[r, lo] = a[r, hi] = colours[k]
        b[r, lo : hi + 1] = colours[k]
    for k, c in enumerate(cols):  # after the rows, so the columns paint over them
        lo, hi = rng.randrange(0, rows[0]), rng.randrange(rows[1] + 1, n)
        a[lo, c] = a[hi, c] = colours[2 + k]
        b[lo : hi + 1, c] = colours[2 + k]
    # Two lone dots off every line's row and column, which join nothing.
    free = [(y, x) for y in range(n) for x in range(n) if y not in rows and x not in cols and not a[y, x]]
    for y, x in rng.sample(free, 2):
        if not (a[y].any() or a[:, x].any()):
            a[y, x] = b[y, x] = colours[0]
    return a, b


def fit_of(pairs: list[Made], test: np.ndarray) -> list[str]:
    inputs = (*(i for i, _ in pairs), test)
    given = FitInput(inputs, tuple(o for _, o in pairs), tuple(Context(a) for a in inputs))
    return [op.text for op in DRAW.fit(given)]


def test_a_table_of_directions_by_colour_is_fitted() -> None:
    rng = random.Random(3)
    pairs = [diagonal_table(rng) for _ in range(3)]
    test_in, test_out = diagonal_table(rng)
    texts = fit_of(pairs, test_in)
    assert texts[0] == "draw{c;1:ul.a.=,2:dr.a.=;1,2;-}"
    op = lookup(texts[0])
    assert op is not None
    made = op(test_in, Context(test_in))
    assert made is not None and np.array_equal(made, test_out)
    # The wide search answers it right too (whichever step it finds first).
    solves(diagonal_table, 3)


def test_pairs_are_joined_with_the_columns_over_the_rows() -> None:
    _, core_right = solves(joined_pairs, 5)
    assert not core_right
    # The wide search may answer first with another step that joins pairs (``overjoin``); the
    # drawing fitter still fits the same demonstrations with a table of its own.
    rng = random.Random(5)
    pairs = [joined_pairs(rng) for _ in range(4)]
    fitted = fit_of(pairs[:3], pairs[3][0])
    assert fitted and all(text.startswith("draw{") for text in fitted)


def test_it_does_not_apply_when_a_foreground_cell_changes_or_nothing_is_drawn() -> None:
    rng = random.Random(7)
    pairs = [diagonal_table(rng) for _ in range(3)]
    test = diagonal_table(rng)[0]
    assert fit_of(pairs, test)
    recoloured = [(a, np.where(a == 1, np.uint8(3), b).astype(np.uint8)) for a, b in pairs]
    assert fit_of(recoloured, test) == []
    assert fit_of([(a, a.copy()) for a, _ in pairs], test) == []
    # A colour the demonstrations never show: the step does not apply to the test input.
    op = parse_draw("draw{c;1:ul.a.=,2:dr.a.=;1,2;-}")
    assert op is not None
    stranger = test.copy()
    stranger[0, 0] = 5
    assert op(stranger, Context(stranger)) is None


def test_the_program_text_round_trips() -> None:
    for text in (
        "draw{c;1:ul.a.=,2:dr.a.=;1,2;-}",
        "draw{*;*:r.j.=,*:d.s.=;*;-}",
        "draw{s;p:l.a.=,p:r.a.=;p;n5}",
        "draw{c;7:u.t.2,8:d.m.3;7,8;4}",
    ):
        op = lookup(text)
        assert op is not None and op.text == text
    assert lookup("draw{c;1:up.a.=;1;-}") is None
    assert lookup("draw{q;1:u.a.=;1;-}") is None
    grid: Grid = ((0, 0, 0, 0), (0, 3, 0, 0), (0, 0, 0, 0), (0, 0, 0, 3))
    # Both 3s shoot right; the lower one is at the border and draws nothing.
    assert execute(parse("draw{*;*:r.a.=;*;-}"), grid) == (
        (0, 0, 0, 0),
        (0, 3, 3, 3),
        (0, 0, 0, 0),
        (0, 0, 0, 3),
    )


def test_a_tip_shoots_the_way_it_juts() -> None:
    # A 2 x 2 block with a tail off its lower-right corner: only the tail shoots, down-right;
    # the block's other corners jut nowhere.
    grid: Grid = (
        (0, 0, 0, 0, 0, 0),
        (0, 4, 4, 0, 0, 0),
        (0, 4, 4, 0, 0, 0),
        (0, 0, 0, 4, 0, 0),
        (0, 0, 0, 0, 0, 0),
        (0, 0, 0, 0, 0, 0),
    )
    wanted = (
        (0, 0, 0, 0, 0, 0),
        (0, 4, 4, 0, 0, 0),
        (0, 4, 4, 0, 0, 0),
        (0, 0, 0, 4, 0, 0),
        (0, 0, 0, 0, 4, 0),
        (0, 0, 0, 0, 0, 4),
    )
    text = "draw{*;*:ul.p.=,*:ur.p.=,*:dl.p.=,*:dr.p.=;*;-}"
    assert lookup(text) is not None
    assert execute(parse(text), grid) == wanted
