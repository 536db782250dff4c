from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.files import read_json
from continual_arc.core.learner_ref import LearnerRef
from continual_arc.env import Action, EnvSettings, Feedback, GiveUp, LearnerObservation, RequestDemos, Submit
from continual_arc.learner import BaseLearner
from continual_arc.measure.summary import summarize
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.options import RunOptions
from continual_arc.play.rundir import read_records
from continual_arc.runner import LearnerError, RunDirError, run
from continual_arc.stream.schedule import Schedule, build_schedule, test_schedule
from continual_arc.stream.users import with_users
from continual_arc.testing import DemoBuyerLearner, GiveUpLearner, RandomLearner, ToyRuleLearner
from continual_arc.tracks.registry import get_config

TOY = get_config("toy-smoke")


def strip(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]


def twin(of: Path, path: Path) -> Path:
    """An empty run directory holding the salt of ``of``, so that both runs use the same names."""
    path.mkdir(parents=True)
    shutil.copy(of / "alias-salt", path)
    return path


def test_records_cover_every_slot_exactly_once_in_order(tmp_path: Path) -> None:
    schedule = build_schedule(with_users(TOY, 3), 0)
    result = run(ToyRuleLearner(), schedule, tmp_path / "run")
    records = read_records(tmp_path / "run")
    assert records == result.records
    assert [(r["step"], r["task_id"], r["seed"], r["phase"], r["user"], r["round"]) for r in records] == [
        (s.step, s.task_id, s.seed, s.phase, s.user, s.round) for s in schedule.slots
    ]
    for record in records:
        trajectory = read_json(tmp_path / "run" / "i" / f"{record['step']}.json")
        assert trajectory["task_id"] == record["task_id"] and trajectory["events"]
        assert len(trajectory["events"]) == len(record["actions"])


def test_charges_follow_the_environment(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 1, epilogue=False)
    give_up = run(GiveUpLearner(), schedule, tmp_path / "g").records
    assert {(r["charge"], r["solved"], r["end"]) for r in give_up} == {(16, False, "gave up")}
    demos = run(DemoBuyerLearner(), schedule, tmp_path / "d").records
    assert {(r["charge"], r["demos_bought"], r["demos_refused"]) for r in demos} == {(16, 8, 0)}
    summary = read_json(tmp_path / "g" / "summary.json")
    assert summary["phases"]["stream"]["budget_used"] == 100.0
    assert summary["phases"]["stream"]["share_solved"] == 0.0


class Recorder(BaseLearner):
    """Records every call, and checks that what it carries changes only in end_round."""

    def __init__(self, answers: int = 2) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.carried = 0
        self.pending = 0
        self.round_state: int | None = None
        self.answers = answers
        self.seen: list[LearnerObservation] = []

    def begin_round(self) -> None:
        self.calls.append(("begin", None))
        self.round_state = self.carried

    def act(self, obs: LearnerObservation) -> Action:
        assert self.carried == self.round_state, "state changed inside a round"
        self.calls.append(("act", obs.step))
        self.seen.append(obs)
        return RequestDemos() if obs.demos_used < self.answers else GiveUp()

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        self.pending += 1

    def end_round(self) -> None:
        self.calls.append(("end", None))
        self.carried += self.pending
        self.pending = 0

    def reset(self) -> None:
        self.calls.append(("reset", None))
        self.carried = 0


def test_serial_learner_gets_one_action_per_open_instance_in_turn(tmp_path: Path) -> None:
    learner = Recorder(answers=2)
    schedule = build_schedule(with_users(TOY, 3), 0, epilogue=False, rounds=2)
    run(learner, schedule, tmp_path / "run")
    # each instance takes 3 actions (2 demos, give up): round 0 is steps 0-2, round 1 steps 3-5
    expected = [("begin", None)] + [("act", s) for s in [0, 1, 2] * 3] + [("end", None)]
    expected += [("begin", None)] + [("act", s) for s in [3, 4, 5] * 3] + [("end", None)]
    assert learner.calls == expected


