"""The game vocabulary of the core: actions, frames as text, and their JSON (no engine needed)."""

from __future__ import annotations

import json
import random

import pytest

from continual_arc.core.actions import GiveUp, GiveUpFeedback, RequestDemos
from continual_arc.core.games import (
    GameAction,
    GameDemo,
    GameDemosFeedback,
    GameFeedback,
    GameObservation,
    decode_frame,
    encode_frame,
    frame_patches,
    game_action_from_json,
    game_action_to_json,
    game_feedback_to_json,
    game_observation_to_json,
    is_game_action,
)


def test_actions_take_a_cell_only_when_they_click() -> None:
    assert str(GameAction.click(3, 63)) == "ACTION6(3,63)"
    for bad in (("ACTION8", None, None), ("ACTION6", None, None), ("ACTION6", 64, 0), ("ACTION1", 1, 1)):
        with pytest.raises(ValueError):
            GameAction(*bad)
    with pytest.raises(ValueError):
        GameAction("ACTION6", True, 0)  # type: ignore[arg-type]


def test_action_json_round_trips_and_anything_else_is_invalid() -> None:
    actions = (GameAction("RESET"), GameAction("ACTION5"), GameAction.click(0, 7), RequestDemos(), GiveUp())
    for action in actions:
        assert is_game_action(action)
        assert game_action_from_json(game_action_to_json(action)) == action
    assert game_action_to_json("left") == {"action": "invalid", "repr": "'left'"}
    with pytest.raises(ValueError):
        game_action_from_json({"action": "invalid"})


def test_frames_encode_to_text_and_back() -> None:
    rng = random.Random(0)
    frame = tuple(tuple(rng.choice((0, 0, 0, 5, 15)) for _ in range(64)) for _ in range(64))
    text = encode_frame(frame)
    assert text.startswith("f1:") and decode_frame(text) == frame
    assert encode_frame([[5] * 64] * 64) == "f1:f4096"
    for bad in ("f1:f4095", "f1:f4097", "x:f4096", "f1:q4096", "f1:f04096"):
        with pytest.raises(ValueError):
            decode_frame(bad)
    with pytest.raises(ValueError):
        encode_frame([[16] * 64] * 64)


def test_feedback_and_observation_json() -> None:
    flat = encode_frame([[0] * 64] * 64)
    demo = GameDemo((GameAction("ACTION1"),), ((flat,), (flat,)))
    assert demo.states == (flat, flat)
    with pytest.raises(ValueError):
        GameDemo((GameAction("ACTION1"),), ((flat,),))
    ids = {flat: 0}
    played = game_feedback_to_json(GameFeedback((flat,), "playing", None, 1, 0, 0, False), ids.__getitem__)
    assert played["frames"] == [0] and played["ended"] is None and played["feedback"] == "game"
    bought = game_feedback_to_json(GameDemosFeedback(demo, 1, 1))
    assert bought["demo"] == {"actions": [{"action": "ACTION1"}], "frames": [[flat], [flat]]}
    assert game_feedback_to_json(GiveUpFeedback()) == {"feedback": "give_up", "done": True}
    obs = GameObservation("t", flat, (flat,), ("ACTION1",), 0, 16, 0, 8, 0, 8, (), 3, 3, 0)
    assert obs.grid[0][0] == 0
    assert game_observation_to_json(obs)["step"] == 3


def test_game_values_cross_the_wire_unchanged() -> None:
    from continual_arc.core.wire import from_wire, to_wire

    flat = encode_frame([[0] * 64] * 64)
    demo = GameDemo((GameAction.click(1, 2),), ((flat,), (flat, flat)))
    obs = GameObservation("t", flat, (flat,), ("ACTION6",), 1, 16, 2, 8, 1, 8, (demo,), 3, 3, 0)
    values = [
        obs,
        GameAction("ACTION2"),
        GameAction.click(5, 6),
        GameFeedback((flat, flat), "lost", "lost", 0, 3, 4, False),
        GameDemosFeedback(demo, 1, 1),
        GameDemosFeedback(None, 8, 8, refused=True),
    ]
    for value in values:
        assert from_wire(json.loads(json.dumps(to_wire(value)))) == value


def _frame(cells: dict[tuple[int, int], int], background: int = 5) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(cells.get((x, y), background) for x in range(64)) for y in range(64))


def test_patches_join_cells_by_a_side_or_a_corner_and_centre_on_a_cell_of_their_own() -> None:
    # A / of seven pixels (meeting only at corners) is one patch centred on its middle pixel; a
    # 3x3 square centres on its middle; a ring of 8 cells around an empty middle centres on a
    # cell of the ring nearest the mean (the first such in row-major order), not the hole.
    cells = {(40 - k, 10 + k): 0 for k in range(7)}
    cells.update({(x, y): 9 for x in range(10, 13) for y in range(20, 23)})
    cells.update({(x, y): 3 for x in range(30, 33) for y in range(30, 33) if (x, y) != (31, 31)})
    patches = frame_patches(_frame(cells))
    by_colour = {colour: (x, y) for colour, x, y in patches if colour != 5}
    assert by_colour == {0: (37, 13), 9: (11, 21), 3: (31, 30)}
    # The background is one patch around them, and the ring's hole one more of its own.
    assert sum(1 for colour, _, _ in patches if colour == 5) == 2
    assert len(patches) == 5


def test_a_patch_centre_has_the_patch_s_colour() -> None:
    rng = random.Random(7)
    frame = tuple(tuple(rng.choice((1, 2, 2, 2)) for _ in range(64)) for _ in range(64))
    patches = frame_patches(frame)
    assert all(frame[y][x] == colour for colour, x, y in patches)
    # Cells of one colour join across the frame, so the patches are far fewer than the cells.
    assert 1 < len(patches) < 64 * 64
