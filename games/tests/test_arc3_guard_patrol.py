"""guard-patrol: a hand-made yard whose frames and catches are worked out by hand, the solver against
an explorer of frames, and a human-style player that watches the guards, then times its dash."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level, level_rng
from continual_arc_games.guard_patrol import patrol
from continual_arc_games.session import Session
from frame_reading import STEPS, Cell, Grid, explore, keys_to

SPEC = GAMES["guard-patrol"]
DOWN, RIGHT, WAIT = Move("ACTION2"), Move("ACTION4"), Move("ACTION5")

# Codes: 1 wall, 2 start, 3 exit, 10 guard 0's round, 20 where guard 0 starts. The guard paces the
# gap in the wall of column 3: (3, 3), (3, 2), (3, 1), (3, 2), then again, one cell per action.
YARD = Level.make(
    "guard-patrol",
    [[1] * 7, [1, 2, 0, 10, 0, 0, 1], [1, 0, 0, 10, 0, 3, 1], [1, 0, 0, 20, 0, 0, 1], [1] * 7],
    way0=0,
)

# By hand: one pixel a cell, a 7x5 viewport scaled by min(64 // 7, 64 // 5) = 9 and centred at offsets
# (0, 9): cell (cx, cy) covers columns 9 cx .. 9 cx + 8 and rows 9 + 9 cy .. 17 + 9 cy.


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[9 + 9 * cy : 18 + 9 * cy, 9 * cx : 9 * cx + 9]


def test_rounds_are_walked_in_order_from_the_post() -> None:
    line = [(3, 1), (3, 2), (3, 3)]
    assert patrol(line, (3, 3), 0) == ((3, 3), (3, 2), (3, 1), (3, 2))
    assert patrol(line, (3, 2), 0) == ((3, 2), (3, 3), (3, 2), (3, 1))  # first towards the bottom
    assert patrol(line, (3, 2), 1) == ((3, 2), (3, 1), (3, 2), (3, 3))
    ring = [(2, 1), (3, 1), (4, 1), (2, 2), (4, 2), (2, 3), (3, 3), (4, 3)]
    assert patrol(ring, (2, 1), 0)[:4] == ((2, 1), (3, 1), (4, 1), (4, 2))  # clockwise
    assert patrol(ring, (2, 1), 1)[:3] == ((2, 1), (2, 2), (2, 3))


def test_first_frame_and_a_guard_stepping_on_the_player() -> None:
    session = Session(SPEC, YARD)
    frame = session.frame
    assert (frame[:9] == 4).all() and (frame[54:] == 4).all() and (frame[:, 63] == 4).all()
    assert (_cell(frame, 1, 1) == 9).all() and (_cell(frame, 5, 2) == 14).all()
    assert (_cell(frame, 3, 1) == 13).all() and (_cell(frame, 3, 2) == 13).all()  # the round
    assert (_cell(frame, 3, 3) == 8).all() and (_cell(frame, 3, 0) == 2).all()  # the guard, a wall
    session.step(RIGHT)
    assert (_cell(session.frame, 2, 1) == 9).all() and (_cell(session.frame, 3, 2) == 8).all()
    assert (_cell(session.frame, 3, 3) == 13).all()
    session.step(RIGHT)  # into the gap just as the guard comes up into it
    assert session.lost and (_cell(session.frame, 3, 1) == 8).all()


def test_walking_into_a_guard_loses_and_waiting_for_it_wins() -> None:
    session = Session(SPEC, YARD)
    for move in (RIGHT, DOWN, WAIT, RIGHT):  # the last step walks into the guard at (3, 2)
        session.step(move)
    # The player stepped under the guard, which is drawn over it: no blue is left.
    assert session.lost and (_cell(session.frame, 3, 2) == 8).all() and not (session.frame == 9).any()
    session.reset()
    for move in (RIGHT, WAIT, WAIT, RIGHT, RIGHT, RIGHT, DOWN):
        assert not session.over
        session.step(move)
    assert session.won
    assert len(SPEC.solve(YARD, SPEC.budget) or ()) == 7


def test_solver_plans_are_as_short_as_the_explorer_finds() -> None:
    for seed in range(2):
        level = SPEC.generate(level_rng(SPEC.id, 0, ("explore", seed), 0), 0)
        plan = SPEC.solve(level, SPEC.budget)
        assert plan is not None and len(plan) == explore(Session(SPEC, level), remember=2)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_guard_patrol_by_watching_the_guards_then_timing_the_dash(seed: int) -> None:
    level, _ = draw_level(SPEC, ("players", seed), 0)  # guards only: no hunter to catch the watcher
    session = Session(SPEC, level)
    grid = Grid(session.frame, 9)  # the blue player fills one cell
    frame = session.frame
    walls = set(grid.with_colour(frame, 2))
    start, goal = grid.with_colour(frame, 9)[0], grid.with_colour(frame, 14)[0]
    watched: list[set[Cell]] = [set(grid.with_colour(frame, 8))]
    for _ in range(48):  # standing well off every round, watch where the guards go turn by turn
        session.step(WAIT)
        watched.append(set(grid.with_colour(session.frame, 8)))
    cells = [c for c in grid.cells() if c not in walls]
    came: dict[tuple[Cell, int], tuple[tuple[Cell, int], str] | None] = {(start, 0): None}
    queue = deque([(start, 0)])
    end = None
    while queue and end is None:  # then plan a dash, breadth first over (cell, turn)
        cell, turn = queue.popleft()
        for key, (dx, dy) in {**STEPS, "ACTION5": (0, 0)}.items():
            nxt = (cell[0] + dx, cell[1] + dy)
            nxt = nxt if nxt in cells else cell
            safe = nxt not in watched[turn] and (nxt == goal or nxt not in watched[turn + 1])
            if safe and (nxt, turn + 1) not in came and turn + 1 < len(watched) - 1:
                came[(nxt, turn + 1)] = ((cell, turn), key)
                queue.append((nxt, turn + 1))
                if nxt == goal:
                    end = (nxt, turn + 1)
    assert end is not None
    session.reset()
    for key in keys_to(came, end):
        session.step(Move(key))
    assert session.won


# Codes beyond the first yard's: 30 where the hunter starts, 31 a hedge. No guards here.
OPEN = [[1] * 7, [1, 2, 0, 0, 0, 30, 1], [1, 0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 3, 1], [1] * 7]


def test_the_hunter_steps_towards_the_player_and_catches_it() -> None:
    session = Session(SPEC, Level.make("guard-patrol", OPEN))
    assert (_cell(session.frame, 5, 1) == 6).all()  # magenta
    for column in (4, 3, 2):  # along the row, the larger gap, a cell an action
        session.step(WAIT)
        assert (_cell(session.frame, column, 1) == 6).all() and not session.over
    session.step(WAIT)
    assert session.lost
    # Going down first, the player draws the hunter down the rows only once it has closed the row.
    plan = SPEC.solve(Level.make("guard-patrol", OPEN), SPEC.budget)
    assert plan is not None and replay_wins(plan, OPEN)


def test_a_hedge_stops_the_hunter_but_not_the_player() -> None:
    rows = [row[:] for row in OPEN]
    rows[1][4] = 31  # a hedge right beside the hunter, between it and the player
    session = Session(SPEC, Level.make("guard-patrol", rows))
    assert (_cell(session.frame, 4, 1) == 15).all()  # purple
    for _ in range(3):
        session.step(WAIT)  # the hedge blocks the row and the rows are level: it stays put
        assert (_cell(session.frame, 5, 1) == 6).all() and not session.over
    for move in (RIGHT, RIGHT):
        session.step(move)  # the player walks onto the hedge's cell
    assert (_cell(session.frame, 3, 1) == 9).all() and not session.over


def replay_wins(plan: tuple[Move, ...], rows: list[list[int]]) -> bool:
    session = Session(SPEC, Level.make("guard-patrol", rows))
    for move in plan:
        session.step(move)
    return session.won


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_each_difficulty_draws_its_element_and_needs_it(difficulty: int) -> None:
    for seed in range(4):
        level, plan = draw_level(SPEC, ("elements", seed), difficulty)
        codes = {v for row in level.grid for v in row}
        assert 30 in codes  # the hunter
        assert (31 in codes) == (difficulty >= 2)  # hedges
        assert (21 in codes) == (difficulty >= 3)  # a second guard
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
        if difficulty <= 2:  # as plain floor, the newest element would change the plan's length
            newest = 30 if difficulty == 1 else 31
            plain = [[0 if v == newest else v for v in row] for row in level.grid]
            other = SPEC.solve(Level.make("guard-patrol", plain, **dict(level.params)), SPEC.budget)
            assert other is None or len(other) != len(plan)