def test_reset_is_called_once_before_each_reset_round(tmp_path: Path) -> None:
    learner = Recorder(answers=0)
    run(learner, build_schedule(TOY, 0, epilogue=False, reset_each=True, rounds=3), tmp_path / "run")
    assert [c for c, _ in learner.calls] == ["reset", "begin", "act", "end"] * 3


class ConcurrentRecorder(ToyRuleLearner):
    def __init__(self) -> None:
        super().__init__(keep=True)
        self.threads: set[str] = set()
        self.lock = threading.Lock()

    def act(self, obs: LearnerObservation) -> Action:
        with self.lock:
            self.threads.add(threading.current_thread().name)
        time.sleep(0.001)
        return super().act(obs)

    def user_resources(self, user: int) -> dict[str, float]:
        return {"user": float(user)}


def test_concurrent_learner_plays_sixteen_users_on_threads(tmp_path: Path) -> None:
    learner = ConcurrentRecorder()
    schedule = build_schedule(with_users(TOY, 16), 2, epilogue=False, rounds=3)
    records = run(learner, schedule, tmp_path / "run").records
    assert len(records) == 48 and all(r["solved"] for r in records)
    assert len(learner.threads) > 1 and all(t.startswith("continual-arc-user") for t in learner.threads)
    assert [r["resources"]["user"] for r in records] == [float(s.user) for s in schedule.slots]
    limited = ConcurrentRecorder()
    run(limited, schedule, tmp_path / "limited", RunOptions(max_concurrent=2))
    assert len(limited.threads) <= 2


def test_learner_never_sees_the_real_id_or_the_schedule(tmp_path: Path) -> None:
    learner = Recorder(answers=1)
    schedule = build_schedule(with_users(TOY, 2), 0)
    records = run(learner, schedule, tmp_path / "run").records
    real = {s.task_id for s in schedule.slots}
    aliases = {r["task_id"]: r["alias"] for r in records}
    for obs in learner.seen:
        assert obs.task_id not in real and obs.task_id.startswith("task-")
        assert not {"phase", "seed", "exposure_index", "gap", "reset_before"} & set(vars(obs))
    by_step = {r["step"]: r for r in records}
    assert all(obs.task_id == by_step[obs.step]["alias"] for obs in learner.seen)
    assert len(set(aliases.values())) == len(aliases)  # one name per task
    other = run(Recorder(), schedule, tmp_path / "other").records
    assert {r["alias"] for r in other} != set(aliases.values())  # another run, another salt


def test_names_style(tmp_path: Path) -> None:
    records = run(
        GiveUpLearner(), build_schedule(TOY, 0, rounds=2), tmp_path / "run", RunOptions(alias_style="names")
    ).records
    assert all(len(r["alias"].split("-")) == 3 for r in records)


def test_a_test_played_in_a_directory_with_the_streams_salt_uses_its_names(tmp_path: Path) -> None:
    stream = run(GiveUpLearner(), build_schedule(TOY, 0, epilogue=False), tmp_path / "stream").records
    test_dir = tmp_path / "seen"
    test_dir.mkdir()
    shutil.copy(tmp_path / "stream" / "alias-salt", test_dir)
    seen = run(GiveUpLearner(), test_schedule(TOY, 0, "seen"), test_dir).records
    names = {r["task_id"]: r["alias"] for r in stream}
    assert all(names[r["task_id"]] == r["alias"] for r in seen)


class Raiser(BaseLearner):
    def __init__(self, fail_steps: tuple[int, ...], where: str = "act") -> None:
        self.fail_steps, self.where = fail_steps, where

    def act(self, obs: LearnerObservation) -> Action:
        if self.where == "act" and obs.step in self.fail_steps:
            raise ValueError(f"boom at {obs.step}")
        if self.where == "invalid" and obs.step in self.fail_steps:
            return "not an action"  # type: ignore[return-value]
        return GiveUp()

    def end_round(self) -> None:
        if self.where == "end_round":
            raise RuntimeError("end_round broke")


