"""The arc3 track: its split, configurations, schedules; the arc3-smoke protocol checked; tampering caught."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("arcengine", reason="the arc3 track needs Python 3.12 and continual-arc[arc3]")

from continual_arc.core.config import Config
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, default_learner, play_protocol
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.stream.schedule import build_schedule, test_schedule
from continual_arc.submit.check import check_submission
from continual_arc.submit.check_run import check_run
from continual_arc.tracks.arc3.track import HELD_OUT_GAMES, STREAM_GAMES
from continual_arc.tracks.registry import CONFIGS, TRACKS, UNAVAILABLE, get_config
from continual_arc_games import GAMES

EXPLORER = "continual_arc_baselines.explorer:GameExplorer"
TRANSFER = "continual_arc_baselines.transfer:TransferExplorer"


def test_the_track_is_registered_with_its_two_configurations() -> None:
    assert "arc3" in TRACKS and "arc3" not in UNAVAILABLE
    assert {"arc3", "arc3-smoke"} <= set(CONFIGS)
    assert default_learner("arc3") == TRANSFER and default_learner("arc3-smoke") == TRANSFER


def test_the_split_covers_every_game_once() -> None:
    assert not set(STREAM_GAMES) & set(HELD_OUT_GAMES)
    assert set(STREAM_GAMES) | set(HELD_OUT_GAMES) == set(GAMES)
    if len(GAMES) == 25:
        assert (len(STREAM_GAMES), len(HELD_OUT_GAMES)) == (15, 10)


def test_the_canonical_configuration_serves_8_levels_a_stream_game_and_4_a_test_game() -> None:
    config = get_config("arc3")
    assert (config.stream_tasks, config.supply) == (len(STREAM_GAMES), 8)
    assert (config.held_out, config.held_out_instances) == (len(HELD_OUT_GAMES), 4)
    assert config.to_dict()["held_out_instances"] == 4
    assert Config.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    stream = build_schedule(config, 0, epilogue=False)
    assert Counter(s.task_id for s in stream.slots) == {game: 8 for game in STREAM_GAMES}
    seen = test_schedule(config, 0, "seen")
    assert Counter(s.task_id for s in seen.slots) == {game: 4 for game in STREAM_GAMES}
    held = test_schedule(config, 0, "held-out")
    assert Counter(s.task_id for s in held.slots) == {game: 4 for game in HELD_OUT_GAMES}
    seeds = [s.seed for schedule in (stream, seen, held) for s in schedule.slots]
    assert len(seeds) == len(set(seeds))  # every phase's levels are fresh, never shared
    assert {s.seed // 10**15 for s in held.slots} == {3} and {s.seed // 10**15 for s in seen.slots} == {4}


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The explorer's whole arc3-smoke protocol (what CI plays)."""
    out = tmp_path_factory.mktemp("arc3") / "results" / "arc3" / "explorer"
    play_protocol(ProtocolSpec.named(EXPLORER, "arc3-smoke"), ProtocolOptions(out=out, jobs=2, resamples=200))
    submission = read_json(out / "submission.json")  # what a person fills in
    submission.update(student="none", code="https://example.org/explorer@abc123", contact="a@example.org")
    atomic_write_json(out / "submission.json", submission)
    return out


@pytest.mark.slow
def test_the_smoke_protocol_plays_and_every_check_holds(smoke: Path) -> None:
    document = read_json(smoke / "protocol.json")
    assert document["config"] == "arc3-smoke"
    stream = [json.loads(line) for line in (smoke / "stream" / "records.jsonl").read_text().splitlines()]
    assert any(r["solved"] for r in stream)  # the explorer wins some levels
    assert all(len(r["actions"]) > 1 or r["end"] == "gave up" for r in stream)
    result = check_submission(smoke, resamples=200, allow_ablation=True)
    assert result.ok, result.problems


def _copy(smoke: Path, tmp_path: Path) -> Path:
    target = tmp_path / "run"
    shutil.copytree(smoke / PROTOCOL_PLAYS["stream"], target)
    return target


def _solved_trajectory(run: Path) -> tuple[Path, dict[str, object]]:
    records = [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]
    step = next(r["step"] for r in records if r["solved"])
    path = run / "i" / f"{step}.json"
    return path, read_json(path)


