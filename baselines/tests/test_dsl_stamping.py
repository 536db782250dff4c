"""Stamping: a template object copied wherever the grid marks a place for it (``wide`` only)."""

from __future__ import annotations

import random

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import execute, parse, search, stamping
from continual_arc_baselines.dsl.catalogue import Catalogue
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup

Cells = dict[tuple[int, int], int]

# A plus: its middle one colour (the stud, held once), its arms another (the body).
PLUS = ((-1, 0), (0, -1), (0, 0), (0, 1), (1, 0))


def _grid(h: int, w: int, cells: Cells) -> Grid:
    rows = [[0] * w for _ in range(h)]
    for (y, x), v in cells.items():
        if 0 <= y < h and 0 <= x < w:
            rows[y][x] = v
    return tuple(tuple(r) for r in rows)


def _plus(y: int, x: int, body: int, stud: int) -> Cells:
    return {(y + dy, x + dx): stud if (dy, dx) == (0, 0) else body for dy, dx in PLUS}


def _spots(rng: random.Random, count: int, side: int) -> list[tuple[int, int]]:
    """``count`` centres of pluses inside a ``side`` square, far enough apart not to touch."""
    spots: list[tuple[int, int]] = []
    while len(spots) < count:
        y, x = rng.randrange(1, side - 1), rng.randrange(1, side - 1)
        if all(abs(y - a) > 3 or abs(x - b) > 3 for a, b in spots):
            spots.append((y, x))
    return spots


def _studs_task(rng: random.Random, side: int = 12) -> Pair:
    """One whole plus; elsewhere its stud alone, which the output completes to a plus."""
    body, stud = rng.sample(range(1, 10), 2)
    first, *rest = _spots(rng, rng.randint(3, 4), side)
    given, wanted = _plus(*first, body, stud), _plus(*first, body, stud)
    for y, x in rest:
        given[(y, x)] = stud
        wanted.update(_plus(y, x, body, stud))
    return _grid(side, side, given), _grid(side, side, wanted)


def _marker_task(rng: random.Random, side: int = 12) -> Pair:
    """One plus; elsewhere single grey (5) cells, which the output replaces by the plus centred on them."""
    body, stud = rng.sample([c for c in range(1, 10) if c != 5], 2)
    first, *rest = _spots(rng, rng.randint(3, 4), side)
    given, wanted = _plus(*first, body, stud), _plus(*first, body, stud)
    for y, x in rest:
        given[(y, x)] = 5
        wanted.update(_plus(y, x, body, stud))
    return _grid(side, side, given), _grid(side, side, wanted)


def test_the_wide_search_completes_lone_studs_to_the_template_and_core_does_not() -> None:
    rng = random.Random(7)
    demos = [_studs_task(rng) for _ in range(3)]
    test_in, test_out = _studs_task(rng)
    wide = search(demos, test_in, catalogue=WIDE)
    assert wide.candidates and wide.candidates[0].prediction == test_out
    # ``complete`` (template completion) answers first in wide; core with the stamping family
    # alone answers alike with it.
    stamping_only = Catalogue("stamping", (*CORE.families, *stamping.FAMILIES), base_fitted=CORE.base_fitted)
    stamped = search(demos, test_in, catalogue=stamping_only)
    assert stamped.candidates and stamped.candidates[0].prediction == test_out
    assert stamped.candidates[0].program.text.startswith("place(copy,")
    core = search(demos, test_in, catalogue=CORE)
    assert not core.candidates or core.candidates[0].prediction != test_out


def test_the_wide_search_centres_the_template_on_markers_and_core_does_not() -> None:
    rng = random.Random(11)
    demos = [_marker_task(rng) for _ in range(3)]
    test_in, test_out = _marker_task(rng)
    wide = search(demos, test_in, catalogue=WIDE)
    assert wide.candidates and wide.candidates[0].prediction == test_out
    core = search(demos, test_in, catalogue=CORE)
    assert not core.candidates or core.candidates[0].prediction != test_out
    # The program's text runs on a new grid with no demonstrations.
    program = parse(wide.candidates[0].program.text)
    new_in, new_out = _marker_task(random.Random(12))
    assert execute(program, new_in) == new_out