def test_a_learner_that_raises_fails_the_instance_and_the_run_goes_on(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, epilogue=False)
    records = run(Raiser((2, 5)), schedule, tmp_path / "run").records
    assert len(records) == len(schedule.slots)
    failed = [r for r in records if r["error"]]
    assert [r["step"] for r in failed] == [2, 5]
    assert failed[0]["end"] == "learner error" and failed[0]["charge"] == 16
    assert failed[0]["error"]["type"] == "ValueError" and "boom at 2" in failed[0]["error"]["traceback"]
    trajectory = read_json(tmp_path / "run" / "i" / "2.json")
    assert trajectory["error"]["message"] == "boom at 2"
    assert read_json(tmp_path / "run" / "summary.json")["errored"] == 2
    invalid = run(Raiser((1,), "invalid"), schedule, tmp_path / "invalid").records
    assert invalid[1]["error"]["type"] == "InvalidActionError"


def test_fail_fast_stops_and_commits_nothing_of_the_round(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, epilogue=False)
    with pytest.raises(LearnerError, match="step 3: the learner raised in act"):
        run(Raiser((3,)), schedule, tmp_path / "run", RunOptions(fail_fast=True))
    assert [r["step"] for r in read_records(tmp_path / "run")] == [0, 1, 2]
    with pytest.raises(LearnerError, match="end_round"):
        run(Raiser((), "end_round"), schedule, tmp_path / "end")
    assert read_records(tmp_path / "end") == []


class Sleeper(BaseLearner):
    stateless = True

    def __init__(self, seconds: float = 1.5) -> None:
        self.seconds = seconds
        self.calls_running = 0
        self.overlapped = False

    def act(self, obs: LearnerObservation) -> Action:
        self.calls_running += 1
        self.overlapped = self.overlapped or self.calls_running > 1
        if obs.step == 1:
            time.sleep(self.seconds)
        self.calls_running -= 1
        return GiveUp()


def test_an_instance_past_its_time_limit_ends_unsolved(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, epilogue=False, rounds=3)
    start = time.monotonic()
    learner = Sleeper()
    records = run(learner, schedule, tmp_path / "run", RunOptions(instance_time_limit=0.3)).records
    # The overrunning call is waited for before the learner is called again: no call overlaps it.
    assert time.monotonic() - start >= 1.5 and not learner.overlapped
    assert [r["end"] for r in records] == ["gave up", "time limit", "gave up"]
    assert records[1]["charge"] == 16


def test_a_call_that_never_returns_stops_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import continual_arc.play.episode as episode

    monkeypatch.setattr(episode, "OVERRUN_GRACE", 0.2)
    schedule = build_schedule(TOY, 0, epilogue=False, rounds=3)
    with pytest.raises(LearnerError, match="had not returned"):
        run(Sleeper(seconds=3), schedule, tmp_path / "run", RunOptions(instance_time_limit=0.3))
    assert [r["step"] for r in read_records(tmp_path / "run")] == [0]


class SlowSerial(BaseLearner):
    """Takes 0.1 s per action, three actions per instance: 0.3 s of its own time on each instance."""

    stateless = True

    def act(self, obs: LearnerObservation) -> Action:
        time.sleep(0.1)
        return RequestDemos() if obs.demos_used < 2 else GiveUp()


def test_a_serial_learner_is_timed_on_its_own_calls_at_any_width(tmp_path: Path) -> None:
    config = with_users(TOY, 1)
    wide, narrow = test_schedule(config, 0, "held-out"), test_schedule(config, 0, "held-out", width=1)
    ends = [
        [r["end"] for r in run(SlowSerial(), s, tmp_path / name, RunOptions(instance_time_limit=0.6)).records]
        for name, s in (("wide", wide), ("narrow", narrow))
    ]
    assert ends[0] == ends[1] == ["gave up"] * 4
    record = read_records(tmp_path / "wide")[3]
    assert 0.3 <= record["learner_time"] < 0.6 <= record["wall_time"]


