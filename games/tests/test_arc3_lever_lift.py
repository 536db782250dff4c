"""lever-lift: a player who reads the scene and plans walks and pulls, hand-made side views, the elements."""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session, replay
from test_arc3_players import Cell, _board, _session

RIGHT = Move("ACTION4")


def _lift_world(frame: np.ndarray) -> dict[str, Any]:
    """What a person sees in a lever-lift frame: rock, shafts and platforms, levers, door, player."""
    _, size, (ox, oy) = _board(frame, 9)  # measured on the blue player
    blocks = {
        (cx, cy): frame[oy + cy * size : oy + (cy + 1) * size, ox + cx * size : ox + (cx + 1) * size]
        for cy in range((64 - oy) // size)
        for cx in range((64 - ox) // size)
    }
    seen = {c: {int(v) for v in np.unique(b)} for c, b in blocks.items()}
    platforms = {hue: c for c, colours in seen.items() for hue in (12, 15) if colours == {hue}}
    levers = {}  # cell: (hue, rows moved): a triangle is wider at its base, so "up" is wider below
    for c, colours in seen.items():
        for hue in (12, 15):
            if hue in colours and len(colours) > 1:
                upper = int((blocks[c][: size // 2] == hue).sum())
                lower = int((blocks[c][size // 2 :] == hue).sum())
                levers[c] = (hue, -1 if lower > upper else 1)
    shafts = {}
    for hue, (px, _) in platforms.items():
        rows = [cy for (cx, cy), colours in seen.items() if cx == px and colours in ({4}, {hue})]
        shafts[hue] = (px, min(rows), max(rows))
    return {
        "rock": {c for c, colours in seen.items() if colours == {3}},
        "platforms": {hue: c[1] for hue, c in platforms.items()},
        "shafts": shafts,
        "levers": levers,
        "door": next(c for c, colours in seen.items() if 14 in colours),
        "player": next(c for c, colours in seen.items() if colours == {9}),
    }


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 1), (2, 1)])
def test_lever_lift_by_reading_the_scene_and_planning_walks_and_pulls(seed: int, difficulty: int) -> None:
    session, shortest = _session("lever-lift", seed, difficulty)
    world = _lift_world(session.frame)
    hues = sorted(world["shafts"])

    def solid(cell: Cell, rows: tuple[int, ...]) -> bool:
        lifts = {(world["shafts"][hue][0], row) for hue, row in zip(hues, rows, strict=True)}
        return cell in world["rock"] or cell in lifts

    def after(state: tuple[Cell, tuple[int, ...]], action: str) -> tuple[Cell, tuple[int, ...]]:
        (x, y), rows = state
        if action == "ACTION5":  # a lever moves its platform one row, within its shaft
            if (x, y) not in world["levers"]:
                return state
            hue, way = world["levers"][(x, y)]
            i = hues.index(hue)
            _, top, bottom = world["shafts"][hue]
            moved = list(rows)
            moved[i] = min(bottom, max(top, rows[i] + way))
            return (x, y), tuple(moved)
        dx = -1 if action == "ACTION3" else 1
        if solid((x + dx, y), rows):  # a wall: climb it if it is one cell and there is headroom
            if solid((x, y - 1), rows) or solid((x + dx, y - 1), rows):
                return state
            return (x + dx, y - 1), rows
        x += dx
        while not solid((x, y + 1), rows):  # nothing below: fall
            y += 1
        return (x, y), rows

    start = (world["player"], tuple(world["platforms"][hue] for hue in hues))
    came: dict[tuple[Cell, tuple[int, ...]], tuple[tuple[Cell, tuple[int, ...]], str] | None] = {start: None}
    queue = deque([start])
    state = start
    while queue:
        state = queue.popleft()
        if state[0] == world["door"]:
            break
        for action in session.actions:
            nxt = after(state, action)
            if nxt not in came:
                came[nxt] = (state, action)
                queue.append(nxt)
    keys: list[str] = []
    link = came[state]
    while link is not None:
        keys.append(link[1])
        link = came[link[0]]
    assert state[0] == world["door"] and len(keys) == shortest
    for key in reversed(keys):
        session.step(Move(key))
    assert session.won


# lever-lift: 1 rock, 2 start, 3 door, 4 a lever raising lift A, 8 lift A's platform, 9 its shaft.
# The player starts on a pillar; the ground beyond the shaft is two cells above the ground before it.
LIFT = Level.make(
    "lever-lift",
    [
        [1, 1, 1, 1, 1, 1],
        [1, 0, 0, 9, 0, 1],
        [1, 2, 0, 9, 3, 1],
        [1, 1, 0, 9, 1, 1],
        [1, 1, 4, 9, 1, 1],
        [1, 1, 1, 8, 1, 1],
        [1, 1, 1, 1, 1, 1],
    ],
)
# By hand: cells are 4 pixels, so the viewport is 24 x 28, scaled by min(64 // 24, 64 // 28) = 2 at
# offsets (8, 4): cell (cx, cy) covers frame columns 8 + 8cx .. 15 + 8cx, rows 4 + 8cy .. 11 + 8cy.


def _lift_cell(frame: np.ndarray, cx: int, cy: int) -> np.ndarray:
    return frame[4 + 8 * cy : 12 + 8 * cy, 8 + 8 * cx : 16 + 8 * cx]


def _player_cell(frame: np.ndarray) -> tuple[int, int]:
    ys, xs = np.nonzero(frame == 9)
    return (int(xs.min()) - 8) // 8, (int(ys.min()) - 4) // 8


def test_lever_lift_frame_by_hand() -> None:
    frame = Session(GAMES["lever-lift"], LIFT).frame
    assert (_lift_cell(frame, 0, 0) == 3).all() and (_lift_cell(frame, 1, 2) == 9).all()
    assert (_lift_cell(frame, 2, 2) == 5).all() and (_lift_cell(frame, 3, 5) == 12).all()
    assert all((_lift_cell(frame, 3, cy) == 4).all() for cy in (1, 2, 3, 4))  # the shaft
    door = _lift_cell(frame, 4, 2)
    assert (door[:2] == 14).all() and (door[2:, :2] == 14).all() and (door[2:, 2:6] == 5).all()
    lever = _lift_cell(frame, 2, 4)  # a triangle pointing up: two pixels wide, then four
    assert (lever[:2] == 5).all() and (lever[2:4, 2:6] == 12).all() and (lever[2:4, :2] == 5).all()
    assert (lever[4:6] == 12).all() and (lever[6:] == 5).all()
    assert (frame[:4] == 4).all() and (frame[:, :8] == 4).all()


def test_lever_lift_falls_animate_a_lever_moves_the_lift_and_steps_are_climbed() -> None:
    session = Session(GAMES["lever-lift"], LIFT)
    session.step(RIGHT)  # off the pillar: a frame for the step, then one per cell fallen
    assert [_player_cell(frame) for frame in session.frames] == [(2, 2), (2, 3), (2, 4)]
    before = session.frame.copy()
    session.step(Move("ACTION3"))  # back left is a two-cell wall: nothing happens
    assert np.array_equal(session.frame, before)
    session.step(RIGHT)  # the platform is down in the shaft: the player steps over and stands on it
    assert _player_cell(session.frame) == (3, 4) and len(session.frames) == 1
    session.step(Move("ACTION5"))  # not on a lever: nothing happens
    session.step(Move("ACTION3"))
    session.step(Move("ACTION5"))  # on the lever: the platform rises a cell
    assert (_lift_cell(session.frame, 3, 4) == 12).all() and (_lift_cell(session.frame, 3, 5) == 4).all()
    session.step(RIGHT)  # a one-cell step up onto the platform ...
    assert _player_cell(session.frame) == (3, 3) and not session.over
    session.step(RIGHT)  # ... and another up to the door
    assert session.won and _player_cell(session.frame) == (4, 2)


def test_lever_lift_climbs_a_step_only_with_headroom() -> None:
    low = Level.make("lever-lift", [[1] * 5, [1, 1, 0, 0, 1], [1, 2, 1, 3, 1], [1] * 5])
    high = Level.make("lever-lift", [[1] * 5, [1, 0, 0, 0, 1], [1, 2, 1, 3, 1], [1] * 5])
    assert not replay(GAMES["lever-lift"], low, [RIGHT, RIGHT])  # rock over the player's head
    assert replay(GAMES["lever-lift"], high, [RIGHT, RIGHT])
    assert GAMES["lever-lift"].solve(low, 100) is None


# Codes beyond the first side view's: 6 a lever raising lift B, 10 and 11 lift B's platform and
# shaft, 12 a linked lever (A up, B down), 14 the key.
# Two shafts side by side, A's platform in the floor's row and B's in the player's; the door lies
# beyond them, level with the start. The linked lever at (2, 2) raises A and lowers B.
LINKED_VIEW = Level.make(
    "lever-lift",
    [
        [1, 1, 1, 1, 1, 1, 1],
        [1, 0, 0, 0, 11, 0, 1],
        [1, 2, 12, 9, 10, 3, 1],
        [1, 1, 1, 8, 11, 1, 1],
        [1, 1, 1, 1, 1, 1, 1],
    ],
)


def test_a_linked_lever_moves_both_lifts_at_once() -> None:
    spec = GAMES["lever-lift"]
    session = Session(spec, LINKED_VIEW)
    # By hand: 7x5 cells of 4 pixels, 28 x 20, scale 2, offsets (4, 12); cell (cx, cy) is frame
    # columns 4 + 8cx .. 11 + 8cx and rows 12 + 8cy .. 19 + 8cy.
    lever = session.frame[28:36, 20:28]  # cell (2, 2): orange above (A up), purple below (B down)
    assert set(np.unique(lever[:4])) >= {12} and set(np.unique(lever[4:])) >= {15}
    assert 15 not in lever[:4] and 12 not in lever[4:]
    assert (session.frame[36:44, 28:36] == 12).all() and (session.frame[28:36, 36:44] == 15).all()
    session.step(RIGHT)
    session.step(Move("ACTION5"))  # A up a row to (3, 2), B down a row to (4, 3), in one pull
    assert (session.frame[28:36, 28:36] == 12).all() and (session.frame[36:44, 36:44] == 15).all()
    assert (session.frame[36:44, 28:36] == 4).all() and (session.frame[28:36, 36:44] == 4).all()
    session.step(Move("ACTION5"))  # A at the top of its shaft stays; B at the bottom of its too
    assert (session.frame[28:36, 28:36] == 12).all() and (session.frame[36:44, 36:44] == 15).all()


def test_the_door_stays_shut_until_the_key_is_taken() -> None:
    spec = GAMES["lever-lift"]
    # Start, door, key on flat ground: past the door to the key, then back.
    locked = Level.make("lever-lift", [[1] * 6, [1, 0, 0, 0, 0, 1], [1, 2, 3, 14, 0, 1], [1] * 6])
    session = Session(spec, locked)
    session.step(RIGHT)  # into the door without the key: no win
    assert not session.over
    session.step(RIGHT)  # the key: the lock goes
    session.step(Move("ACTION3"))
    assert session.won
    assert spec.solve(locked, 100) == (RIGHT, RIGHT, Move("ACTION3"))


@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_each_difficulty_draws_its_element_and_its_plans_use_it(difficulty: int) -> None:
    spec = GAMES["lever-lift"]
    for seed in range(5):
        level, plan = draw_level(spec, ("elements", seed), difficulty)
        codes = {v for row in level.grid for v in row}
        assert {10, 11} & codes  # lift B, from difficulty 1
        assert bool({12, 13} & codes) == (difficulty >= 2)
        assert (14 in codes) == (difficulty >= 3)
        session = Session(spec, level)
        pulled = set()
        for move in plan:
            if move.action == "ACTION5":
                x, y = _where(session.frame, level)
                pulled.add(level.grid[y][x])
            session.step(move)
        assert session.won
        assert bool(pulled & {12, 13}) == (difficulty >= 2)  # the plan pulls a linked lever
        if difficulty == 3:  # without the key the level is shorter
            unlocked = Level.make("lever-lift", [[0 if v == 14 else v for v in row] for row in level.grid])
            easier = spec.solve(unlocked, spec.budget)
            assert easier is not None and len(easier) < len(plan)


def _where(frame: np.ndarray, level: Level) -> Cell:
    """The player's cell of a fuelled level, by the camera's arithmetic (cells of 4 pixels)."""
    width, height = 4 * level.width, 4 * (level.height + 1)  # the fuel bar's row below
    scale = min(64 // width, 64 // height)
    ys, xs = np.nonzero(frame == 9)
    left, top = (64 - width * scale) // 2, (64 - height * scale) // 2
    return (int(xs.min()) - left) // (4 * scale), (int(ys.min()) - top) // (4 * scale)
