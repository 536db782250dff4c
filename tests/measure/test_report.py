from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.env import Action, GiveUp, LearnerObservation, RequestDemos, Submit
from continual_arc.learner import BaseLearner
from continual_arc.measure.report import format_run, recompute_summary, run_report
from continual_arc.play.rundir import read_run
from continual_arc.protocol.plane import plane_point
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule, test_schedule
from continual_arc.stream.users import with_users
from continual_arc.testing import GiveUpLearner, ToyRuleLearner
from continual_arc.tracks.registry import get_config

TOY = get_config("toy-smoke")


def _protocol(root: Path, learner: ToyRuleLearner | None = None, users: int = 1) -> Path:
    """A protocol directory played by hand: stream, tests from its end, the reset on each."""
    learner = learner or ToyRuleLearner()
    config = with_users(TOY, users)
    run(learner, build_schedule(config, 0, epilogue=False), root / "stream")
    run(
        ToyRuleLearner(keep=False),
        build_schedule(config, 0, epilogue=False, reset_each=True),
        root / "stream-reset",
    )
    for test in ("held-out", "seen"):
        (root / test).mkdir(parents=True)
        shutil.copy(root / "stream" / "alias-salt", root / test)
        frozen = ToyRuleLearner()
        frozen.rules = dict(learner.rules)
        run(frozen, test_schedule(config, 0, test), root / test)
        run(ToyRuleLearner(keep=False), test_schedule(config, 0, test, width=1), root / f"{test}-reset")
    return root