def test_non_empty_directory_is_refused_without_resume(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, rounds=2)
    run(GiveUpLearner(), schedule, tmp_path / "run")
    with pytest.raises(
        RunDirError,
        match=r"is not empty: it holds a run; to continue it, "
        r"pass RunOptions\(resume=True\) to run\(\) in Python, "
        r"or --resume to continual-arc run$",
    ):
        run(GiveUpLearner(), schedule, tmp_path / "run")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    with pytest.raises(RunDirError, match="is not empty") as refused:
        run(GiveUpLearner(), schedule, tmp_path / "other")
    assert "holds no run" in str(refused.value) and "resume" not in str(refused.value)
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(RunDirError, match="is a file, not a directory"):
        run(GiveUpLearner(), schedule, tmp_path / "a-file")


def test_resume_extends_a_cut_run_without_replay(tmp_path: Path) -> None:
    full = build_schedule(with_users(TOY, 2), 0)
    first = ToyRuleLearner()
    run(first, full.first_rounds(4), tmp_path / "run")
    assert (
        read_json(tmp_path / "run" / "summary.json")["protocol"]["deviations"][-1] == "stream cut at round 4"
    )
    resumed = ToyRuleLearner()  # a new process: its rules come back from state/
    records = run(resumed, full, tmp_path / "run", RunOptions(resume=True)).records
    straight = run(ToyRuleLearner(), full, twin(tmp_path / "run", tmp_path / "straight")).records
    assert strip(records) == strip(straight)
    meta = read_json(tmp_path / "run" / "meta.json")
    assert meta["resumes"][0]["at_round"] == 4 and meta["schedule"]["rounds_cut"] is None


def test_resume_refuses_another_schedule_or_learner(tmp_path: Path) -> None:
    run(ToyRuleLearner(), build_schedule(TOY, 0, rounds=3), tmp_path / "run")
    with pytest.raises(RunDirError, match="differs from the run's at step 0"):
        run(ToyRuleLearner(), build_schedule(TOY, 1), tmp_path / "run", RunOptions(resume=True))
    with pytest.raises(RunDirError, match="was played by"):
        run(GiveUpLearner(), build_schedule(TOY, 0), tmp_path / "run", RunOptions(resume=True))


def test_resume_refuses_other_rules_arguments_or_time_limit(tmp_path: Path) -> None:
    run(ToyRuleLearner(), build_schedule(TOY, 0, rounds=3), tmp_path / "run")
    assert read_json(tmp_path / "run" / "meta.json")["learner"]["kwargs"] == {}  # recorded from Python too
    strict = dataclasses.replace(TOY, env=EnvSettings(attempt_cap=2))
    refused = r"under other rules \(attempt_cap 8 \(now 2\); max_cost 16 \(now 10\)\)"
    with pytest.raises(RunDirError, match=refused):
        run(ToyRuleLearner(), build_schedule(strict, 0), tmp_path / "run", RunOptions(resume=True))
    spec = LearnerRef("continual_arc.testing:ToyRuleLearner", {"keep": False})
    other = ToyRuleLearner(keep=False)
    with pytest.raises(RunDirError, match="'keep': False"):
        run(other, build_schedule(TOY, 0), tmp_path / "run", RunOptions(resume=True, learner=spec))
    with pytest.raises(RunDirError, match=r"with instance time limit None; resuming with 5\.0"):
        run(
            ToyRuleLearner(),
            build_schedule(TOY, 0),
            tmp_path / "run",
            RunOptions(resume=True, instance_time_limit=5.0),
        )
    assert (
        len(run(ToyRuleLearner(), build_schedule(TOY, 0), tmp_path / "run", RunOptions(resume=True)).records)
        == 13
    )


class Forgetful(BaseLearner):
    """Keeps state but cannot save it."""

    def act(self, obs: LearnerObservation) -> Action:
        return GiveUp()


