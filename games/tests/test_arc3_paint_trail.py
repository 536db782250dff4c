"""paint-trail: a hand-made level's frames worked out by hand, its losses, and a human-style player."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from arc3_frame_reading import STEPS, Cell, blobs, box, cells, lattice, pixels
from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level, level_rng
from continual_arc_games.session import Session

SPEC = GAMES["paint-trail"]
UP, DOWN, LEFT, RIGHT = (Move(a) for a in STEPS)

# Codes: 1 wall, 2 start, 3 silhouette, 0 floor. The silhouette is the 2x2 block at the left.
SQUARE = Level.make("paint-trail", [[1] * 5, [1, 2, 3, 0, 1], [1, 3, 3, 0, 1], [1] * 5])

# By hand: board cells are 2 pixels, so the board is 10x8 pixels; the panel starts one pixel to its
# right, at x = 11, one pixel per cell, so the viewport is 16x8. The camera scales it by
# min(64 // 16, 64 // 8) = 4 and centres it: x offset 0, y offset (64 - 32) // 2 = 16.
# Board cell (cx, cy) is frame columns 8 cx .. 8 cx + 7 and rows 16 + 8 cy .. 16 + 8 cy + 7;
# panel cell (cx, cy) is columns 44 + 4 cx .. 44 + 4 cx + 3 and rows 16 + 4 cy .. 16 + 4 cy + 3.


def _board(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[16 + 8 * cy : 24 + 8 * cy, 8 * cx : 8 * cx + 8]


def _panel(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[16 + 4 * cy : 20 + 4 * cy, 44 + 4 * cx : 48 + 4 * cx]


def test_first_frame_matches_the_layout_worked_out_by_hand() -> None:
    frame = Session(SPEC, SQUARE).frame
    assert (frame[:16] == 4).all() and (frame[48:] == 4).all()  # the letterbox above and below
    assert (_board(frame, 0, 0) == 3).all() and (_board(frame, 4, 3) == 3).all()  # walls
    assert (_board(frame, 1, 1) == 9).all()  # the player, over the start's paint
    assert (_board(frame, 2, 1) == 5).all() and (_board(frame, 3, 2) == 5).all()  # unpainted floor
    assert (frame[16:48, 40:44] == 5).all()  # the gap between board and panel
    assert (_panel(frame, 0, 0) == 3).all() and (_panel(frame, 4, 3) == 3).all()  # the panel's ring
    for cx, cy in [(1, 1), (2, 1), (1, 2), (2, 2)]:
        assert (_panel(frame, cx, cy) == 11).all()  # the silhouette
    assert (_panel(frame, 3, 1) == 5).all()
    assert (frame[32:48, 44:64] == 5).all()  # below the panel: ground


def test_the_trail_paints_blocks_and_wins_on_the_last_cell() -> None:
    session = Session(SPEC, SQUARE)
    session.step(RIGHT)
    assert (_board(session.frame, 1, 1) == 11).all() and (_board(session.frame, 2, 1) == 9).all()
    before = session.frame.copy()
    session.step(LEFT)  # back onto wet paint: nothing moves
    assert np.array_equal(session.frame, before) and not session.over
    session.step(DOWN)
    session.step(LEFT)
    assert session.won and (_board(session.frame, 2, 2) == 11).all()


def test_leaving_the_silhouette_or_boxing_yourself_in_loses() -> None:
    session = Session(SPEC, SQUARE)
    session.step(RIGHT)
    session.step(RIGHT)  # (3, 1) is floor but not silhouette
    assert session.lost and (_board(session.frame, 3, 1) == 9).all()
    corridor = Level.make("paint-trail", [[1] * 5, [1, 3, 2, 3, 1], [1] * 5])
    session = Session(SPEC, corridor)
    session.step(LEFT)  # walls and paint all round, one silhouette cell still blank
    assert session.lost


def _strands_and_covers(shape: set[Cell], start: Cell) -> tuple[bool, bool]:
    """By brute force over every walk inside the shape: can one get stuck, can one cover it all?"""
    stuck = covered = False
    stack = [(start, frozenset([start]))]
    while stack:
        (x, y), seen = stack.pop()
        options = [(x + dx, y + dy) for dx, dy in STEPS.values() if (x + dx, y + dy) in shape - seen]
        if not options:
            stuck |= len(seen) < len(shape)
            covered |= len(seen) == len(shape)
        stack += [(c, seen | {c}) for c in options]
    return stuck, covered


def test_easy_levels_can_be_lost_inside_the_silhouette_and_won() -> None:
    for seed in range(10):
        level = SPEC.generate(level_rng(SPEC.id, 0, ("brute", seed), 0), 0)
        shape = set(level.cells(2) + level.cells(3))
        assert _strands_and_covers(shape, level.cells(2)[0]) == (True, True)


def _read(frame: np.ndarray) -> tuple[Cell, set[Cell]]:
    """The player's cell and the silhouette's cells, in board cells, from a frame."""
    size, origin = lattice(frame)
    board = cells(frame, size, origin)
    player = next(c for c, block in board.items() if (block == 9).all())
    rings = sorted(blobs(pixels(frame, 3)), key=len)  # the board's ring is the largest grey blob
    bx0, by0, bx1, _ = box(rings[-1])
    width = (bx1 - bx0 + 1) // size
    # The panel's ring is the largest grey blob right of the board; it has as many cells a side.
    px0, py0, px1, _ = box(max((r for r in rings if box(r)[0] > bx1), key=len))
    step = (px1 - px0 + 1) // width
    shape = {
        ((x - px0) // step, (y - py0) // step)
        for x, y in pixels(frame, 11)
        if x > bx1 and (x - px0) % step == 0
    }
    # The panel's cells line up with the board's from the ring's corner on.
    offset = ((bx0 - origin[0]) // size, (by0 - origin[1]) // size)
    return player, {(x + offset[0], y + offset[1]) for x, y in shape}


def _trail(at: Cell, left: set[Cell]) -> list[str] | None:
    """Arrow keys of a walk from ``at`` through every cell of ``left`` once, thought through first."""
    if not left:
        return []
    for action, (dx, dy) in STEPS.items():
        nxt = (at[0] + dx, at[1] + dy)
        if nxt in left:
            rest = _trail(nxt, left - {nxt})
            if rest is not None:
                return [action, *rest]
    return None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_paint_trail_by_planning_a_trail_over_the_silhouette(seed: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), 1)
    session = Session(SPEC, level)
    player, shape = _read(session.frame)
    assert player in shape
    keys = _trail(player, shape - {player})
    assert keys is not None and len(keys) == len(plan)
    for key in keys:
        session.step(Move(key))
    assert session.won


# A 2x2 silhouette: the start top left, the green end (code 4) top right. Going right first enters
# the end too early; down, right, up paints the rest and ends on it. By hand: the board is 4x4 cells
# of 2 pixels and the panel starts at pixel 9, a 13x8 viewport scaled by min(64 // 13, 64 // 8) = 4
# and centred at offsets (6, 16): board cell (x, y) covers frame columns 6 + 8x .. 13 + 8x and rows
# 16 + 8y .. 23 + 8y; panel cell (x, y) is frame pixel block (42 + 4x, 16 + 4y), 4x4.
ENDED = Level.make("paint-trail", [[1, 1, 1, 1], [1, 2, 4, 1], [1, 3, 3, 1], [1, 1, 1, 1]])


def test_the_green_end_must_be_painted_last() -> None:
    session = Session(SPEC, ENDED)
    frame = session.frame
    assert (frame[24:32, 22:30] == 14).all() and (frame[20:24, 50:54] == 14).all()  # board and panel
    session.step(Move("ACTION4"))
    assert session.lost  # the end, entered with cells left unpainted
    assert SPEC.solve(ENDED, SPEC.budget) == tuple(Move(a) for a in ("ACTION2", "ACTION4", "ACTION1"))
    session.reset()
    for action in ("ACTION2", "ACTION4", "ACTION1"):
        session.step(Move(action))
    assert session.won


@pytest.mark.parametrize("seed", range(4))
def test_from_difficulty_two_the_trail_ends_on_green_where_it_would_not_have(seed: int) -> None:
    for difficulty in (1, 2, 3):
        level, plan = draw_level(SPEC, ("end", seed), difficulty)
        ends = level.cells(4)
        assert len(ends) == (1 if difficulty >= 2 else 0)
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
        if ends:
            # Free of the end, and of difficulty 3's door and key, which the generator adds after.
            free = Level.make(
                SPEC.id, [[3 if code in (4, 5, 6) else code for code in row] for row in level.grid]
            )
            free_plan = SPEC.solve(free, SPEC.budget)
            assert free_plan is not None
            x, y = level.cells(2)[0]
            steps = {"ACTION1": (0, -1), "ACTION2": (0, 1), "ACTION3": (-1, 0), "ACTION4": (1, 0)}
            for move in free_plan:
                x, y = x + steps[move.action][0], y + steps[move.action][1]
            assert (x, y) != ends[0]


# Codes: 6 the maroon door right of the start, 5 the orange key right of it, 3 the row below.
LOCKED = Level.make("paint-trail", [[1] * 5, [1, 2, 6, 5, 1], [1, 3, 3, 3, 1], [1] * 5])


def test_the_door_stops_the_trail_until_the_key_is_painted() -> None:
    session = Session(SPEC, LOCKED)
    first = session.frame
    assert (_board(first, 2, 1) == 13).all() and (_board(first, 3, 1) == 12).all()
    session.step(RIGHT)  # into the shut door: nothing moves
    assert np.array_equal(session.frame, first) and not session.over
    for move in (DOWN, RIGHT, RIGHT):
        session.step(move)
    assert (_board(session.frame, 2, 1) == 13).all()
    session.step(UP)  # the key painted: the door opens
    assert (_board(session.frame, 2, 1) == 5).all() and (_board(session.frame, 3, 1) == 9).all()
    session.step(LEFT)
    assert session.won
    assert SPEC.solve(LOCKED, SPEC.budget) == (DOWN, RIGHT, RIGHT, UP, LEFT)


def _order(level: Level, plan: tuple[Move, ...]) -> list[Cell]:
    """The cells a plan paints, in order, by stepping from the start over the grid."""
    x, y = level.cells(2)[0]
    painted = [(x, y)]
    for move in plan:
        x, y = x + STEPS[move.action][0], y + STEPS[move.action][1]
        painted.append((x, y))
    return painted


@pytest.mark.parametrize("seed", range(4))
def test_at_difficulty_three_the_key_comes_before_a_door_the_free_trail_takes_first(seed: int) -> None:
    for difficulty in (2, 3):
        level, plan = draw_level(SPEC, ("door", seed), difficulty)
        keys, doors = level.cells(5), level.cells(6)
        assert len(keys) == len(doors) == (1 if difficulty == 3 else 0)
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
        if doors:
            painted = _order(level, plan)
            assert painted.index(keys[0]) < painted.index(doors[0])
            free = Level.make(
                SPEC.id, [[3 if code in (5, 6) else code for code in row] for row in level.grid]
            )
            free_plan = SPEC.solve(free, SPEC.budget)
            assert free_plan is not None
            painted = _order(free, free_plan)
            assert painted.index(doors[0]) < painted.index(keys[0])
