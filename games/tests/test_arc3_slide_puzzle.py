"""slide-puzzle: a player who reads both pictures and plans the slides, and a hand-made board."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
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


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 1), (2, 2)])
def test_slide_puzzle_by_reading_both_pictures_and_planning_the_slides(seed: int, difficulty: int) -> None:
    session, shortest = _session("slide-puzzle", seed, difficulty)
    board_ring, picture_ring = sorted(find_blobs(session.frame, 2), key=len, reverse=True)
    board, picture = _framed_tiles(session.frame, board_ring), _framed_tiles(session.frame, picture_ring)
    spots = set(picture) | set(board)  # together they cover every cell
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
