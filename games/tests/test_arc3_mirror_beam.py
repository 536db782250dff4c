"""mirror-beam: a hand-made room whose frames are worked out by hand, a human-style player, and the
solver's plans checked against every smaller set of clicks in the engine."""

from __future__ import annotations

from collections import deque
from itertools import combinations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level, level_rng
from continual_arc_games.session import Session
from frame_reading import Cell, Grid

SPEC = GAMES["mirror-beam"]

# Codes: 1 wall, 2 source, 3 target, 4 a / mirror. The lamp at the left fires right into the /,
# which sends the beam up into the wall; turned into a \ it sends the beam down onto the target.
ROOM = Level.make("mirror-beam", [[1, 1, 1, 1, 1], [2, 0, 4, 0, 1], [1, 0, 0, 0, 1], [1, 1, 3, 1, 1]])

# By hand: 64 // 5 = 12 pixels a cell, made odd: 11. The viewport is 55x44 pixels, shown at scale 1
# and centred at offsets (4, 10); cell (cx, cy) covers columns 4 + 11 cx .. 14 + 11 cx and rows
# 10 + 11 cy .. 20 + 11 cy. The beam is the band of pixels 4-6 across a cell (11 // 6 = 1 each side
# of the middle pixel 5); a mirror is the diagonal band of pixels within 1 of the diagonal.


def _cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[10 + 11 * cy : 21 + 11 * cy, 4 + 11 * cx : 15 + 11 * cx]


def test_first_frame_shows_the_beam_bouncing_up_off_the_mirror() -> None:
    frame = Session(SPEC, ROOM).frame
    assert (frame[:10] == 4).all() and (frame[:, :4] == 4).all()  # the letterbox
    assert (_cell(frame, 0, 0) == 2).all() and (_cell(frame, 0, 1) == 12).all()  # wall, lamp
    assert (_cell(frame, 2, 3) == 14).all()  # the target
    lit = _cell(frame, 1, 1)
    assert (lit[4:7] == 11).all() and (lit[:4] == 5).all() and (lit[7:] == 5).all()  # a full band
    mirror = _cell(frame, 2, 1)
    assert all(mirror[y, 10 - y] == 0 for y in range(11))  # the / from bottom-left to top-right
    assert mirror[5, 0] == 11 and mirror[0, 5] == 11  # the beam comes in from the left, leaves up
    assert mirror[5, 9] == 5 and mirror[9, 5] == 5  # and goes neither on nor down
    assert (_cell(frame, 2, 2) == 5).all() and (_cell(frame, 3, 1) == 5).all()


def test_clicking_the_mirror_turns_it_and_the_beam_reaches_the_target() -> None:
    session = Session(SPEC, ROOM)
    first = session.frame.copy()
    assert session.actions == ("ACTION6",)
    for x, y in [(20, 37), (4 + 11 * 2 + 5, 10 + 5), (2, 2)]:  # floor, wall, letterbox: nothing
        session.step(Move.click(x, y))
        assert np.array_equal(session.frame, first) and not session.over
    session.step(Move.click(4 + 11 * 2 + 5, 10 + 11 + 5))
    assert session.won and session.moves == 4
    mirror = _cell(session.frame, 2, 1)
    assert all(mirror[y, y] == 0 for y in range(11))  # now a \
    assert mirror[5, 0] == 11 and mirror[10, 5] == 11 and mirror[0, 5] == 5
    assert (_cell(session.frame, 2, 2)[:, 4:7] == 11).all()  # down the middle to the target


def test_solver_plans_are_the_fewest_clicks_the_engine_allows() -> None:
    for difficulty in (0, 1):
        for seed in range(4):
            level = SPEC.generate(level_rng(SPEC.id, difficulty, ("fewest", seed), 0), difficulty)
            plan = SPEC.solve(level, SPEC.budget)
            assert plan
            clicks = sorted({(m.x, m.y) for m in plan})
            assert len(clicks) == len(plan)  # no mirror is clicked twice
            session = Session(SPEC, level)
            mirrors = [(m.x, m.y) for m in _every_mirror_click(session)]
            for k in range(len(plan)):
                for chosen in combinations(mirrors, k):
                    session.reset()
                    for x, y in chosen:
                        session.step(Move.click(x, y))
                    assert not session.won


