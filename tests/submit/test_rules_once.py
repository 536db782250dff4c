"""One implementation of the rules: the checker's replay counts a record's actions as the environment did.

The environment plays an instance through its ``Tally``, and the
checker's ``replay_charge`` replays the recorded actions
through one: on every golden run and on any sequence of actions they agree, and a record or
trajectory edited after the fact is still refused.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.core.files import read_json
from continual_arc.env import EnvSettings, GiveUp, InstanceEnv, RequestDemos, Submit
from continual_arc.play.instance_record import action_entries
from continual_arc.play.rundir import trajectory_name
from continual_arc.submit.check_run import check_run, replay_charge
from continual_arc.tracks.registry import get_source

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "golden"))

from golden import CASES, HERE, run_dirs

FIELDS = ("end", "solved", "wrong_attempts", "demos_bought", "demos_refused", "charge", "max_cost")


@pytest.mark.parametrize("case", CASES)
def test_the_replay_gives_every_golden_record_its_recorded_charge_and_end(case: str, tmp_path: Path) -> None:
    shutil.unpack_archive(HERE / f"{case}.tar.gz", tmp_path, filter="data")
    runs = list(run_dirs(tmp_path / case))
    assert runs
    for run in runs:
        meta = read_json(run / "meta.json")
        env = EnvSettings.from_dict(meta["schedule"]["configuration"]["env"])
        for line in (run / "records.jsonl").read_text().splitlines():
            record = json.loads(line)
            cap = read_json(run / "i" / f"{trajectory_name(record)}.json").get("action_cap")
            replay = replay_charge(record, env, cap)
            assert {k: replay[k] for k in FIELDS} == {k: record[k] for k in FIELDS}, f"{run}: {line[:80]}"


MOVES = st.lists(st.sampled_from(["right", "wrong", "demos", "give up"]), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(moves=MOVES, attempt_cap=st.integers(1, 4), demo_cap=st.integers(0, 3), extra=st.integers(1, 6))
def test_the_environment_and_the_replay_agree_on_any_actions(
    moves: list[str], attempt_cap: int, demo_cap: int, extra: int
) -> None:
    rules = EnvSettings(attempt_cap=attempt_cap, demo_cap=demo_cap, action_cap=attempt_cap + demo_cap + extra)
    env = InstanceEnv(get_source("toy/generative").instance("toy-d4-c0", 3), rules)
    answer = env.instance.output
    events = []
    for move in moves:
        if env.done:
            break
        action = {
            "right": Submit(answer),
            "wrong": Submit([[(x + 1) % 10 for x in row] for row in answer]),
            "demos": RequestDemos(),
            "give up": GiveUp(),
        }[move]
        feedback = env.step(action)
        events.append({"action": env.action_json(action), "feedback": env.feedback_json(feedback)})
    if not env.done:
        env.fail("time limit")
    result = env.result()
    record = {"actions": action_entries(events), "end": result.end}
    replay = replay_charge(record, rules)
    # What the environment said, field by field, against what the replay of its actions gives.
    played = (result.end, result.solved, result.wrong_attempts, result.demos_bought, result.charge)
    assert (
        replay["end"],
        replay["solved"],
        replay["wrong_attempts"],
        replay["demos_bought"],
        replay["charge"],
    ) == played
    assert replay["demos_refused"] == result.demos_refused


def _toy_stream(tmp_path: Path) -> Path:
    shutil.unpack_archive(HERE / "toy-run.tar.gz", tmp_path, filter="data")
    return tmp_path / "toy-run"


def _edit_first_record(run: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    """Apply ``edit`` to the run's first record, in place in ``records.jsonl``."""
    lines = (run / "records.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    edit(first)
    lines[0] = json.dumps(first, sort_keys=True, separators=(",", ":"))
    (run / "records.jsonl").write_text("\n".join(lines) + "\n")


def _lower_charge(record: dict[str, Any]) -> None:
    assert record["charge"] > 0  # the golden run's first instance bought demonstrations
    record["charge"] = 0


@pytest.mark.tampered
def test_a_record_whose_charge_was_lowered_is_caught(tmp_path: Path) -> None:
    run = _toy_stream(tmp_path)
    _edit_first_record(run, _lower_charge)
    _, problems = check_run(run)
    assert any("line 1: step 0: charge 0 (the actions give" in p for p in problems), problems


@pytest.mark.tampered
def test_a_record_with_an_action_after_its_end_is_caught(tmp_path: Path) -> None:
    run = _toy_stream(tmp_path)
    _edit_first_record(run, lambda record: record["actions"].append({"action": "give_up"}))
    _, problems = check_run(run)
    assert any("line 1: step 0: an action after the instance ended" in p for p in problems), problems


@pytest.mark.tampered
def test_a_trajectory_whose_submission_was_edited_is_caught(tmp_path: Path) -> None:
    run = _toy_stream(tmp_path)
    trajectory = read_json(run / "i" / "0.json")
    submit = next(e for e in trajectory["events"] if e["action"]["action"] == "submit")
    grid = submit["action"]["grid"]
    grid[0][0] = (grid[0][0] + 1) % 10  # the recorded verdict (correct) no longer follows
    (run / "i" / "0.json").write_text(json.dumps(trajectory, sort_keys=True, separators=(",", ":")) + "\n")
    _, problems = check_run(run)
    assert any(str(run / "i" / "0.json") in p for p in problems), problems
