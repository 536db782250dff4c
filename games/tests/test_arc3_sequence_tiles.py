"""sequence-tiles: a player who writes the show down, and a hand-made board worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.base import Level, Move
from continual_arc_games.draw import level_rng
from continual_arc_games.session import Session
from frame_blobs import find_blobs, middle_of
from test_arc3_players import _session


@pytest.mark.parametrize(("seed", "difficulty"), [(0, 0), (3, 1), (1, 2), (2, 3)])
def test_sequence_tiles_by_writing_down_the_show_and_clicking_it_back(seed: int, difficulty: int) -> None:
    session, shortest = _session("sequence-tiles", seed, difficulty)
    # The show is the reset's animation: note where the yellow (or orange) light is in every frame
    # that has one, leaving out the blue decoys; an orange show is written down backwards.
    show = [
        middle_of(find_blobs(frame, colour)[0])
        for frame in session.frames
        for colour in (11, 12)
        if (frame == colour).any()
    ]
    if any((frame == 12).any() for frame in session.frames):
        show.reverse()
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


# The same 2x2 board with a show of three steps: the top-left tile (bit 0), the top-right (bit 1,
# a decoy) and the bottom-left (bit 2), played orange: the player clicks bottom-left, then top-left.
BACKWARDS = Level.make("sequence-tiles", [[1, 2], [4, 0]], decoys=2, reverse=1)


def test_a_decoy_flashes_blue_and_an_orange_show_is_clicked_back_last_first() -> None:
    session = Session(GAMES["sequence-tiles"], BACKWARDS)
    assert [_lit(frame) for frame in session.frames] == [[(0, 0, 12)], [], [(1, 0, 9)], [], [(0, 1, 12)], []]
    first = session.frames[0]
    # Two marks, one per light to click back (the decoy has none), and nothing where a third would be.
    assert (_mark(first, 0) == 2).all() and (_mark(first, 1) == 2).all() and (_mark(first, 2) == 5).all()
    session.step(Move.click(20, 20))  # the first light, but the show is orange: the last comes first
    assert session.lost
    session.reset()
    session.step(Move.click(40, 20))  # the decoy's tile is never due
    assert session.lost
    session.reset()
    session.step(Move.click(20, 40))
    session.step(Move.click(20, 20))
    assert session.won


@pytest.mark.parametrize("difficulty", range(4))
def test_each_difficulty_holds_what_it_adds(difficulty: int) -> None:
    spec = GAMES["sequence-tiles"]
    for seed in range(20):
        level = spec.generate(level_rng(spec.id, difficulty, ("adds", seed), 0), difficulty)
        codes = [v for row in level.grid for v in row]
        steps = max(codes).bit_length()
        show = [next(t for t, v in enumerate(codes) if v >> k & 1) for k in range(steps)]
        decoys = level.param("decoys", 0)
        lights = [tile for k, tile in enumerate(show) if not decoys >> k & 1]
        assert bin(decoys).count("1") == (difficulty >= 1)  # one decoy flash from difficulty 1
        assert level.param("reverse", 0) == (difficulty == 3)  # an orange show at 3
        if difficulty < 2:
            assert len(set(lights)) == len(lights)  # no tile lights twice before difficulty 2
        plan = spec.solve(level, spec.budget)
        assert plan is not None and len(plan) == len(lights)
        session = Session(spec, level)
        for move in plan:
            session.step(move)
        assert session.won
    if difficulty == 2:  # some shows at 2 light a tile twice
        repeated = 0
        for seed in range(20):
            level = spec.generate(level_rng(spec.id, 2, ("adds", seed), 0), 2)
            codes = [v for row in level.grid for v in row]
            decoys = level.param("decoys", 0)
            repeated += any(bin(v & ~decoys).count("1") > 1 for v in codes)
        assert repeated > 0
