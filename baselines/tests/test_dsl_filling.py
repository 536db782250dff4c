"""Filling regions: background regions painted by shape, rim, seed or owner (``wide`` only)."""

from __future__ import annotations

import random

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import execute, parse, search
from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = dict[tuple[int, int], int]


def _grid(h: int, w: int, cells: Cells, fill: int = 0) -> Grid:
    rows = [[fill] * w for _ in range(h)]
    for (y, x), v in cells.items():
        rows[y][x] = v
    return tuple(tuple(r) for r in rows)


def _ring(top: int, left: int, inner_h: int, inner_w: int, colour: int) -> Cells:
    """The outline of a box whose inside is ``inner_h`` x ``inner_w``, its corner at (top, left)."""
    h, w = inner_h + 2, inner_w + 2
    return {
        (top + y, left + x): colour for y in range(h) for x in range(w) if y in (0, h - 1) or x in (0, w - 1)
    }


def _inside(top: int, left: int, inner_h: int, inner_w: int, colour: int) -> Cells:
    return {(top + 1 + y, left + 1 + x): colour for y in range(inner_h) for x in range(inner_w)}


def _square_holes_task(rng: random.Random, squares: tuple[int, ...] = (1, 2)) -> Pair:
    """Four outlines in the four quarters of a 14 x 14 grid; the square holes become red (2).

    The square holes have the sides ``squares``: a test with a side no demonstration shows keeps
    a table of hole sizes from answering.
    """
    colour = rng.choice([1, 3, 4, 5, 6, 8])
    oblongs = [(1, 2), (2, 3), (3, 1), (2, 1), (1, 3)]
    given: Cells = {}
    wanted: Cells = {}
    # At least one square and one oblong hole in every pair.
    picks = [(k, k) for k in rng.sample(squares, min(2, len(squares)))]
    picks += rng.sample(oblongs, 4 - len(picks))
    rng.shuffle(picks)
    for (top, left), (ih, iw) in zip(((0, 0), (0, 7), (7, 0), (7, 7)), picks, strict=True):
        top, left = top + rng.randint(1, 2), left + rng.randint(0, 1)
        ring = _ring(top, left, ih, iw, colour)
        # A stub beside the top row, at a random place, so outlines of one hole shape differ.
        ring[(top - 1 if top else top + ih + 2, left + rng.randint(0, iw + 1))] = colour
        given.update(ring)
        wanted.update(ring)
        if ih == iw:
            wanted.update(_inside(top, left, ih, iw, 2))
    return _grid(15, 14, given), _grid(15, 14, wanted)


def test_the_wide_search_fills_only_square_holes_and_core_does_not() -> None:
    rng = random.Random(3)
    demos = [_square_holes_task(rng) for _ in range(3)]
    test_in, test_out = _square_holes_task(rng, (3,))
    wide = search(demos, test_in, catalogue=WIDE)
    assert wide.candidates and wide.candidates[0].prediction == test_out
    assert wide.candidates[0].program.text.startswith("shaped(square,")
    core = search(demos, test_in, catalogue=CORE)
    assert not core.candidates or core.candidates[0].prediction != test_out
    # The program's text runs on a new grid with no demonstrations.
    new_in, new_out = _square_holes_task(random.Random(4), (1, 3))
    assert execute(parse(wide.candidates[0].program.text), new_in) == new_out


def _holes_only_task(rng: random.Random) -> Pair:
    """Outlines of assorted colours; the output keeps only their holes, painted green (3).

    The holes are wide enough that their middles look like the outside to a local rule.
    """
    given: Cells = {}
    wanted: Cells = {}
    for top, left in ((0, 0), (0, 9), (9, 0), (9, 9)):
        ih, iw = rng.randint(3, 5), rng.randint(3, 5)
        given.update(_ring(top, left, ih, iw, rng.choice([1, 2, 4, 5, 6, 7, 8, 9])))
        wanted.update(_inside(top, left, ih, iw, 3))
    return _grid(18, 18, given), _grid(18, 18, wanted)


