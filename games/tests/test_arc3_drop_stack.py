"""drop-stack: a hand-made well whose frames are worked out by hand, the solver against brute force,
and a human-style player that reads the picture and the queue and plans its drops in its head."""

from __future__ import annotations

import random
from itertools import product

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session, replay
from frame_reading import Grid

SPEC = GAMES["drop-stack"]

# Codes: 1 red, 2 yellow. The picture wants red at the bottom of both columns and yellow on the
# right one's red; the queue is red, red, yellow.
WELL = Level.make("drop-stack", [[0, 2], [1, 1], [1, 1], [2, 0]], height=2)

# By hand: the viewport is 2 * 2 + 4 = 8 cells wide and 2 + 3 + 1 = 6 high, scaled by
# min(64 // 8, 64 // 6) = 8 and centred at offsets (0, 8): cell (cx, cy) covers columns 8 cx .. 8 cx
# + 7 and rows 8 + 8 cy .. 15 + 8 cy. Columns 0 and 3 are the well's sides, 1 and 2 its columns; 4
# and 7 the picture's sides, 5 and 6 its columns; row 3 is the floor; row 5 the queue.


def _colour(frame: np.ndarray, cx: int, cy: int) -> int:
    cell = frame[8 + 8 * cy : 16 + 8 * cy, 8 * cx : 8 * cx + 8]
    assert (cell == cell[0, 0]).all()
    return int(cell[0, 0])


def _column(x: int) -> Move:
    return Move.click(8 * x + 4, 8 + 8 + 4)


def test_first_frame_shows_the_well_the_picture_and_the_queue() -> None:
    frame = Session(SPEC, WELL).frame
    assert (frame[:8] == 4).all() and (frame[56:] == 4).all()  # the letterbox
    assert [_colour(frame, x, 3) for x in range(8)] == [2] * 8  # the floor
    assert [_colour(frame, x, 2) for x in range(8)] == [2, 5, 5, 2, 2, 8, 8, 2]
    assert [_colour(frame, x, 1) for x in range(8)] == [2, 5, 5, 2, 2, 5, 11, 2]
    assert [_colour(frame, x, 5) for x in range(8)] == [8, 8, 11, 5, 5, 5, 5, 5]
    assert [_colour(frame, x, 0) for x in range(8)] == [5] * 8


def test_a_dropped_block_falls_a_cell_a_frame_and_stacks() -> None:
    session = Session(SPEC, WELL)
    session.step(_column(1))
    falls = [[_colour(f, 1, y) for y in range(3)] for f in session.frames]
    assert falls == [[8, 5, 5], [5, 8, 5], [5, 5, 8]]  # appears, falls twice and lands
    assert [_colour(session.frame, x, 5) for x in range(3)] == [8, 11, 5]  # the queue moved on
    session.step(Move.click(60, 60))  # off the well: nothing drops
    assert len(session.frames) == 1 and _colour(session.frame, 0, 5) == 8
    session.step(_column(2))
    assert len(session.frames) == 3 and not session.over
    session.step(_column(2))
    assert len(session.frames) == 2 and session.won  # appears, falls once onto the red
    assert (_colour(session.frame, 2, 1), _colour(session.frame, 6, 1)) == (11, 11)


def test_a_block_the_picture_does_not_want_there_loses() -> None:
    session = Session(SPEC, WELL)
    session.step(_column(2))
    session.step(_column(2))  # red on red, where the picture wants yellow
    assert session.lost and _colour(session.frame, 2, 1) == 8
    assert SPEC.solve(WELL, SPEC.budget) in (
        (_column(1), _column(2), _column(2)),
        (_column(2), _column(1), _column(2)),
    )


def _fillable(columns: list[list[int]], queue: list[int]) -> bool:
    """Brute force: whether some choice of columns drops the queue into exactly the picture."""
    for choice in product(range(len(columns)), repeat=len(queue)):
        heights = [0] * len(columns)
        for c, colour in zip(choice, queue, strict=True):
            if heights[c] >= len(columns[c]) or columns[c][heights[c]] != colour:
                break
            heights[c] += 1
        else:
            return True
    return False