def _every_mirror_click(session: Session) -> list[Move]:
    grid = Grid(session.frame, 12)
    return [Move.click(*grid.middle(c)) for c in grid.with_colour(session.frame, 0)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mirror_beam_by_turning_the_mirrors_the_beam_touches(seed: int) -> None:
    level, plan = draw_level(SPEC, ("players", seed), 1)
    session = Session(SPEC, level)
    grid = Grid(session.frame, 12)  # the orange lamp fills one cell

    def touched() -> list[Cell]:
        """Mirrors (white) that the beam (yellow) runs into."""
        frame = session.frame
        return [c for c in grid.with_colour(frame, 0) if bool((grid.block(frame, c) == 11).any())]

    seen = {session.frame.tobytes()}
    queue: deque[tuple[Cell, ...]] = deque([()])
    while queue:  # a person tries one more turn of a lit mirror at a time, remembering the beams seen
        tried = queue.popleft()
        session.reset()
        for cell in tried:
            session.step(Move.click(*grid.middle(cell)))
        for cell in touched():
            session.reset()
            for step in (*tried, cell):
                session.step(Move.click(*grid.middle(step)))
            if session.won:
                assert len(tried) + 1 == len(plan)  # the fewest turns, as the solver found
                return
            if session.frame.tobytes() not in seen:
                seen.add(session.frame.tobytes())
                queue.append((*tried, cell))
    pytest.fail("no set of turns brought the beam to the target")


# The same room with a decoy \ at (3, 2) and one turn allowed: a strip row is added below the room,
# so the board is 5x5 cells of 11 pixels (64 // 5 = 12, made odd), shown at offsets (4, 4); cell
# (cx, cy) starts at pixel (4 + 11 cx, 4 + 11 cy). The turn's mark is the beam-wide square (pixels
# 4-6 of a cell) in strip cell (1, 4).
COUNTED = Level.make(
    "mirror-beam", [[1, 1, 1, 1, 1], [2, 0, 4, 0, 1], [1, 0, 0, 5, 1], [1, 1, 3, 1, 1]], clicks=1
)


def _pixel(cx: int, cy: int, dx: int = 5, dy: int = 5) -> tuple[int, int]:
    return 4 + 11 * cx + dx, 4 + 11 * cy + dy


def test_a_click_beside_a_mirror_s_glass_turns_nothing_and_spends_nothing() -> None:
    session = Session(SPEC, COUNTED)
    first = session.frame.copy()
    mark_x, mark_y = _pixel(1, 4)
    assert first[mark_y, mark_x] == 0  # the one turn left, shown white
    session.step(Move.click(*_pixel(2, 1, 0, 0)))  # the mirror's cell, its top-left corner: no glass
    assert np.array_equal(session.frame, first) and not session.over
    session.step(Move.click(*_pixel(2, 1)))  # the glass: the / turns, and the beam reaches the target
    assert session.won


def test_the_last_turn_spent_off_the_target_loses_the_level() -> None:
    session = Session(SPEC, COUNTED)
    session.step(Move.click(*_pixel(3, 2)))  # the decoy turns; the beam still goes up into the wall
    assert session.lost
    assert SPEC.solve(COUNTED, SPEC.budget) == (Move.click(*_pixel(2, 1)),)


def test_a_drawn_level_allows_the_fewest_turns_it_needs_or_one_more() -> None:
    for difficulty, spare in ((1, 0), (2, 1), (3, 1)):
        for seed in range(3):
            level, plan = draw_level(SPEC, ("turns", seed), difficulty)
            assert dict(level.params)["clicks"] == len(plan) + spare


# Bolted and linked glass. BOLTED is ROOM with its / bolted (code 6): the beam can never turn down.
# LINKED: the lamp fires right into a linked / (code 8) at (2, 1), which sends the beam up; below it
# a linked \ (code 9) at (2, 3). One click turns both: the beam then goes down at (2, 1) and left at
# (2, 3), onto the target in the left wall at (0, 3). By hand: a 5x5 room, 64 // 5 = 12 pixels a
# cell made odd, 11; the viewport is 55x55 pixels at offsets (4, 4), cell (cx, cy) starting at
# pixel (4 + 11 cx, 4 + 11 cy); the middle pixel (5, 5) of a cell is glass for either diagonal.
BOLTED = Level.make("mirror-beam", [[1, 1, 1, 1, 1], [2, 0, 6, 0, 1], [1, 0, 0, 0, 1], [1, 1, 3, 1, 1]])
LINKED_ROWS = [[1, 1, 1, 1, 1], [2, 0, 8, 0, 1], [1, 0, 0, 0, 1], [3, 0, 9, 0, 1], [1, 1, 1, 1, 1]]
LINKED = Level.make("mirror-beam", LINKED_ROWS)
FREE = Level.make("mirror-beam", [[code - 4 if code >= 8 else code for code in row] for row in LINKED_ROWS])


def _linked_cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[4 + 11 * cy : 15 + 11 * cy, 4 + 11 * cx : 15 + 11 * cx]


def test_a_bolted_mirror_is_grey_and_never_turns() -> None:
    session = Session(SPEC, BOLTED)
    first = session.frame.copy()
    mirror = _cell(first, 2, 1)
    assert all(mirror[y, 10 - y] == 1 for y in range(11))  # a / of grey glass
    session.step(Move.click(4 + 11 * 2 + 5, 10 + 11 + 5))  # its glass: nothing turns
    assert np.array_equal(session.frame, first) and not session.over
    assert SPEC.solve(BOLTED, SPEC.budget) is None


def test_one_click_on_a_linked_mirror_turns_both() -> None:
    session = Session(SPEC, LINKED)
    top, bottom = _linked_cell(session.frame, 2, 1), _linked_cell(session.frame, 2, 3)
    assert all(top[y, 10 - y] == 6 for y in range(11)) and all(bottom[y, y] == 6 for y in range(11))
    session.step(Move.click(4 + 11 * 2 + 5, 4 + 11 * 3 + 5))  # the lower one
    assert session.won and session.moves == 1
    top, bottom = _linked_cell(session.frame, 2, 1), _linked_cell(session.frame, 2, 3)
    assert all(top[y, y] == 6 for y in range(11)) and all(bottom[y, 10 - y] == 6 for y in range(11))
    free_plan = SPEC.solve(FREE, SPEC.budget)
    assert free_plan is not None and len(free_plan) == 2  # free, each mirror needs its own click
    assert SPEC.solve(LINKED, SPEC.budget) == (Move.click(4 + 11 * 2 + 5, 4 + 11 + 5),)


@pytest.mark.parametrize("seed", range(4))
def test_difficulties_two_and_three_hold_bolted_and_linked_glass_that_matters(seed: int) -> None:
    for difficulty in (1, 2, 3):
        level, plan = draw_level(SPEC, ("glass", seed), difficulty)
        codes = [code for row in level.grid for code in row]
        bolted = sum(code in (6, 7) for code in codes)
        linked = sum(code in (8, 9) for code in codes)
        assert bolted == (2 if difficulty >= 2 else 0)
        assert linked == (2 if difficulty == 3 else 0)
        session = Session(SPEC, level)
        for move in plan:
            session.step(move)
        assert session.won
        if difficulty == 3:  # were the pair free, the fewest clicks would be another number
            rows = [[c - 4 if c >= 8 else c for c in row] for row in level.grid]
            free_plan = SPEC.solve(Level.make(SPEC.id, rows), SPEC.budget)  # turns unlimited
            assert free_plan is None or len(free_plan) != len(plan)
