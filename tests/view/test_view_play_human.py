"""The viewer's game player records a won level's action count beside the games, when asked to."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("arcengine", reason="the arc3 track needs Python 3.12 and continual-arc[arc3]")

from continual_arc.stream.seeds import SEED_SPAN
from continual_arc.view.play import PLAY_SEED_BASE, PlaySessions
from continual_arc_games.human import human_actions, read_human_file

SEED = PLAY_SEED_BASE * SEED_SPAN + 5


def _play_plan(plays: PlaySessions, token: str) -> list[dict[str, object]]:
    env = plays._get(token).env
    plan = env.instance.plan  # type: ignore[attr-defined]
    replies = [plays.act(token, {"action": "RESET"})]  # at the opening: it ends nothing, so counts nothing
    for move in plan:
        body: dict[str, object] = {"action": move.action}
        if move.x is not None:
            body.update(x=move.x, y=move.y)
        replies.append(plays.act(token, body))  # type: ignore[arg-type]
    return replies


def test_a_won_level_is_recorded_with_the_actions_it_took(tmp_path: Path) -> None:
    counts = tmp_path / "human_actions.json"
    plays = PlaySessions(human_file=counts)
    token = str(plays.start("arc3", "tilt-gravity", "stream", seed=SEED)["token"])
    env = plays._get(token).env
    replies = _play_plan(plays, token)
    assert [r["human_recorded"] for r in replies] == [False] * (len(replies) - 1) + [True]
    assert replies[-1]["done"] and replies[-1]["result"]["solved"]  # type: ignore[index]
    level = env.instance.level  # type: ignore[attr-defined]
    assert (
        human_actions(level, read_human_file(counts)) == len(replies) - 1
    )  # the plan's moves, not the RESET


def test_nothing_is_recorded_without_a_file_or_without_a_win(tmp_path: Path) -> None:
    plays = PlaySessions()
    token = str(plays.start("arc3", "tilt-gravity", "stream", seed=SEED)["token"])
    assert _play_plan(plays, token)[-1]["human_recorded"] is False
    counts = tmp_path / "human_actions.json"
    plays = PlaySessions(human_file=counts)
    token = str(plays.start("arc3", "tilt-gravity", "stream", seed=SEED)["token"])
    reply = plays.act(token, {"action": "give_up"})
    assert reply["done"] and reply["human_recorded"] is False and not counts.exists()