def test_solver_finds_a_plan_exactly_when_brute_force_does() -> None:
    rng = random.Random(11)
    found = 0
    for _ in range(40):
        columns = [[rng.randrange(2) for _ in range(rng.randint(1, 3))] for _ in range(3)]
        queue = [colour for stack in columns for colour in stack]
        rng.shuffle(queue)
        picture = [
            [1 + stack[2 - row] if 2 - row < len(stack) else 0 for stack in columns] for row in range(3)
        ]
        rows = [
            [1 + v for v in queue[i : i + 3]] + [0] * (3 - len(queue[i : i + 3]))
            for i in range(0, len(queue), 3)
        ]
        level = Level.make("drop-stack", picture + rows, height=3)
        plan = SPEC.solve(level, SPEC.budget)
        assert (plan is not None) == _fillable(columns, queue), level.to_json()
        if plan is not None:
            assert replay(SPEC, level, plan)
            found += 1
    assert 5 < found < 40  # both kinds were met


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_drop_stack_by_planning_the_drops_from_the_picture_and_the_queue(seed: int) -> None:
    level, _ = draw_level(SPEC, ("players", seed), 2)
    session = Session(SPEC, level)
    frame = session.frame
    grid = Grid(frame, 2)  # cells lined up with the grey sides and floor
    greys = grid.with_colour(frame, 2)
    left, top, floor = min(x for x, _ in greys), min(y for _, y in greys), max(y for _, y in greys)
    n = (max(x for x, _ in greys) + 1 - left - 4) // 2

    def colour(cx: int, cy: int) -> int:
        return int(grid.block(frame, (cx, cy))[0, 0])

    columns = [
        [
            colour(left + n + 3 + c, y)
            for y in range(floor - 1, top - 1, -1)
            if colour(left + n + 3 + c, y) != 5
        ]
        for c in range(n)
    ]
    bottom = max(y for _, y in grid.cells())
    queue = [colour(x, y) for y in range(floor + 2, bottom + 1) for x in range(left, left + 2 * n + 4)]
    queue = [c for c in queue if c not in (4, 5)]  # the blocks, not the ground or the letterbox
    plan: list[int] = []

    def fill(heights: list[int], turn: int) -> bool:
        """Depth first, in the head: the next block goes where the picture wants its colour next.

        A white block goes where the picture wants any block; an orange bomb onto any block.
        """
        if turn == len(queue):
            return heights == [len(column) for column in columns]
        for c in range(n):
            if queue[turn] == 12:
                if heights[c] == 0:
                    continue
                step = -1
            elif heights[c] < len(columns[c]) and queue[turn] in (0, columns[c][heights[c]]):
                step = 1
            else:
                continue
            heights[c] += step
            plan.append(c)
            if fill(heights, turn + 1):
                return True
            plan.pop()
            heights[c] -= step
        return False

    assert 0 in queue and 12 in queue  # difficulty 2 has a wild block and a bomb
    assert fill([0] * n, 0)
    for c in plan:
        session.step(Move.click(*grid.middle((left + 1 + c, top))))
    assert session.won


# The WELL's picture; the queue: red, a bomb, a wild block, red, yellow.
TRICKS = Level.make("drop-stack", [[0, 2], [1, 1], [1, 6], [5, 1], [2, 0]], height=2)
# The WELL's picture and queue, the right column lidded until the left one is full.
LIDDED = Level.make("drop-stack", [[0, 2], [1, 1], [1, 1], [2, 0]], height=2, lid=1)


def test_a_bomb_blasts_the_block_it_lands_on_and_a_wild_block_stands_for_red() -> None:
    session = Session(SPEC, TRICKS)
    assert [_colour(session.frame, x, 5) for x in range(5)] == [8, 12, 0, 8, 11]
    session.step(_column(1))
    session.step(_column(1))  # the bomb lands on the red and both go
    assert [_colour(session.frame, 1, y) for y in range(3)] == [5, 5, 5] and not session.over
    session.step(_column(1))  # white where the picture wants red
    assert _colour(session.frame, 1, 2) == 0 and not session.over
    session.step(_column(2))
    session.step(_column(2))
    assert session.won
    assert SPEC.solve(TRICKS, SPEC.budget) is not None


def test_a_wild_block_where_the_picture_has_none_loses_and_a_bomb_on_the_floor_vanishes() -> None:
    session = Session(SPEC, TRICKS)
    session.step(_column(1))
    session.step(_column(2))  # onto the empty floor: nothing to blast
    assert [_colour(session.frame, 2, y) for y in range(3)] == [5, 5, 5] and not session.over
    session.step(_column(1))  # white on the red, where the picture has nothing
    assert session.lost


def test_a_lidded_column_takes_nothing_until_the_others_are_full() -> None:
    session = Session(SPEC, LIDDED)
    first = session.frame.copy()
    assert _colour(first, 2, 0) == 2  # the lid above the right column
    session.step(_column(2))
    assert np.array_equal(session.frame, first) and not session.over
    session.step(_column(1))  # the left column is full: the lid opens
    assert _colour(session.frame, 2, 0) == 5
    session.step(_column(2))
    session.step(_column(2))
    assert session.won
    assert SPEC.solve(LIDDED, SPEC.budget) == (_column(1), _column(2), _column(2))


@pytest.mark.parametrize("seed", range(4))
def test_what_each_difficulty_adds(seed: int) -> None:
    """1: a wild block; 2: a bomb and one block more than the picture; 3: a lid shutting a column."""
    for difficulty in range(4):
        level, plan = draw_level(SPEC, ("adds", seed), difficulty)
        depth = level.param("height")
        picture = sum(1 for row in level.grid[:depth] for v in row if v)
        queue = [v for row in level.grid[depth:] for v in row if v]
        assert (5 in queue) == (difficulty >= 1)
        assert queue.count(6) == (difficulty >= 2)
        assert len(queue) == picture + 2 * (difficulty >= 2)  # the extra block and the bomb
        assert level.param("lid", -1) >= 0 if difficulty == 3 else level.param("lid", -1) == -1
        session = Session(SPEC, level)
        if difficulty == 3:  # a click on the lidded column at the start does nothing
            first = session.frame.copy()
            clicks = sorted({m.x for m in plan if m.x is not None})  # the columns, left to right
            assert len(clicks) == level.width and plan[0].y is not None
            session.step(Move.click(clicks[level.param("lid")], plan[0].y))
            assert np.array_equal(session.frame, first) and not session.over
        for move in plan:
            session.step(move)
        assert session.won
