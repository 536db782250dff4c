"""The floor flag in check and on the leaderboard: read against the checker's own floor, never the copy.

A protocol on toy-smoke (the toy rule learner, whose reset is far better than the floor: no flag)
is checked as written, then with its floor copy weakened by a hostile author (a problem, and the
flag still reads the checker's floor), then without any floor (``floor not played``, never a
failure). The dodging learners on arc1 are in ``test_floor_dodgers.py``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.measure.report import recompute_summary
from continual_arc.play.rundir import read_records, read_run
from continual_arc.protocol.floor import FLOOR_CACHE
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.submit.check import check_submission
from continual_arc.submit.leaderboard.flags import flags as leaderboard_flags
from continual_arc.submit.rebuild import rebuild_run, store_run

pytestmark = pytest.mark.own_caches  # these tests read and clear the floor cache

TOY_RULE = "continual_arc.testing:ToyRuleLearner"
GRID_FLOOR = "continual_arc_baselines.floors:GridFloorLearner"


@pytest.fixture
def played(tmp_path: Path) -> Path:
    out = tmp_path / "p"
    play_protocol(
        ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=out, resamples=200, plots=False)
    )
    return out


def _weaken(run: Path) -> None:
    """Rewrite a floor copy as a hostile author would: every instance given up, summary recomputed."""
    records = read_records(run)
    forged = [{**r, "charge": r["max_cost"], "solved": False} for r in records]
    (run / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in forged))
    loaded = read_run(run)
    summary, _ = recompute_summary(loaded.records, loaded.meta, loaded.summary)
    atomic_write_json(run / "summary.json", summary)


def test_a_protocol_checks_with_its_floor_read_beside_each_test(played: Path) -> None:
    result = check_submission(played, resamples=200, draft=True)
    assert result.ok, result.problems
    assert result.numbers is not None
    entries = {b["test"]: b for b in result.numbers["flags"].to_json()["below_floor"]}
    for test in ("held-out", "seen"):
        floor, reset = read_records(played / f"{test}-floor"), read_records(played / f"{test}-reset")
        assert entries[test]["floor"] == GRID_FLOOR
        assert entries[test]["floor_used"] == pytest.approx(
            100 * sum(r["charge"] / r["max_cost"] for r in floor) / len(floor)
        )
        assert entries[test]["reset_used"] == pytest.approx(
            100 * sum(r["charge"] / r["max_cost"] for r in reset) / len(reset)
        )
        assert not entries[test]["flagged"]  # the toy rule learner's reset beats the search
    assert not any("floor" in f for f in leaderboard_flags(result.numbers))


@pytest.mark.tampered
def test_a_weakened_floor_copy_is_a_problem_and_never_read(played: Path) -> None:
    honest = check_submission(played, resamples=200, draft=True)
    assert honest.numbers is not None
    _weaken(played / "seen-floor")
    result = check_submission(played, resamples=200, draft=True)
    assert not result.ok
    forged = [p for p in result.problems if "not the track's floor" in p]
    assert len(forged) == 1
    assert forged[0].startswith(f"{played / 'seen-floor'}: not the track's floor on the seen test: ")
    assert "instance(s) differ from the floor played here" in forged[0]
    # the flag still reads the floor played here: the same numbers as before the forgery
    assert result.numbers is not None
    assert (
        result.numbers["flags"].to_json()["below_floor"] == honest.numbers["flags"].to_json()["below_floor"]
    )


@pytest.mark.tampered
def test_a_floor_copy_played_by_another_learner_is_refused(played: Path) -> None:
    meta = read_json(played / "held-out-floor" / "meta.json")
    meta["learner"] = {"class": TOY_RULE, "kwargs": {}}
    atomic_write_json(played / "held-out-floor" / "meta.json", meta)
    result = check_submission(played, resamples=200, draft=True, regenerate=False)
    assert any("not the floor" in p and "held-out-floor" in p for p in result.problems)


def test_a_result_without_a_floor_says_floor_not_played(
    played: Path, capsys: pytest.CaptureFixture[str], _isolated_data_dir: Path
) -> None:
    for test in ("held-out", "seen"):
        shutil.rmtree(played / f"{test}-floor")
    submission = read_json(played / "submission.json")
    for test in ("held-out", "seen"):
        del submission["tests"][test]["floor"]  # as the stored runs name none
    atomic_write_json(played / "submission.json", submission)
    shutil.rmtree(_isolated_data_dir / FLOOR_CACHE)
    result = check_submission(played, resamples=200, draft=True)
    assert result.ok, result.problems
    assert result.numbers is not None
    assert [b.floor for b in result.numbers["flags"].below_floor] == [None, None]
    assert not (_isolated_data_dir / FLOOR_CACHE).exists()  # nothing named, nothing played
    assert "floor not played" in leaderboard_flags(result.numbers)
    assert main(["check", str(played), "--draft", "--resamples", "200", "--no-regenerate"]) == 0
    assert "  floor not played\n" in capsys.readouterr().out


def test_the_checker_reads_only_its_cache_when_told_not_to_play(
    played: Path, _isolated_data_dir: Path
) -> None:
    shutil.rmtree(_isolated_data_dir / FLOOR_CACHE)  # another machine: nothing cached there
    result = check_submission(played, resamples=200, draft=True, play_floor=False)
    assert result.numbers is not None
    assert [b.floor for b in result.numbers["flags"].below_floor] == [None, None]
    assert not (_isolated_data_dir / FLOOR_CACHE).exists()
    played_here = check_submission(played, resamples=200, draft=True)  # plays it, and caches it
    assert played_here.numbers is not None
    assert [b.floor for b in played_here.numbers["flags"].below_floor] == [
        GRID_FLOOR,
        GRID_FLOOR,
    ]
    assert len(list((_isolated_data_dir / FLOOR_CACHE).iterdir())) == 2


def test_a_stored_run_keeps_its_floor_and_checks_against_it(played: Path, tmp_path: Path) -> None:
    stored = store_run(played, tmp_path / "stored")
    for test in ("held-out", "seen"):
        assert (stored / f"{test}-floor" / "records.jsonl").read_bytes() == (
            played / f"{test}-floor" / "records.jsonl"
        ).read_bytes()
    result = check_submission(stored, resamples=200, draft=True, records_only=True)
    assert result.ok, result.problems
    assert result.numbers is not None
    assert [b.floor for b in result.numbers["flags"].below_floor] == [GRID_FLOOR, GRID_FLOOR]


def test_a_run_stored_before_the_floor_gains_it_when_rebuilt(played: Path, tmp_path: Path) -> None:
    stored = store_run(played, tmp_path / "stored")
    submission = read_json(stored / "submission.json")
    for test in ("held-out", "seen"):  # as the repository's runs were stored: no floor at all
        shutil.rmtree(stored / f"{test}-floor")
        del submission["tests"][test]["floor"]
    atomic_write_json(stored / "submission.json", submission)
    rebuilt = rebuild_run(stored, tmp_path / "rebuilt", allow_ablation=True)
    assert rebuilt.difference is None
    document = read_json(tmp_path / "rebuilt" / "submission.json")
    assert {t: document["tests"][t]["floor"] for t in ("held-out", "seen")} == {
        "held-out": "held-out-floor",
        "seen": "seen-floor",
    }
    assert rebuilt.check.numbers is not None
    assert [b.floor for b in rebuilt.check.numbers["flags"].below_floor] == [
        GRID_FLOOR,
        GRID_FLOOR,
    ]