def test_resuming_a_learner_that_cannot_save_its_state_is_refused(tmp_path: Path) -> None:
    run(Forgetful(), build_schedule(TOY, 0, rounds=2), tmp_path / "run")
    with pytest.raises(RunDirError, match="keeps state between instances but has no save_state/load_state"):
        run(Forgetful(), build_schedule(TOY, 0), tmp_path / "run", RunOptions(resume=True))
    run(GiveUpLearner(), build_schedule(TOY, 0, rounds=2), tmp_path / "stateless")
    assert (
        len(
            run(
                GiveUpLearner(), build_schedule(TOY, 0), tmp_path / "stateless", RunOptions(resume=True)
            ).records
        )
        == 13
    )


def test_a_crash_mid_write_leaves_whole_rounds_and_resume_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import continual_arc.play.rundir as rundir

    schedule = build_schedule(with_users(TOY, 3), 0, epilogue=False)
    real_append = rundir.append_jsonl
    calls = {"n": 0, "lines": 0}

    def dying_append(path: Path, values: list[dict[str, Any]]) -> None:
        calls["n"] += 1
        # The second commit (the writer thread batches rounds when it lags, so count its lines):
        # one whole line and half of the next reach the disk, then death.
        if calls["n"] == 2:
            text = "".join(json.dumps(v, sort_keys=True, separators=(",", ":")) + "\n" for v in values)
            with open(path, "a") as handle:
                handle.write(text[: len(text.split("\n")[0]) + 30])
            raise KeyboardInterrupt
        calls["lines"] += len(values)
        real_append(path, values)

    monkeypatch.setattr(rundir, "append_jsonl", dying_append)
    with pytest.raises(KeyboardInterrupt):
        run(ToyRuleLearner(), schedule, tmp_path / "run")
    monkeypatch.setattr(rundir, "append_jsonl", real_append)
    path = tmp_path / "run" / "records.jsonl"
    assert calls["lines"] >= 3 and calls["lines"] % 3 == 0  # whole rounds of three users each
    assert path.read_text().count("\n") == calls["lines"] + 1 and not path.read_text().endswith("\n")
    records = run(ToyRuleLearner(), schedule, tmp_path / "run", RunOptions(resume=True)).records
    straight = run(ToyRuleLearner(), schedule, twin(tmp_path / "run", tmp_path / "straight")).records
    assert strip(records) == strip(straight)
    assert path.read_text().count("\n") == len(schedule.slots)


def test_truncated_records_of_a_stateless_learner_are_cut_to_whole_rounds(tmp_path: Path) -> None:
    schedule = build_schedule(with_users(TOY, 3), 0, epilogue=False)
    run(RandomLearner(1), schedule.first_rounds(3), tmp_path / "run")
    path = tmp_path / "run" / "records.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:7]) + lines[7][:25])
    records = run(RandomLearner(1), schedule, tmp_path / "run", RunOptions(resume=True)).records
    straight = run(RandomLearner(1), schedule, twin(tmp_path / "run", tmp_path / "straight")).records
    assert strip(records) == strip(straight)


@pytest.mark.tampered
def test_malformed_records_line_is_refused_on_resume(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0)
    run(ToyRuleLearner(), schedule.first_rounds(3), tmp_path / "run")
    path = tmp_path / "run" / "records.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    lines[1] = "{not json}\n"
    path.write_text("".join(lines))
    with pytest.raises(Exception, match=r"records\.jsonl, line 2: not valid JSON"):
        run(ToyRuleLearner(), schedule, tmp_path / "run", RunOptions(resume=True))


def test_summary_is_what_the_records_give(tmp_path: Path) -> None:
    result = run(ToyRuleLearner(), build_schedule(with_users(TOY, 2), 3), tmp_path / "run")
    meta = read_json(tmp_path / "run" / "meta.json")
    assert read_json(tmp_path / "run" / "summary.json") == json.loads(
        json.dumps(summarize(result.records, meta))
    )