def test_onlyholes_keeps_the_holes_and_clears_the_rest() -> None:
    rng = random.Random(5)
    given, wanted = _holes_only_task(rng)
    assert execute(parse("onlyholes | map(11>3)"), given) == wanted


def test_shaped_labels_rectangles_and_parity_in_scope() -> None:
    # A 1 x 2 hole and a 2 x 2 hole; the outside touches the edge.
    given = _grid(6, 9, {**_ring(0, 0, 1, 2, 5), **_ring(0, 4, 2, 2, 5)})
    squares = execute(parse("shaped(square,enclosed) | map(11>2,12>7)"), given)
    assert squares == _grid(
        6, 9, {**_ring(0, 0, 1, 2, 5), **_ring(0, 4, 2, 2, 5), (1, 1): 7, (1, 2): 7, **_inside(0, 4, 2, 2, 2)}
    )
    even = execute(parse("shaped(even,enclosed) | map(11>2,12>7)"), given)
    assert even == squares
    # In scope ``all`` the outside (no rectangle) is labelled too.
    rects = execute(parse("shaped(rect,all) | map(11>2,12>7)"), given)
    assert rects is not None and rects[5] == (7,) * 9 and rects[1][1] == 2


def test_seedfill_paints_rooms_by_their_seed_and_leaves_unseeded_or_mixed_rooms() -> None:
    # Walls of 5 split a 7 x 7 grid into four 3 x 3 rooms.
    walls: Cells = {(3, x): 5 for x in range(7)} | {(y, 3): 5 for y in range(7)}
    seeds = {(0, 0): 2, (1, 5): 4, (5, 0): 6, (6, 2): 7}  # the bottom-left room holds two colours
    given = _grid(7, 7, {**walls, **seeds})
    wanted: Cells = {**walls, **seeds}
    wanted.update({(y, x): 2 for y in range(3) for x in range(3)})
    wanted.update({(y, x): 4 for y in range(3) for x in range(4, 7)})
    assert execute(parse("seedfill(all)"), given) == _grid(7, 7, wanted)
    # Every room touches the grid's edge: ``enclosed`` fills none and does not apply.
    assert execute(parse("seedfill(enclosed)"), given) is None


def test_touch_floods_the_regions_beside_a_colour() -> None:
    # A wall of 3 splits the grid; a 1 sits in the left part, whose background becomes 1.
    cells: Cells = {(y, 2): 3 for y in range(4)} | {(1, 0): 1}
    wanted: Cells = {(y, x): 1 for y in range(4) for x in range(2)} | {(y, 2): 3 for y in range(4)}
    assert execute(parse("touch(1)"), _grid(4, 5, cells)) == _grid(4, 5, wanted)
    # No cell of colour 9: the step does not apply.
    assert execute(parse("touch(9)"), _grid(4, 5, cells)) is None


def test_holes_are_labelled_by_their_owner() -> None:
    # A big outline with one hole and a small one with one hole; then by hole count.
    big, small = _ring(0, 0, 3, 3, 4), _ring(0, 6, 1, 1, 4)
    given = _grid(6, 9, {**big, **small})
    by_size = execute(parse("holeby(size) | map(11>2,12>8)"), given)
    assert by_size == _grid(6, 9, {**big, **small, **_inside(0, 0, 3, 3, 2), **_inside(0, 6, 1, 1, 8)})
    # An object of two holes (a 3 x 5 box split by a bar) beside one of one hole.
    twin = {**_ring(0, 0, 1, 3, 5), (1, 2): 5}
    single = _ring(0, 6, 1, 1, 5)
    holes = execute(parse("holeby(holes) | map(11>1,12>2)"), _grid(6, 9, {**twin, **single}))
    assert holes == _grid(6, 9, {**twin, **single, (1, 1): 2, (1, 3): 2, (1, 7): 1})


def test_filling_does_not_apply_without_enclosed_background() -> None:
    open_grid = _grid(5, 5, {(0, 0): 3, (2, 2): 3, (4, 1): 6})
    for text in ("shaped(square,enclosed)", "byrim", "onlyholes", "holeby(size)"):
        assert execute(parse(text), open_grid) is None
