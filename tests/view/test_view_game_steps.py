"""A game level's replay steps, from a hand-made trajectory (no engine needed): attempts, frames, meter."""

from __future__ import annotations

from typing import Any

from continual_arc.view.game_replay import game_steps, is_game_trajectory


def _trajectory() -> dict[str, Any]:
    def game(
        frames: list[int], ended: str | None, used: int, spent: int, done: bool = False
    ) -> dict[str, Any]:
        return {
            "feedback": "game", "frames": frames, "state": "won" if ended == "won" else "playing",
            "ended": ended, "attempt_actions": 1, "attempts_used": used, "spent": spent, "done": done,
            "offered": True,
        }  # fmt: skip

    demo = {"actions": [{"action": "ACTION2"}], "frames": [[0], [2]]}
    bought = {"feedback": "demos", "demo": demo, "demos_used": 1, "spent": 2, "refused": False}
    refused = {"feedback": "demos", "demo": None, "demos_used": 1, "spent": 2, "refused": True}
    return {
        "game": "keys-doors",
        "opening": [0],
        "frames": ["f1:a4096", "f1:b4096", "f1:c4096"],
        "events": [
            {"action": {"action": "ACTION1"}, "feedback": game([1], None, 0, 0)},
            {"action": {"action": "ACTION6", "x": 3, "y": 4}, "feedback": game([1, 2], "lost", 1, 1)},
            {"action": {"action": "request_demos"}, "feedback": bought},
            {"action": {"action": "request_demos"}, "feedback": refused},
            {"action": {"action": "ACTION1"}, "feedback": game([2], "won", 1, 2, done=True)},
        ],
        "result": {"charge": 2, "end": "solved"},
    }  # fmt: skip


def test_each_action_carries_its_attempt_its_frames_and_the_meter() -> None:
    data = _trajectory()
    assert is_game_trajectory(data) and not is_game_trajectory({"input": [[1]], "events": []})
    steps = game_steps(data, None)
    assert [s["kind"] for s in steps] == [
        "start",
        "ACTION1",
        "ACTION6",
        "request_demos",
        "refused",
        "ACTION1",
    ]
    assert [s["attempt"] for s in steps] == [1, 1, 1, 2, 2, 2]
    assert steps[0]["frames"] == [0]
    assert (steps[2]["x"], steps[2]["y"], steps[2]["frames"], steps[2]["ended"]) == (3, 4, [1, 2], "lost")
    assert steps[3]["demo"]["actions"] == [{"action": "ACTION2"}]
    assert [(s["meter"]["demos"], s["meter"]["wrong"], s["meter"]["spent"]) for s in steps] == [
        (0, 0, 0), (0, 0, 0), (0, 1, 1), (1, 1, 2), (1, 1, 2), (1, 1, 2),
    ]  # fmt: skip
    assert (steps[-1]["meter"]["charge"], steps[-1]["end"], steps[-1]["done"]) == (2, "solved", True)


def test_the_last_step_carries_the_level_score_and_its_scorecard_share_worked_by_hand() -> None:
    data = {**_trajectory(), "baseline_actions": 4, "result": {"charge": 2, "end": "solved", "solved": True}}
    # Counted by hand: ACTION1, ACTION6 (which lost: not a RESET, so it counts), ACTION1 = 3 actions.
    # Level score min(1, (4/3)^2) = 1; the scorecard's share min(1.15, 16/9 = 1.78) = 1.15.
    level = game_steps(data, None)[-1]["level"]
    assert level == {
        "baseline_actions": 4,
        "baseline_source": "plan",
        "level_actions": 3,
        "level_score": 1.0,
        "scorecard_level": 1.15,
    }
    # A record's fields win over the trajectory's: a human's baseline of 2 in 3 actions, (2/3)^2.
    record = {
        "solved": True,
        "baseline_actions": 2,
        "baseline_source": "human",
        "level_actions": 3,
        "level_score": 0.44,
    }
    level = game_steps(data, record)[-1]["level"]  # type: ignore[arg-type]
    assert level["baseline_source"] == "human"
    assert level["scorecard_level"] == (2 / 3) ** 2
