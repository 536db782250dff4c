"""The model learners on game levels: replies read as actions, frames as rows, arc3-smoke via the proxy."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.files import read_json
from continual_arc.core.games import GameAction, encode_frame
from continual_arc.env import GiveUp
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.game_play import frame_rows, parse_game_action
from continual_arc_baselines.learners import DemoCacheFloor, ModelProgramLibrary, StatelessFloor
from continual_arc_baselines.proxy import ProxyConfig, serve_proxy
from continual_arc_baselines.systems.bare import BareModelLearner

MODEL = "vendor/toy-model"
OFFERED = re.compile(r"^Offered actions: (.+)$", re.MULTILINE)

needs_engine = pytest.mark.skipif(
    importlib.util.find_spec("arcengine") is None,
    reason="the arc3 track needs Python 3.12 and continual-arc[arc3]",
)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("I will go up.\nACTION1", GameAction("ACTION1")),
        ("click it\n  ACTION6 12 40  \n\n", GameAction("ACTION6", 12, 40)),
        ("action6 3, 7", GameAction("ACTION6", 3, 7)),
        ("**RESET**", GameAction("RESET")),
        ("nothing works\nGIVE UP", GiveUp()),
        ("ACTION6", None),  # a click needs its cell
        ("ACTION6 64 0", None),  # outside the frame
        ("ACTION2 1 1", None),  # a key takes no cell
        ("ACTION1 then ACTION2", None),  # the last line must hold only the action
        ("ACTION8", None),
        ("", None),
    ],
)
def test_a_reply_s_last_line_names_the_action(reply: str, expected: object) -> None:
    assert parse_game_action(reply) == expected


def test_a_frame_is_shown_as_64_rows_of_hexadecimal_colours() -> None:
    rows = [[0] * 64 for _ in range(64)]
    rows[0][1], rows[63][63] = 15, 10
    lines = frame_rows(encode_frame(rows)).splitlines()
    assert len(lines) == 64 and {len(line) for line in lines} == {64}
    assert lines[0][:3] == "0f0" and lines[63][-1] == "a" and lines[5] == "0" * 64


def _player(body: dict[str, Any]) -> str:
    """A fake model: a first reply it cannot read, then the first offered action other than RESET."""
    messages = body["messages"]
    if len(messages) == 2 and "Actions this attempt: 0 of" in messages[1]["content"]:
        return "Let me look at the frame first."
    offered = OFFERED.search(messages[1]["content"])
    assert offered is not None
    action = next(a for a in offered[1].split(", ") if a != "RESET")
    return f"I try a key.\n{action} 20 20" if action == "ACTION6" else f"I try a key.\n{action}"


@needs_engine
@pytest.mark.parametrize(
    "cls", [StatelessFloor, DemoCacheFloor, ModelProgramLibrary, BareModelLearner], ids=lambda c: c.__name__
)
def test_each_model_learner_plays_arc3_smoke_through_the_proxy(cls: Any, tmp_path: Path) -> None:
    with (
        FakeModelServer(_player) as fake,
        serve_proxy(ProxyConfig(upstream=fake.url, models=(MODEL,))) as proxy,
    ):
        learner = cls(model=MODEL, base_url=proxy.url, max_retries=0, max_calls=4)
        out = tmp_path / "run"
        records = run(learner, build_schedule(get_config("arc3-smoke"), 0, epilogue=False), out).records
        total = proxy.ledger.totals(learner.session.run_id)
    assert records and all(r["error"] is None for r in records)
    per_instance = [read_json(out / "i" / f"{r['step']}.json")["learner_log"] for r in records]
    calls = [log["resources"]["calls"] for log in per_instance]
    assert sum(calls) == total.calls == len(fake.chat_requests)
    # each instance: its 3 demonstrations bought, then 4 calls: an unreadable reply at each attempt's
    # start (the fake model's script), an action otherwise. tilt-gravity's served levels have pits,
    # so its first ACTION1 may lose and start another attempt.
    assert calls == [4.0] * len(records) and all(r["demos_bought"] == 3 for r in records)
    for record, log in zip(records, per_instance, strict=True):
        played = [a for a in record["actions"] if a["action"].startswith("ACTION")]
        ended = [a for a in played[:-1] if a.get("ended")]  # each followed by a fresh attempt's call
        assert log["actions"][0] is None and log["actions"][1:].count(None) == len(ended)
    first = per_instance[0]["messages"][0]
    assert first[0]["role"] == "system" and "Current frame:" in first[1]["content"]