def test_tests_played_from_the_end_of_a_stream_under_its_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver pattern of the README: a stream, then each test from a copy of its final learner,
    in a directory holding the stream's alias-salt."""
    from continual_arc.cli import main

    monkeypatch.chdir(tmp_path)
    for flags, name in (
        (["--no-epilogue"], "stream"),
        (["--test", "held-out"], "held-out"),
        (["--test", "seen"], "seen"),
    ):
        assert main(["schedule", "make", "--config", "toy-smoke", *flags, "--out", f"{name}.json"]) == 0
    walker = ToyRuleLearner()
    run(walker, Schedule.load("stream.json"), out_dir="played/stream")
    for name in ("held-out", "seen"):
        target = Path("played") / name
        target.mkdir()
        shutil.copy(Path("played/stream/alias-salt"), target)
        run(copy.deepcopy(walker), Schedule.load(f"{name}.json"), out_dir=target)
    seen = read_records(Path("played/seen"))
    assert all(r["charge"] == 0 for r in seen)  # every rule was kept: answered at once
    held = read_records(Path("played/held-out"))
    assert all(r["demos_bought"] >= 1 for r in held)


KILL_SCRIPT = """
import sys, time
from continual_arc.stream.schedule import build_schedule
from continual_arc.stream.users import with_users
from continual_arc.tracks.registry import get_config
from continual_arc.runner import RunOptions, run
from continual_arc.testing import ToyRuleLearner

class Slow(ToyRuleLearner):
    def act(self, obs):
        time.sleep(0.002)
        return super().act(obs)

def show(progress):
    print("round", progress.rounds_done, flush=True)

schedule = build_schedule(with_users(get_config("toy-smoke"), 2), 5)
run(Slow(), schedule, sys.argv[1], RunOptions(resume=True, progress=show))
print("done", flush=True)
"""


