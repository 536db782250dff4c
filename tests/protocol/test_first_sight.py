from __future__ import annotations

import json
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.play.rundir import read_records
from continual_arc.stream.first_sight import first_sight_schedule, first_sight_tasks
from continual_arc.stream.schedule import Schedule
from continual_arc.stream.seeds import FIRST_SIGHT_SEED_BASE, SEED_SPAN
from continual_arc.tracks.registry import get_config

TOY_RULE = "continual_arc.testing:ToyRuleLearner"


def test_the_canonical_configuration_serves_every_public_task() -> None:
    tasks = first_sight_tasks(get_config("arc1"))
    assert (len(tasks["stream"]), len(tasks["held-out"])) == (400, 400)
    schedule = first_sight_schedule(get_config("arc1"))
    assert len(schedule.slots) == 800 and schedule.rounds == 800
    assert all(s.reset_before and s.user == 0 for s in schedule.slots)
    assert all(FIRST_SIGHT_SEED_BASE * SEED_SPAN <= s.seed < (FIRST_SIGHT_SEED_BASE + 1) * SEED_SPAN
               for s in schedule.slots)  # fmt: skip
    assert schedule.meta["first_sight"] and schedule.meta["order"] == "custom"


def test_a_smoke_configuration_serves_its_own_tasks(tmp_path: Path) -> None:
    config = get_config("toy-smoke")
    schedule = first_sight_schedule(config, seed=3)
    assert [s.phase for s in schedule.slots] == ["stream"] * 3 + ["held-out"] * 4
    schedule.save(tmp_path / "s.json")
    assert Schedule.load(tmp_path / "s.json") == schedule
    assert first_sight_schedule(config, seed=4).slots[0].seed != schedule.slots[0].seed


def test_first_sight_prints_the_share_solved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "fs"
    args = ["first-sight", "--config", "toy-smoke", "--learner", TOY_RULE, "--out", str(out)]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "pool tasks        solved    3 of 3    share solved 100.0 %" in text
    assert "all public tasks  solved    7 of 7    share solved 100.0 %" in text
    records = read_records(out)
    assert len(records) == 7 and all(r["reset_before"] for r in records)
    assert main([*args, "--json"]) == 0  # a finished run resumes to the same numbers
    assert json.loads(capsys.readouterr().out)["parts"]["all"]["solved"] == 7
    assert len(read_records(out)) == 7