def test_report_prints_the_protocol_block_phases_and_diagnostics(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    run(ToyRuleLearner(), build_schedule(TOY, 0), tmp_path / "run")
    assert main(["report", str(tmp_path / "run"), "--recompute"]) == 0
    out = capsys.readouterr().out
    assert "summary.json is exactly what records.jsonl gives" in out
    assert "protocol: toy, ablation: track toy has no canonical configuration" in out
    assert "acquisition cost (first meetings)" in out and "cost by exposure index: 0:" in out
    assert "errored instances: 0" in out and "resources: rules 7" in out  # 3 stream and 4 epilogue tasks
    assert main(["report", str(tmp_path / "run"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["phases"]["stream"]["instances"] == 9
    assert report["ends"] == {"solved": 13}


@pytest.mark.tampered
def test_report_recompute_catches_an_edited_summary(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    run(GiveUpLearner(), build_schedule(TOY, 0, rounds=3), tmp_path / "run")
    summary = read_json(tmp_path / "run" / "summary.json")
    summary["budget_used"] = 12.0
    atomic_write_json(tmp_path / "run" / "summary.json", summary)
    assert main(["report", str(tmp_path / "run"), "--recompute"]) == 1
    err = capsys.readouterr().err
    assert "budget_used: summary.json has 12.0, the records give 100.0" in err
    played = read_run(tmp_path / "run")
    assert recompute_summary(played.records, played.meta, played.summary)[1]


def test_report_plots_are_written(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    run(ToyRuleLearner(), build_schedule(TOY, 0, epilogue=False), tmp_path / "run")
    run(
        ToyRuleLearner(keep=False),
        build_schedule(TOY, 0, epilogue=False, reset_each=True),
        tmp_path / "reset",
    )
    assert main(["report", str(tmp_path / "run"), "--plots", "--reset", str(tmp_path / "reset")]) == 0
    names = sorted(p.name for p in (tmp_path / "run" / "plots").iterdir())
    for stem in ("learning_curve", "cost_by_exposure", "retention_by_gap", "charges"):
        assert f"{stem}.png" in names and f"{stem}.svg" in names
    assert (tmp_path / "run" / "plots" / "charges.png").stat().st_size > 5000


def test_learned_and_transfer_commands(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    root = _protocol(tmp_path / "p")
    assert main(["learned", str(root / "stream"), str(root / "stream-reset"), "--json"]) == 0
    learned = json.loads(capsys.readouterr().out)
    assert 0.0 < learned["share_learned"]["value"] <= 1.0  # the kept rules answer returning tasks for free
    assert learned["instances"] == 9 and learned["learnable_budget"] > 0
    assert main(["transfer", "--test", "seen", str(root / "seen"), str(root / "seen-reset")]) == 0
    out = capsys.readouterr().out
    assert "share saved  1.00 [1.00, 1.00]" in out  # every seen task's rule was kept: nothing spent
    assert main(["transfer", str(root / "held-out"), str(root / "held-out-reset"), "--json"]) == 0
    held = json.loads(capsys.readouterr().out)
    assert held["share_saved"]["value"] == pytest.approx(
        0.0
    )  # toy rules of unseen tasks: nothing carried over
    assert held["instances"] == 4


def test_transfer_refuses_runs_of_other_instances_or_tests(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    root = _protocol(tmp_path / "p")
    run(GiveUpLearner(), test_schedule(TOY, 1, "seen", width=1), tmp_path / "other-seed")
    assert main(["transfer", "--test", "seen", str(root / "seen"), str(tmp_path / "other-seed")]) == 2
    assert "cannot be read as the reset of" in (err := capsys.readouterr().err)
    assert "the reset was played at seed 1, the run at 0" in err
    assert main(["transfer", "--test", "seen", str(root / "seen"), str(root / "seen")]) == 2
    assert "is not the seen test played one instance at a time" in capsys.readouterr().err
    assert main(["learned", str(root / "stream"), str(root / "stream")]) == 2  # a stream against itself
    assert "is not the stream wiped before every slot" in capsys.readouterr().err
    assert main(["learned", str(root / "stream-reset"), str(root / "stream-reset")]) == 2
    assert "the run is not a stream played without resets" in capsys.readouterr().err
    assert main(["transfer", str(root / "seen"), str(root / "seen-reset")]) == 2
    assert "holds no held-out instances (seen); pass --test" in capsys.readouterr().err
    assert main(["transfer", str(tmp_path / "nowhere"), str(root / "seen-reset")]) == 2
    assert "not a run directory" in capsys.readouterr().err


def test_plane_of_protocol_directories(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    root = _protocol(tmp_path / "p")
    assert set(PROTOCOL_PLAYS) == {p.name for p in root.iterdir()}
    point = plane_point(root, resamples=500)
    assert point.seen.share_saved.value == pytest.approx(1.0)
    assert main(["plane", str(root), "--out", str(tmp_path / "plots"), "--resamples", "500"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("p: seen 1.00 [1.00, 1.00]") and (tmp_path / "plots" / "plane.png").exists()
    assert point.setting == "toy-smoke, 1 user(s)"
    two = _protocol(tmp_path / "two", users=2)
    assert main(["plane", str(root), str(two), "--out", str(tmp_path / "plots")]) == 2
    err = capsys.readouterr().err
    assert "these protocols were played in 2: toy-smoke, 1 user(s); toy-smoke, 2 user(s)" in err


class Counting(BaseLearner):
    """A serial learner with global counters: two calls per instance (a demonstration, then give up)."""

    stateless = True

    def __init__(self, per_instance: bool = False) -> None:
        self.calls = 0
        self.per_instance = per_instance
        self.of_user: dict[int, int] = {}

    def act(self, obs: LearnerObservation) -> Action:
        time.sleep(0.01)  # long enough for the instances of a round to overlap measurably
        self.calls += 1
        self.of_user[obs.user] = self.of_user.get(obs.user, 0) + 1
        return RequestDemos() if obs.demos_used == 0 else GiveUp()

    def resources(self) -> dict[str, float]:
        return {"calls": float(self.calls)}

    def begin_round(self) -> None:
        self.of_user.clear()  # the runner reads an instance's counters after end_round


class CountingPerInstance(Counting):
    def instance_resources(self, user: int) -> dict[str, float]:
        return {"calls": float(self.of_user.get(user, 0))}


@pytest.mark.parametrize("learner", [Counting, CountingPerInstance])
def test_report_counts_a_four_user_run_once(tmp_path: Path, learner: type[Counting]) -> None:
    schedule = build_schedule(with_users(TOY, 4), 0, epilogue=False, rounds=5)
    result = run(learner(), schedule, tmp_path / "run")
    assert len(result.records) == 20  # 5 rounds of 4 users, two calls on each instance: 40 calls
    played = read_run(tmp_path / "run")
    report = run_report(played.path, played.meta, played.records)
    assert report["resources"] == {"calls": 40.0}
    rounds = {r["round"]: r["round_time"] for r in played.records}
    assert report["wall_time"] == pytest.approx(sum(rounds.values()))
    assert report["wall_time"] < sum(r["wall_time"] for r in played.records)  # instances overlap


class Scribbler(BaseLearner):
    stateless = True

    def act(self, obs: LearnerObservation) -> Action:
        if obs.attempts_used == 0:
            return Submit([[12]])
        if obs.attempts_used == 1:
            return Submit([[1, 2], [3]])
        return GiveUp()


def test_report_counts_invalid_submissions_and_says_why(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    run(Scribbler(), build_schedule(TOY, 0, rounds=2), tmp_path / "run")
    assert main(["report", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert "invalid submissions (charged as wrong): 4 on 2 instance(s)" in out
    assert "invalid grid: colour 12 is outside 0-9 (2)" in out
    assert "invalid grid: row has 1 cells where row 0 has 2 (2)" in out


def test_plane_of_a_folder_that_is_not_a_protocol_is_one_sentence(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    run(GiveUpLearner(), build_schedule(TOY, 0, rounds=1), tmp_path / "just-a-run")
    assert main(["plane", str(tmp_path / "just-a-run"), "--out", str(tmp_path / "plots")]) == 2
    err = capsys.readouterr().err.strip()
    assert "is not a protocol directory" in err and "seen, seen-reset, held-out, held-out-reset" in err
    assert len(err.splitlines()) == 1


def test_plane_of_a_path_that_does_not_exist_says_so(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    missing = tmp_path / "no-such-protocol"
    assert main(["plane", str(missing), "--out", str(tmp_path / "plots")]) == 2
    err = capsys.readouterr().err.strip()
    expected = f"{missing} does not exist: give a protocol directory (what continual-arc protocol writes)"
    assert err == f"continual-arc: error: {expected}"
    assert not (tmp_path / "plots").exists()


def test_plots_show_the_reset_beside_and_every_free_answer(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import continual_arc.measure.plots as plots

    root = _protocol(tmp_path / "p")
    drawn: dict[str, object] = {}
    real_save = plots._save

    def keep(fig, out, name):  # type: ignore[no-untyped-def]
        drawn[name] = fig
        return real_save(fig, out, name)

    monkeypatch.setattr(plots, "_save", keep)
    stream, reset = read_run(root / "stream").records, read_run(root / "stream-reset").records
    plots.run_plots(stream, tmp_path / "plots", reset)
    exposure = drawn["cost_by_exposure"].axes[0]  # type: ignore[attr-defined]
    assert [c.get_label() for c in exposure.containers] == ["learner", "reset"]
    free = sum(1 for r in stream if r["phase"] == "stream" and r["charge"] == 0)
    assert free > 0
    charges = drawn["charges"].axes[0]  # type: ignore[attr-defined]
    marks = [c for c in charges.collections if c.get_label() == "a free answer (charge 0)"]
    assert sum(len(c.get_offsets()) for c in marks) == free
    bars = [c for c in charges.collections if c not in marks]  # one rectangle per stream instance
    assert [len(c.get_paths()) for c in bars] == [sum(1 for r in stream if r["phase"] == "stream")]


def test_a_game_run_s_report_shows_arc_agi_3_s_scorecard_and_a_grid_run_s_none(tmp_path: Path) -> None:
    run(ToyRuleLearner(), build_schedule(TOY, 0, epilogue=False), tmp_path / "run")
    played = read_run(tmp_path / "run")
    assert "scorecard" not in run_report(played.path, played.meta, played.records)
    # Every level solved in twice its baseline's actions scores (1/2)^2 = 1/4, whatever its weight,
    # so each game and their mean score 1/4.
    assert all(r["solved"] for r in played.records)
    games = [{**r, "baseline_actions": 4, "level_actions": 8, "level_score": 0.25} for r in played.records]
    report = run_report(played.path, played.meta, games)  # type: ignore[arg-type]
    assert report["scorecard"] == {"stream": pytest.approx(0.25)}
    line = "ARC-AGI-3's scorecard (levels weighted by their index, baseline the solver's plan): stream 0.25"
    assert line in format_run(report)
    # A third of the levels (3 of 9) read against a human's count: the line says so.
    humans = [{**r, "baseline_source": "human" if i < 3 else "plan"} for i, r in enumerate(games)]
    assert len(humans) == 9
    report = run_report(played.path, played.meta, humans)  # type: ignore[arg-type]
    assert (
        report["scorecard_baseline"]
        == "human action counts on 33% of the levels, the solver's plan on the rest"
    )
    assert f"baseline {report['scorecard_baseline']}): stream 0.25" in format_run(report)
