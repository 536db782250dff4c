"""GameEnv's rules on a hand-made tilt-gravity level: attempts, losses, caps, demonstrations, charges."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("arcengine", reason="the arc3 track needs Python 3.12 and continual-arc[arc3]")

from continual_arc.core.actions import GiveUp, GiveUpFeedback, RequestDemos
from continual_arc.core.environment import EnvSettings, InstanceClosedError, InvalidActionError
from continual_arc.core.games import (
    GameAction,
    GameDemosFeedback,
    GameFeedback,
    decode_frame,
    encode_frame,
    game_action_from_json,
    game_action_to_json,
)
from continual_arc.tracks.arc3.env import GameEnv, attempt_action_cap
from continual_arc.tracks.arc3.frames import FrameTexts, frame_text
from continual_arc.tracks.arc3.source import GameInstance, play_plan
from continual_arc.tracks.registry import get_track
from continual_arc_games import GAMES, Level, human
from continual_arc_games.human import record_human_actions
from continual_arc_games.session import Session
from continual_arc_games.session import encode_frame as games_encode_frame

UP, DOWN, LEFT, RIGHT = (GameAction(f"ACTION{i}") for i in range(1, 5))
RESET = GameAction("RESET")

# tilt-gravity codes: 1 wall, 2 a ball, 3 the goal hole, 4 a pit. RIGHT rolls the ball into the
# hole (a win); DOWN rolls it into the pit (a loss); UP and LEFT leave it against a wall.
TILT = Level.make("tilt-gravity", [[1] * 5, [1, 2, 0, 3, 1], [1, 0, 0, 0, 1], [1, 4, 0, 0, 1], [1] * 5])


def _instance(level: Level = TILT, demo_cap: int = 8) -> GameInstance:
    spec = GAMES[level.game]
    plan = spec.solve(level, 1000)
    assert plan
    return GameInstance(
        "test", level.game, 0, 0, level, plan, demo_cap, lambda i: play_plan(spec, level, plan, FrameTexts())
    )


def _env(**settings: int) -> GameEnv:
    return GameEnv(_instance(), EnvSettings(**settings))


def test_the_solver_s_plan_wins_at_once_for_nothing() -> None:
    env = _env()
    feedback = env.step(RIGHT)
    assert isinstance(feedback, GameFeedback)
    assert feedback.ended == "won" and feedback.state == "won" and feedback.done
    result = env.result()
    assert result.solved and result.charge == 0 and result.end == "solved" and result.actions == 1


def test_a_loss_fails_the_attempt_and_restarts_the_level() -> None:
    env = _env()
    opening = env.view("t", 0, 0, 0).frame
    feedback = env.step(DOWN)
    assert isinstance(feedback, GameFeedback)
    assert (feedback.ended, feedback.state, feedback.attempts_used, feedback.spent) == ("lost", "lost", 1, 1)
    assert feedback.frames[-1] != opening  # the loss is shown ...
    view = env.view("t", 0, 0, 0)
    assert view.frame == opening  # ... then the start again
    assert view.attempt_actions == 0 and view.attempts_used == 1
    env.step(RIGHT)
    assert env.result().solved and env.result().charge == 1


def test_reset_is_free_at_an_attempt_s_start_and_a_failed_attempt_after_an_action() -> None:
    env = _env()
    free = env.step(RESET)
    assert isinstance(free, GameFeedback) and free.ended is None and free.attempts_used == 0
    env.step(UP)  # against the wall: nothing moves, but it is an action of the attempt
    assert env.attempt_actions == 1
    paid = env.step(RESET)
    assert isinstance(paid, GameFeedback) and paid.ended == "reset" and paid.attempts_used == 1
    assert env.attempt_actions == 0


def test_the_attempt_s_action_cap_fails_it() -> None:
    env = _env()
    cap = env.attempt_action_cap
    assert cap == attempt_action_cap(1) == 16
    endings = [env.step(UP).ended for _ in range(cap)]  # type: ignore[union-attr]
    assert endings == [None] * (cap - 1) + ["action cap"]
    assert env.attempts_used == 1 and not env.done


def test_the_eighth_failed_attempt_ends_the_instance_at_the_whole_budget() -> None:
    env = _env()
    for _ in range(7):
        env.step(DOWN)
    assert not env.done
    last = env.step(DOWN)
    assert isinstance(last, GameFeedback) and last.done
    result = env.result()
    assert (result.solved, result.end, result.charge, result.wrong_attempts) == (False, "attempt cap", 16, 8)
    with pytest.raises(InstanceClosedError):
        env.step(RIGHT)


def test_an_action_the_game_does_not_offer_changes_nothing_but_counts() -> None:
    env = _env()
    before = env.view("t", 0, 0, 0).frame
    feedback = env.step(GameAction.click(3, 3))
    assert isinstance(feedback, GameFeedback) and not feedback.offered
    assert feedback.frames == (before,) and env.attempt_actions == 1


def test_demonstrations_cost_one_each_up_to_the_cap_then_are_refused_free() -> None:
    env = _env()
    for k in range(1, 9):
        feedback = env.step(RequestDemos())
        assert isinstance(feedback, GameDemosFeedback) and feedback.demos_used == k and feedback.spent == k
    refused = env.step(RequestDemos())
    assert isinstance(refused, GameDemosFeedback) and refused.refused and refused.spent == 8
    env.step(RIGHT)
    assert env.result().charge == 8 and env.result().demos_refused == 1
    view_demos = env.demos
    assert all(d.actions == (RIGHT,) and len(d.frames) == 2 for d in view_demos)


def test_the_instance_s_action_cap_ends_a_learner_looping_on_refused_requests() -> None:
    env = GameEnv(_instance(demo_cap=0), EnvSettings())
    assert env.action_cap == 8 * 16 + 64
    for _ in range(env.action_cap - 1):
        env.step(RequestDemos())
    last = env.step(RequestDemos())
    assert isinstance(last, GameDemosFeedback) and last.done and env.result().end == "action cap"


def test_give_up_and_anything_else() -> None:
    env = _env()
    with pytest.raises(InvalidActionError):
        env.step("ACTION1")
    assert isinstance(env.step(GiveUp()), GiveUpFeedback)
    assert env.result().charge == 16 and env.result().end == "gave up"


def test_frames_are_text_the_games_encoder_and_the_core_agree_on() -> None:
    level = TILT
    frame = Session(GAMES[level.game], level).frame
    text = frame_text(frame)
    assert text == games_encode_frame(frame) == encode_frame(frame.tolist())
    assert decode_frame(text) == tuple(tuple(row) for row in frame.tolist())


def test_the_trajectory_keeps_each_frame_once_and_events_refer_to_them() -> None:
    env = _env()
    events = [env.feedback_json(env.step(a)) for a in (UP, DOWN, RIGHT)]
    opening = env.opening()
    table = opening["frames"]
    assert len(table) == len(set(table)) and opening["opening"] == [0]
    assert all(isinstance(i, int) and 0 <= i < len(table) for e in events for i in e["frames"])
    assert events[1]["ended"] == "lost" and events[2]["ended"] == "won"
    for action in (UP, GameAction.click(1, 2), RequestDemos(), GiveUp()):
        assert game_action_from_json(game_action_to_json(action)) == action


def test_a_level_is_served_only_with_its_solver_s_winning_plan() -> None:
    instance = _instance()
    unsolved = GameInstance("test", "tilt-gravity", 0, 0, TILT, (), 8, instance.demonstration)
    with pytest.raises(ValueError, match="winning plan"):
        GameEnv(unsolved)


@pytest.mark.parametrize("role", ["stream", "held-out"])
def test_every_served_level_and_demonstration_was_won_by_its_solver(role: str) -> None:
    source = get_track("arc3").source(role)
    for game in source.task_ids():
        instance = source.instance(game, 3 * 10**15 + 11)
        session = Session(instance.spec, instance.level)
        for move in instance.plan:
            session.step(move)
        assert session.won, game
        demo = instance.demonstration(0)
        assert demo.actions and len(demo.frames) == len(demo.actions) + 1
        assert instance.demonstration(0) == demo  # the same whenever asked for
        opening = FrameTexts().encode_all(Session(instance.spec, instance.level).frames)
        assert demo.frames != (opening, *demo.frames[1:])  # another level than the instance's


def test_a_human_count_recorded_for_the_level_is_its_baseline_and_the_record_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _env()
    assert (env.opening()["baseline_actions"], env.opening()["baseline_source"]) == (1, "plan")
    counts = tmp_path / "human_actions.json"
    for count in (3, 2, 9):  # a first-time human's upper median: 3
        record_human_actions(TILT, count, counts)
    monkeypatch.setattr(human, "HUMAN_FILE", counts)
    env = _env()
    assert (env.opening()["baseline_actions"], env.opening()["baseline_source"]) == (3, "human")
    env.step(RIGHT)  # the win, in one action against the human's three: (3 / 1)^2, capped at 1
    fields = env.record_fields([{"action": "ACTION4", "ended": "won"}], True)
    assert fields == {
        "baseline_actions": 3,
        "baseline_source": "human",
        "level_actions": 1,
        "level_score": 1.0,
    }