@pytest.mark.heavy
def test_kill_at_random_points_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    script = tmp_path / "play.py"
    script.write_text(KILL_SCRIPT)
    out = tmp_path / "killed"
    rng = random.Random(7)
    kills = 0
    for target in (1, 3, 3, 6, 8, 10, 12):
        proc = subprocess.Popen([sys.executable, str(script), str(out)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:  # wait until the run has committed `target` rounds
            if line.startswith("done") or int(line.split()[1]) >= target:
                break
        time.sleep(rng.uniform(0.0, 0.03))  # then die somewhere in the next round or its commit
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
        proc.stdout.close()
    final = subprocess.run(
        [sys.executable, str(script), str(out)], capture_output=True, text=True, check=True
    )
    assert final.stdout.strip().endswith("done")
    assert kills >= 5
    schedule = build_schedule(with_users(TOY, 2), 5)
    straight = run(ToyRuleLearner(), schedule, twin(out, tmp_path / "straight")).records
    assert strip(read_records(out)) == strip(straight)
    assert read_json(out / "summary.json")["complete"] is True
    assert [p.name for p in (out / "state").iterdir()] == [f"round-{schedule.rounds - 1:06d}"]


def test_random_learner_is_reproducible(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, rounds=4)
    a = run(RandomLearner(3), schedule, tmp_path / "a").records
    b = run(RandomLearner(3), schedule, twin(tmp_path / "a", tmp_path / "b")).records  # guesses use the names
    assert strip(a) == strip(b)
    assert sum(len(r["actions"]) for r in a) == 4 * 8  # eight wrong guesses on each instance
    run(RandomLearner(4), schedule, tmp_path / "c")
    assert [read_json(tmp_path / "c" / "i" / "0.json")["events"][0]] != [
        read_json(tmp_path / "a" / "i" / "0.json")["events"][0]
    ]


def test_submit_grids_land_in_the_trajectory(tmp_path: Path) -> None:
    class Echo(BaseLearner):
        def act(self, obs: LearnerObservation) -> Action:
            return Submit(obs.input) if obs.attempts_used == 0 else GiveUp()

    run(Echo(), build_schedule(TOY, 0, rounds=1), tmp_path / "run")
    trajectory = read_json(tmp_path / "run" / "i" / "0.json")
    assert trajectory["events"][0]["action"]["grid"] == trajectory["input"]
    assert trajectory["events"][0]["feedback"]["correct"] is False


class Counting(BaseLearner):
    """Reports what each instance cost it, as a model learner reports its tokens."""

    stateless = True

    def __init__(self) -> None:
        self.tokens = 0.0
        self.last: dict[int, float] = {}

    def act(self, obs: LearnerObservation) -> Action:
        self.tokens += 10 + obs.step
        self.last[obs.user] = 10 + obs.step
        return GiveUp()

    def resources(self) -> dict[str, float]:
        return {"tokens": self.tokens}

    def instance_resources(self, user: int) -> dict[str, float]:
        return {"tokens": self.last[user]}


def test_records_carry_each_instances_own_counters(tmp_path: Path) -> None:
    records = run(Counting(), build_schedule(TOY, 0, rounds=3), tmp_path / "run").records
    assert [r["instance_resources"] for r in records] == [
        {"tokens": 10.0},
        {"tokens": 11.0},
        {"tokens": 12.0},
    ]
    assert [r["resources"]["tokens"] for r in records] == [10.0, 21.0, 33.0]
    assert (
        run(GiveUpLearner(), build_schedule(TOY, 0, rounds=1), tmp_path / "plain").records[0][
            "instance_resources"
        ]
        is None
    )


def test_a_kill_while_the_run_was_being_set_up_is_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schedule = build_schedule(TOY, 0, rounds=4)

    def dying_save(self: Schedule, path: Any) -> None:
        raise KeyboardInterrupt  # killed after meta.json, before schedule.json

    with monkeypatch.context() as patch:
        patch.setattr(Schedule, "save", dying_save)
        with pytest.raises(KeyboardInterrupt):
            run(ToyRuleLearner(), schedule, tmp_path / "run")
    assert (tmp_path / "run" / "meta.json").exists() and not (tmp_path / "run" / "schedule.json").exists()
    with pytest.raises(RunDirError, match="is not empty"):
        run(ToyRuleLearner(), schedule, tmp_path / "run")  # without resume it is still refused
    records = run(ToyRuleLearner(), schedule, tmp_path / "run", RunOptions(resume=True)).records
    straight = run(ToyRuleLearner(), schedule, twin(tmp_path / "run", tmp_path / "straight")).records
    assert strip(records) == strip(straight)


def test_a_temporary_file_left_by_a_killed_write_does_not_block_a_run(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / ".meta.json.x1y2.tmp").write_text('{"half": ')
    assert len(run(GiveUpLearner(), build_schedule(TOY, 0, rounds=2), tmp_path / "run").records) == 2


LEARNER_MODULE = """
from continual_arc.env import GiveUp
from continual_arc.learner import BaseLearner


class Quitter(BaseLearner):
    stateless = True

    def act(self, obs):
        return GiveUp()
"""


def test_resume_refuses_a_learner_whose_code_changed(tmp_path: Path) -> None:
    (tmp_path / "mylearner.py").write_text(LEARNER_MODULE)
    schedule = tmp_path / "s.json"
    build_schedule(TOY, 0).save(schedule)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    cli = [sys.executable, "-m", "continual_arc.cli", "run", "--learner", "mylearner:Quitter"]
    cut = tmp_path / "cut.json"
    build_schedule(TOY, 0).first_rounds(3).save(cut)
    args = ["--out", str(tmp_path / "run")]
    subprocess.run([*cli, "--schedule", str(cut), *args], env=env, check=True, capture_output=True)
    meta = read_json(tmp_path / "run" / "meta.json")
    assert meta["learner_fingerprint"]["package"] == "mylearner"
    (tmp_path / "mylearner.py").write_text(LEARNER_MODULE + "\n# a change\n")
    again = subprocess.run(
        [*cli, "--schedule", str(schedule), *args, "--resume"], env=env, capture_output=True, text=True
    )
    assert again.returncode == 2
    assert "was played by other code of mylearner:Quitter (sources_sha256" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1
