"""sequence-tiles: a player who writes the show down, and a hand-made board worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.session import Session
from frame_blobs import find_blobs, middle_of
from test_arc3_players import _session


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (1, 2), (2, 3)])
def test_sequence_tiles_by_writing_down_the_show_and_clicking_it_back(seed: int, difficulty: int) -> None:
    session, shortest = _session("sequence-tiles", seed, difficulty)
    # The show is the reset's animation: note where the yellow light is in every frame that has one.
    show = [middle_of(find_blobs(frame, 11)[0]) for frame in session.frames if (frame == 11).any()]
    assert len(show) == shortest
    for x, y in show:
        assert not session.over
        session.step(Move.click(x, y))
    assert session.won


# sequence-tiles: a 2x2 board whose show lights the top-left tile (bit 0) then the bottom-right
# (bit 1). By hand: the viewport is 5 * 2 + 1 = 11 by 5 * 2 + 3 = 13 pixels, scaled by
# min(64 // 11, 64 // 13) = 4 and centred at offsets (10, 6); tile (c, r) covers viewport pixels
# 1 + 5c .. 4 + 5c, so frame columns 14 + 20c .. 29 + 20c and rows 10 + 20r .. 25 + 20r; the marks
# sit on viewport row 11 (frame rows 50-53), mark k at viewport column 1 + 2k (frame 14 + 8k).
SHOW = Level.make("sequence-tiles", [[1, 0], [0, 2]])


def _tile(frame: np.ndarray, c: int, r: int) -> np.ndarray:
    return frame[10 + 20 * r : 26 + 20 * r, 14 + 20 * c : 30 + 20 * c]


def _mark(frame: np.ndarray, k: int) -> np.ndarray:
    return frame[50:54, 14 + 8 * k : 18 + 8 * k]


def _lit(frame: np.ndarray) -> list[tuple[int, int, int]]:
    """(c, r, colour) of every tile not dark grey."""
    return [
        (c, r, int(_tile(frame, c, r)[0, 0]))
        for r in (0, 1)
        for c in (0, 1)
        if (_tile(frame, c, r) != 3).any()
    ]


def test_the_show_is_the_reset_animation_and_a_wrong_click_loses() -> None:
    session = Session(GAMES["sequence-tiles"], SHOW)
    assert [_lit(frame) for frame in session.frames] == [[(0, 0, 11)], [], [(1, 1, 11)], []]
    first = session.frames[0]
    assert (_tile(first, 0, 0) == 11).all() and (first[:6] == 4).all() and (first[:, :10] == 4).all()
    assert (first[26:30, 14:50] == 5).all()  # the gap between the rows of tiles
    assert (_mark(first, 0) == 2).all() and (_mark(first, 1) == 2).all() and (first[50:54, 18:22] == 5).all()
    session.step(Move.click(40, 20))  # the top-right tile, which never lights
    assert session.lost and _lit(session.frame) == [(1, 0, 8)]
    session.reset()
    assert len(session.frames) == 4 and not session.over


def test_right_clicks_flash_their_tile_and_fill_the_marks() -> None:
    session = Session(GAMES["sequence-tiles"], SHOW)
    session.step(Move.click(5, 5))  # the letterbox: nothing happens
    assert _lit(session.frame) == [] and (_mark(session.frame, 0) == 2).all()
    session.step(Move.click(20, 20))
    assert [_lit(frame) for frame in session.frames] == [[(0, 0, 11)], []]
    assert (_mark(session.frame, 0) == 14).all() and (_mark(session.frame, 1) == 2).all()
    session.step(Move.click(44, 40))
    assert session.won and (_mark(session.frame, 1) == 14).all()