@pytest.mark.tampered
def test_a_frame_edited_in_a_trajectory_is_caught(smoke: Path, tmp_path: Path) -> None:
    run = _copy(smoke, tmp_path)
    path, trajectory = _solved_trajectory(run)
    frames = trajectory["frames"]
    assert isinstance(frames, list)
    frames[-1] = frames[0]
    path.write_text(json.dumps(trajectory))
    _, problems = check_run(run)
    assert any("its frames is not that of instance" in p for p in problems), problems


@pytest.mark.tampered
def test_a_failed_attempt_recorded_as_a_win_is_caught(smoke: Path, tmp_path: Path) -> None:
    run = _copy(smoke, tmp_path)
    records = [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]
    index = next(i for i, r in enumerate(records) if not r["solved"] and r["end"] == "attempt cap")
    record = records[index]
    last = record["actions"][-1]
    last["ended"] = "won"
    record.update(solved=True, end="solved", charge=record["wrong_attempts"] - 1 + record["demos_bought"])
    record["wrong_attempts"] -= 1
    record["budget_share"] = record["charge"] / 16
    path = run / "i" / f"{record['step']}.json"
    trajectory = read_json(path)
    trajectory["events"][-1]["feedback"]["ended"] = "won"
    path.write_text(json.dumps(trajectory))
    (run / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    _, problems = check_run(run)
    assert any("feedback ended 'won' (the replay gives" in p for p in problems), problems


def _records(run: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_every_game_record_carries_its_level_score_from_its_actions_and_the_solver_plan(smoke: Path) -> None:
    run = smoke / PROTOCOL_PLAYS["stream"]
    for record in _records(run):
        trajectory = read_json(run / "i" / f"{record['step']}.json")
        # Counted here independently: every ACTIONn, and each RESET that ended an attempt.
        actions = [a for a in record["actions"] if str(a["action"]).startswith("ACTION")]  # type: ignore[index]
        resets = [a for a in record["actions"] if a["action"] == "RESET" and a.get("ended")]  # type: ignore[index, union-attr]
        spent = len(actions) + len(resets)
        plan = trajectory["baseline_actions"]
        assert record["baseline_actions"] == plan and record["level_actions"] == spent
        want = min(1.0, (plan / spent) ** 2) if record["solved"] else 0.0
        assert record["level_score"] == pytest.approx(want)


@pytest.mark.tampered
def test_a_level_score_edited_in_a_record_is_caught(smoke: Path, tmp_path: Path) -> None:
    run = _copy(smoke, tmp_path)
    records = _records(run)
    index = next(i for i, r in enumerate(records) if r["solved"] and r["level_score"] < 1)  # type: ignore[operator]
    records[index]["level_score"] = 1.0
    (run / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    _, problems = check_run(run, regenerate=False)  # caught from the actions alone, without the engine
    assert any("level_score 1.0 (the actions give" in p for p in problems), problems


@pytest.mark.tampered
def test_a_baseline_edited_with_its_score_is_caught_by_the_replay(smoke: Path, tmp_path: Path) -> None:
    run = _copy(smoke, tmp_path)
    records = _records(run)
    index = next(i for i, r in enumerate(records) if r["solved"])
    record = records[index]
    path = run / "i" / f"{record['step']}.json"
    trajectory = read_json(path)
    longer = record["baseline_actions"] + record["level_actions"]  # type: ignore[operator]
    trajectory["baseline_actions"] = longer  # a longer plan: the play would then beat it
    path.write_text(json.dumps(trajectory))
    record.update(baseline_actions=longer, level_score=1.0)
    (run / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    _, problems = check_run(run)
    assert any("its baseline_actions is not that of instance" in p for p in problems), problems


@pytest.mark.tampered
def test_a_human_baseline_claimed_for_a_level_no_human_played_is_caught_by_the_replay(
    smoke: Path, tmp_path: Path
) -> None:
    run = _copy(smoke, tmp_path)
    records = _records(run)
    index = next(i for i, r in enumerate(records) if r["solved"])
    record = records[index]
    assert record["baseline_source"] == "plan"  # no human count ships for a drawn level
    path = run / "i" / f"{record['step']}.json"
    trajectory = read_json(path)
    trajectory["baseline_source"] = "human"
    path.write_text(json.dumps(trajectory))
    record["baseline_source"] = "human"
    (run / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    _, problems = check_run(run)
    assert any("its baseline_source is not that of instance" in p for p in problems), problems