def test_a_turned_partial_copy_is_completed_in_its_own_turn() -> None:
    # The template: an L of 3s with a 4 stud, box "34 / 3. / 33". Turned a quarter clockwise it
    # reads "333 / 3.4"; its bare body "333 / 3.." below is completed with the 4 at its far end.
    template = {(0, 0): 3, (0, 1): 4, (1, 0): 3, (2, 0): 3, (2, 1): 3}
    body = {(5, 3): 3, (5, 4): 3, (5, 5): 3, (6, 3): 3}
    given = _grid(9, 9, {**template, **body})
    assert execute(parse("place(turn,8,keep)"), given) == _grid(9, 9, {**template, **body, (6, 5): 4})
    # Unturned copying does not see it: no colour class of the template recurs unturned.
    assert execute(parse("place(copy,8,keep)"), given) is None
    # A bar "333" with a stud at one end: a bare bar fits two mirror images; it is left alone.
    bar = _grid(9, 9, {(0, 0): 3, (0, 1): 3, (0, 2): 3, (0, 3): 4, (5, 2): 3, (5, 3): 3, (5, 4): 3})
    assert execute(parse("place(turn,8,keep)"), bar) is None


def test_a_lone_template_is_also_completed_at_twice_its_size() -> None:
    # The template "12 / 11": an L of 1s with a 2 in its corner; below, its L of 1s at
    # twice the size (2 x 2 blocks), which gets a 2 x 2 block of 2s in the corner.
    template = {(0, 0): 1, (1, 0): 1, (1, 1): 1, (0, 1): 2}
    big_l = {(y, x): 1 for y in range(5, 9) for x in range(5, 7)} | {
        (y, x): 1 for y in (7, 8) for x in (7, 8)
    }
    corner = {(y, x): 2 for y in (5, 6) for x in (7, 8)}
    given = _grid(10, 10, {**template, **big_l})
    wanted = _grid(10, 10, {**template, **big_l, **corner})
    assert execute(parse("place(turn,4,keep)"), given) == wanted
    assert execute(parse("place(copy,4,keep)"), given) == wanted


def test_silhouettes_take_the_template_colours_and_move_erases_the_template() -> None:
    template = {(1, 1): 2, (1, 2): 3, (2, 1): 3, (2, 2): 2}
    silhouette = {(5, 5): 5, (5, 6): 5, (6, 5): 5, (6, 6): 5}
    given = _grid(8, 8, {**template, **silhouette})
    painted = {(5, 5): 2, (5, 6): 3, (6, 5): 3, (6, 6): 2}
    assert execute(parse("place(shape,4,keep)"), given) == _grid(8, 8, {**template, **painted})
    assert execute(parse("place(shape,4,move)"), given) == _grid(8, 8, painted)


def test_stamping_does_not_apply_without_a_template_or_a_mark() -> None:
    one_colour = _grid(6, 6, {(1, 1): 4, (1, 2): 4, (4, 4): 4})
    for how in ("copy", "turn", "shape"):
        assert execute(parse(f"place({how},8,keep)"), one_colour) is None
    # A template with nothing marked: nothing to stamp.
    alone = _grid(6, 6, _plus(2, 2, 1, 2))
    assert execute(parse("place(copy,8,keep)"), alone) is None
    # A template whose box has an even side has no centre.
    even = _grid(6, 6, {(0, 0): 1, (0, 1): 2, (4, 4): 5})
    assert execute(parse("place(centre,8,keep)"), even) is None


def test_copies_are_clipped_at_the_edge_and_conflicting_copies_refuse() -> None:
    # A stud on the top edge: the plus's upper arm falls off the grid.
    given = _grid(7, 7, {**_plus(3, 3, 1, 2), (0, 6): 2})
    wanted = _grid(7, 7, {**_plus(3, 3, 1, 2), (0, 6): 2, (0, 5): 1, (1, 6): 1})
    assert execute(parse("place(copy,8,keep)"), given) == wanted
    # Two studs one cell apart: their pluses would paint each other's studs as arms.
    crowded = _grid(9, 9, {**_plus(1, 1, 1, 2), (6, 5): 2, (6, 6): 2})
    assert execute(parse("place(copy,8,keep)"), crowded) is None


def test_every_stamping_step_reads_back_from_its_text() -> None:
    texts = [op.text for op in WIDE.ops if op.text.startswith("place(")]
    assert len(texts) == 16 and not any(op.text.startswith("place(") for op in CORE.ops)
    for text in texts:
        found = lookup(text)
        assert found is not None and found.text == text
