from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sweep_checks import TOY_PAIR, interrupted_sweep, plays, slow, write_spec

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.sweep.collect import collect, rows
from continual_arc.sweep.driver import SweepOptions, run_sweep
from continual_arc.sweep.engines import EngineError, make_engine
from continual_arc.sweep.spec import load_spec
from continual_arc.sweep.table import markdown, table_csv


def _numbers(csv: str) -> list[list[str]]:
    """The CSV's rows without the learner's label (pooled by hand, a row is named by its class)."""
    return [line.split(",")[2:] for line in csv.splitlines()[1:]]


def test_a_local_sweep_plays_resumes_and_pools(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = load_spec(write_spec(tmp_path / "toy.toml", TOY_PAIR))
    out = tmp_path / "sweep"
    result = run_sweep(SweepOptions(spec, out, engine="local", max_parallel=2))
    assert result.complete and set(result.status.values()) == {"done"} and len(result.status) == 4 * 7
    table = rows(collect([out]), resamples=500)
    text = markdown(table)
    assert "| 1 | toy keep=true | toy-smoke, 1 user | 0, 1 | " in text
    assert "| 2 | toy keep=false | toy-smoke, 1 user | 0, 1 | " in text
    keep = table[0]
    assert keep.learned is not None and keep.learned.share_learned.value == 1.0
    assert keep.seen is not None and keep.seen.share_saved.value == 1.0

    again = run_sweep(SweepOptions(spec, out, engine="local", max_parallel=2))
    assert set(again.status.values()) == {"skipped"}  # nothing reaches a worker

    protocols = sorted(str(p) for p in (out / "protocols").glob("*/*"))
    by_hand = rows(collect(protocols), resamples=500)
    assert _numbers(table_csv(by_hand)) == _numbers(table_csv(table))
    # every play of the learner's (the floor's copies beside them are the floor's runs, one per protocol)
    runs = sorted(str(p.parent) for p in (out / "protocols").glob("*/*/*/meta.json")
                  if p.parent.name in PROTOCOL_PLAYS.values())  # fmt: skip
    assert _numbers(table_csv(rows(collect(runs), resamples=500))) == _numbers(table_csv(table))
    assert main(["pool", *protocols, "--resamples", "500", "--csv"]) == 0
    assert _numbers(capsys.readouterr().out) == _numbers(table_csv(table))
    # Each protocol directory is a submission once a person names the model, code and contact.
    submission = Path(protocols[0]) / "submission.json"
    people = {"student": "none", "code": "https://example.org/l@abc", "contact": "a@b.c"}
    atomic_write_json(submission, read_json(submission) | people)
    assert main(["check", protocols[0], "--ablation", "--resamples", "200"]) == 0


def test_the_command_writes_the_table_and_a_failure_fails_what_waits_for_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    body = '[[learners]]\nname = "broken"\nclass = "slow_learner:BrokenAfterLearning"\n'
    spec = write_spec(tmp_path / "broken.toml", body, seeds="[0]")
    out = tmp_path / "sweep"
    assert main(["sweep", str(spec), "--out", str(out), "--engine", "local", "--max-parallel", "2"]) == 1
    captured = capsys.readouterr()
    assert "failed: protocols/broken/toy-smoke-users1-seed0/stream: LearnerError" in captured.err
    assert "failed: protocols/broken/toy-smoke-users1-seed0/seen: a unit it waits for failed" in captured.err
    assert (out / "protocols/broken/toy-smoke-users1-seed0/.sweep/stream.error").exists()
    assert (out / "protocols/broken/toy-smoke-users1-seed0/seen-reset/summary.json").exists()
    assert "| 1 | broken | toy-smoke, 1 user | - (missing 0) |" in captured.out
    assert (out / "table.md").read_text() == captured.out.split("written to")[0]
    assert (out / "spec.toml").read_text() == spec.read_text()


def test_ray_missing_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(
        EngineError,
        match=r"^--engine ray needs Ray, the optional extra continual-arc\[ray\]: "
        r"pip install -e '\.\[ray\]' in the repository's clone$",
    ):
        make_engine("ray")
    with pytest.raises(EngineError, match="--address"):
        make_engine("local", address="auto")


@pytest.mark.slow
def test_a_killed_worker_and_a_killed_driver_lose_and_double_nothing_locally(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    run_sweep(
        SweepOptions(load_spec(write_spec(tmp_path / "ref.toml", slow(0.0))), reference, engine="local")
    )
    out = tmp_path / "sweep"
    spec = write_spec(tmp_path / "slow.toml", slow(0.4))
    seen = interrupted_sweep(spec, out, ["--engine", "local", "--max-parallel", "2"])
    assert seen["retried_by"] != seen["killed_worker"] and seen["stream_resumes"]
    assert plays(out) == plays(reference)  # every slot once, as an uninterrupted sweep plays it
    assert (out / "table.md").read_text() == markdown(rows(collect([reference]), resamples=500))
