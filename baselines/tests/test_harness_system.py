from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.testing import check_learner
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.harness.system import VARIANTS

sys.path.insert(0, str(Path(__file__).parent))
from harness_rig import (
    MODEL,
    FakeHarnessLearner,
    answers,
    killed_and_resumed,
    records,
    rig,
    scripted_model,
)

SMOKE = build_schedule(get_config("arc1-smoke"), 0, epilogue=False)


def _trajectories(out: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(out.glob("i/*.json"), key=lambda p: int(p.stem))]


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_variant_plays_the_smoke_stream_through_its_tools(tmp_path: Path, variant: str) -> None:
    with rig(scripted_model(answers(SMOKE))) as (fake, proxy):
        learner = FakeHarnessLearner(MODEL, variant=variant, base_url=proxy.url)
        try:
            run(learner, SMOKE, tmp_path / "run")
        finally:
            learner.close()
        served = [u for u in fake.served if u]
    played = records(tmp_path / "run")
    assert [r["actions"] for r in played] == [
        [
            {"action": "request_demos", "refused": False},
            {"action": "submit", "correct": False, "invalid": False},
            {"action": "submit", "correct": True, "invalid": False},
        ]
    ] * len(SMOKE.slots)
    counted = [r["instance_resources"] for r in played]
    assert sum(c["calls"] for c in counted) == len(fake.chat_requests) == 5 * len(SMOKE.slots)
    assert sum(c["prompt_tokens"] for c in counted) == sum(u["prompt_tokens"] for u in served)
    assert sum(c["completion_tokens"] for c in counted) == sum(u["completion_tokens"] for u in served)
    logs = [t["learner_log"] for t in _trajectories(tmp_path / "run")]
    assert all(log["variant"] == variant and len(log["tool_calls"]) == 3 for log in logs)
    starts = [log["workspace"]["at_start"] for log in logs]
    memory = json.loads((tmp_path / "run" / "memory.json").read_text())
    if variant == "memory_wiped":
        assert starts == [[]] * len(logs) and memory["files"] == [] and memory["versions"] == []
    else:
        assert starts[0] == [] and any(any(f["path"].startswith("notes/") for f in s) for s in starts[1:])
        kept = {f["path"] for f in memory["files"]}
        assert kept == {f"notes/{r['alias']}.md" for r in played}
        assert memory["versions"][0]["changes"][0]["kind"] == "added"
    if variant == "asked_to_store":
        assert "save it now" in logs[0]["tool_calls"][0]["answer"]
    if variant == "keep_one_program":
        assert "Keep one tested program per task" in logs[0]["prompt"]


@pytest.mark.slow
def test_the_learner_holds_to_the_runners_contract() -> None:
    with rig(scripted_model({})) as (_, proxy):
        made = []

        def factory() -> FakeHarnessLearner:
            made.append(FakeHarnessLearner(MODEL, base_url=proxy.url))
            return made[-1]

        try:
            assert check_learner(factory) == []
        finally:
            for learner in made:
                learner.close()


def _same(played: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # The cumulative resources too: a resumed run's counters go on from its records.
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in played]


def test_a_run_killed_mid_stream_resumes_without_losing_anything(tmp_path: Path) -> None:
    whole, out = tmp_path / "whole", tmp_path / "cut"
    with rig(scripted_model(answers(SMOKE))) as (_, proxy):
        at_kill = killed_and_resumed(FakeHarnessLearner, proxy.url, whole, out, rounds=3, seconds=120)
    assert 3 <= at_kill < len(SMOKE.slots)
    assert _same(records(out)) == _same(records(whole))
    memory = [json.loads((d / "memory.json").read_text())["files"] for d in (out, whole)]
    assert memory[0] == memory[1]
