"""A run stored as its records only is replayed on its instances regenerated from task and seed.

The oracle is the run itself before its trajectories were removed: what the regenerated replay
draws (the input, each demonstration bought, a right answer's grid) must be what the trajectory
recorded, and the page must say "records only" as information, never as a problem.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from continual_arc.play.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.stream.users import with_users
from continual_arc.testing import ToyRuleLearner
from continual_arc.tracks.registry import get_config
from continual_arc.view.catalog import build_catalog
from continual_arc.view.documents import run_document
from continual_arc.view.replay import replay_document


def test_a_records_only_run_replays_its_regenerated_instances_with_the_recorded_grids(tmp_path: Path) -> None:
    schedule = build_schedule(with_users(get_config("toy-smoke"), 2), 0, epilogue=False)
    out = tmp_path / "stream"
    records = run(ToyRuleLearner(), schedule, out).records
    recorded = {str(r["step"]): json.loads((out / "i" / f"{r['step']}.json").read_text()) for r in records}
    shutil.rmtree(out / "i")  # as `runs store` keeps it
    (out / "schedule.json").unlink()
    (entry,) = build_catalog([tmp_path]).runs.values()
    page = run_document(entry)
    assert page["problems"] == [] and page["notes"][0].startswith("records only (no trajectories)")
    solved_with_demos = 0
    for name, trajectory in recorded.items():
        replay = replay_document(entry, name)
        assert replay["problems"] == [] and replay["notes"][0].startswith(
            "regenerated from its task and seed"
        )
        assert replay["input"] == trajectory["input"]
        events = [e for e in trajectory["events"] if e["action"]]
        steps = replay["steps"][1:]
        assert [s["kind"] for s in steps] == [e["action"]["action"] for e in events]
        for step, event in zip(steps, events, strict=True):
            if step["kind"] == "request_demos":
                assert step["pair"] == event["feedback"]["pair"]
            if step["kind"] == "submit":
                assert step["correct"] == event["feedback"]["correct"]
                if step["correct"]:
                    assert step["grid"] == event["action"]["grid"]
                    solved_with_demos += any(s["kind"] == "request_demos" for s in steps)
    assert solved_with_demos > 0  # pairs and right answers were both compared


def test_a_run_with_trajectories_but_one_missing_still_says_so(tmp_path: Path) -> None:
    schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False).first_rounds(2)
    run(ToyRuleLearner(), schedule, tmp_path / "r")
    (tmp_path / "r" / "i" / "0.json").unlink()
    (entry,) = build_catalog([tmp_path]).runs.values()
    replay = replay_document(entry, "0")
    assert replay["problems"] == ["i/0.json is missing: the replay shows the record's actions, without grids"]
    assert replay["input"] is not None  # regenerated all the same
