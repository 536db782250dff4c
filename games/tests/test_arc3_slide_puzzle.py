"""slide-puzzle: a player who reads both pictures and plans the slides, and a hand-made board."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import draw_level
from continual_arc_games.session import Session
from frame_blobs import find_blobs
from test_arc3_players import STEPS, Cell, _session

UP, DOWN, RIGHT = Move("ACTION1"), Move("ACTION2"), Move("ACTION4")


def _framed_tiles(frame: np.ndarray, ring: list[Cell]) -> dict[Cell, int]:
    """The colour of every (column, row) cell inside a grey frame; an empty cell is missing."""
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    inside = [
        blob
        for colour in range(6, 16)
        for blob in find_blobs(frame, colour)
        if min(xs) < blob[0][0] < max(xs) and min(ys) < blob[0][1] < max(ys)
    ]
    columns = sorted({min(x for x, _ in blob) for blob in inside})
    rows = sorted({min(y for _, y in blob) for blob in inside})
    return {
        (columns.index(min(x for x, _ in blob)), rows.index(min(y for _, y in blob))): int(
            frame[blob[0][1], blob[0][0]]
        )
        for blob in inside
    }


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 1), (2, 1)])  # no pinned tile: 0 and 1
def test_slide_puzzle_by_reading_both_pictures_and_planning_the_slides(seed: int, difficulty: int) -> None:
    session, shortest = _session("slide-puzzle", seed, difficulty)
    board_ring, picture_ring = sorted(find_blobs(session.frame, 2), key=len, reverse=True)
    board, picture = _framed_tiles(session.frame, board_ring), _framed_tiles(session.frame, picture_ring)
    seen = set(picture) | set(board)  # every column and row shows a tile in one or the other
    spots = {(c, r) for c in range(1 + max(c for c, _ in seen)) for r in range(1 + max(r for _, r in seen))}
    # A person who knows an arrow pushes the tile on the far side of the gap into it plans ahead.
    start, goal = tuple(sorted(board.items())), tuple(sorted(picture.items()))
    came: dict[tuple[tuple[Cell, int], ...], tuple[tuple[tuple[Cell, int], ...], str] | None] = {start: None}
    queue = deque([start])
    while queue and goal not in came:
        state = queue.popleft()
        tiles = dict(state)
        gap = next(spot for spot in sorted(spots) if spot not in tiles)
        for action, (dx, dy) in STEPS.items():
            source = (gap[0] - dx, gap[1] - dy)
            if source in tiles:
                moved = {**tiles, gap: tiles[source]}
                del moved[source]
                nxt = tuple(sorted(moved.items()))
                if nxt not in came:
                    came[nxt] = (state, action)
                    queue.append(nxt)
    keys: list[str] = []
    link = came[goal]
    while link is not None:
        keys.append(link[1])
        link = came[link[0]]
    assert len(keys) == shortest
    for key in reversed(keys):
        session.step(Move(key))
    assert session.won


# slide-puzzle: a 2x2 board (the generator never makes one, but the rules hold) of red (8), blue
# (9) and green (14) tiles, the hole bottom right; the picture wants the hole bottom left. A code is
# the colour now plus 16 times the colour the picture shows.
SLIDE = Level.make("slide-puzzle", [[8 + 16 * 8, 9 + 16 * 9], [14, 16 * 14]])
# By hand: the board's rim is 11x11 pixels and the picture's 7x7, two pixels to its right, so the
# viewport is 20 x 11, scaled by min(64 // 20, 64 // 11) = 3 at offsets (2, 15). Board tile (c, r)
# is viewport (1 + 5c, 1 + 5r), 4x4: frame columns 5 + 15c .. 16 + 15c, rows 18 + 15r .. 29 + 15r.
# Picture tile (c, r) is viewport (14 + 3c, 1 + 3r), 2x2: frame columns 44 + 9c .. 49 + 9c, rows
# 18 + 9r .. 23 + 9r.


def _slide_tile(frame: np.ndarray, c: int, r: int) -> np.ndarray:
    return frame[18 + 15 * r : 30 + 15 * r, 5 + 15 * c : 17 + 15 * c]


def test_slide_puzzle_frame_by_hand_and_arrows_move_tiles_their_way() -> None:
    session = Session(GAMES["slide-puzzle"], SLIDE)
    frame = session.frame.copy()
    assert [int(_slide_tile(frame, c, r)[0, 0]) for r in (0, 1) for c in (0, 1)] == [8, 9, 14, 5]
    assert all(
        (_slide_tile(frame, c, r) == _slide_tile(frame, c, r)[0, 0]).all() for r in (0, 1) for c in (0, 1)
    )
    picture = [int(frame[18 + 9 * r, 44 + 9 * c]) for r in (0, 1) for c in (0, 1)]
    assert picture == [8, 9, 5, 14] and (frame[18:24, 44:50] == 8).all()
    assert (frame[15:18, 2:35] == 2).all() and (frame[15:48, 2:5] == 2).all()  # the board's rim
    assert (frame[15:36, 41:44] == 2).all() and (frame[:15] == 4).all()  # the picture's rim, the letterbox
    for key in (UP, Move("ACTION3")):  # no tile below or right of the hole: nothing moves
        session.step(key)
        assert np.array_equal(session.frame, frame)
    session.step(DOWN)  # the blue tile above the hole comes down
    assert [int(_slide_tile(session.frame, c, r)[0, 0]) for r in (0, 1) for c in (0, 1)] == [8, 5, 14, 9]
    session.step(UP)
    assert np.array_equal(session.frame, frame) and not session.over
    session.step(RIGHT)  # the green tile left of the hole slides right: the picture
    assert session.won
    assert [int(_slide_tile(session.frame, c, r)[0, 0]) for r in (0, 1) for c in (0, 1)] == [8, 9, 5, 14]


# Twins: a 2x2 board whose picture has red (8) twice, top left and top right, blue (9) bottom left;
# the hole is top right and the second red bottom right, so one slide up wins.
TWINS = Level.make("slide-puzzle", [[8 + 16 * 8, 16 * 8], [9 + 16 * 9, 8]])
# Pinned: a 2x3 board, the hole bottom right; the picture wants the top-right tile (8) down in it.
# The middle tile of the bottom row (11) is pinned (param 1 + its index 4). By hand: the board's
# rim is 16x11 pixels and the picture (wider than high) sits below it, 7 pixels high after a gap of
# 2: a 16x20 viewport, scaled by 3 and centred at offsets (8, 2); board tile (c, r) starts at
# viewport (1 + 5c, 1 + 5r), so at frame (11 + 15c, 5 + 15r), 12 frame pixels a side; the pinned
# tile's dot is its middle 2x2 viewport pixels, frame rows 23-28 and columns 29-34.
PINNED = Level.make(
    "slide-puzzle", [[6 + 16 * 6, 7 + 16 * 7, 8], [10 + 16 * 10, 11 + 16 * 11, 16 * 8]], pinned=5
)


def test_twins_may_go_to_either_place_of_their_colour() -> None:
    spec = GAMES["slide-puzzle"]
    assert spec.solve(TWINS, spec.budget) == (UP,)
    session = Session(spec, TWINS)
    session.step(UP)
    assert session.won


def test_a_pinned_tile_wears_a_black_dot_and_never_moves() -> None:
    spec = GAMES["slide-puzzle"]
    session = Session(spec, PINNED)
    first = session.frame.copy()
    assert (first[23:29, 29:35] == 5).all() and first[20, 26] == 11  # the dot, on yellow-green 11
    session.step(RIGHT)  # would slide the pinned tile right into the hole: nothing moves
    assert np.array_equal(session.frame, first) and not session.over
    session.step(DOWN)
    assert session.won
    assert spec.solve(PINNED, spec.budget) == (DOWN,)


@pytest.mark.parametrize("seed", range(4))
def test_twins_from_difficulty_one_and_a_pinned_tile_from_two(seed: int) -> None:
    spec = GAMES["slide-puzzle"]
    for difficulty in (0, 1, 2, 3):
        level, plan = draw_level(spec, ("adds", seed), difficulty)
        codes = [v for row in level.grid for v in row]
        picture = [v >> 4 for v in codes if v >> 4]
        assert len(set(picture)) == len(picture) - (difficulty >= 1)  # one colour twice from 1
        pinned = level.param("pinned", 0) - 1
        assert (pinned >= 0) == (difficulty >= 2)
        session = Session(spec, level)
        for move in plan:
            session.step(move)
        assert session.won
        if pinned >= 0:  # bolted where the picture wants it
            assert codes[pinned] & 15 == codes[pinned] >> 4 != 0
