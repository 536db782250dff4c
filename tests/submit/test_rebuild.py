"""Stored runs (no trajectories): kept, rebuilt and proved equal, and ranked as records only.

The expected numbers are read from the protocol's own ``protocol.json`` and ``records.jsonl``;
the tampered copies change one record by hand.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.submit.check import check_submission
from continual_arc.submit.leaderboard import check_result, leaderboard
from continual_arc.submit.leaderboard.flags import RECORDS_ONLY
from continual_arc.submit.rebuild import RebuildError, first_difference, rebuild_run, store_run

pytestmark = pytest.mark.tampered  # stored copies are edited on purpose

TOY_RULE = "continual_arc.testing:ToyRuleLearner"
RESAMPLES = 200
FIELDS = {"student": "none", "code": "https://example.org/learner@abc123", "contact": "a@example.org"}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy rule learner's toy-smoke protocol, stored without trajectories."""
    root = tmp_path_factory.mktemp("protocol")
    play_protocol(
        ProtocolSpec.named(TOY_RULE, "toy-smoke"),
        ProtocolOptions(out=root / "played", jobs=1, resamples=RESAMPLES),
    )
    return store_run(root / "played", root / "runs" / "toy-rules-seed0", fields=FIELDS)


def _edit_charge(stored: Path, copy: Path, play: str = "stream", line: int = 1) -> Path:
    """A copy of ``stored`` whose ``play`` record at ``line`` claims one point less than it spent."""
    shutil.copytree(stored, copy)
    path = copy / play / "records.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    record = json.loads(lines[line - 1])
    record["charge"] = record["charge"] - 1 if record["charge"] else 5
    lines[line - 1] = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
    path.write_text("".join(lines))
    return copy


def _unclocked(run: Path) -> list[dict[str, object]]:
    """A run's records without the fields that time them, read by hand."""
    clocks = ("wall_time", "learner_time", "round_time", "training_resources")
    lines = (run / "records.jsonl").read_text().splitlines()
    return [{k: v for k, v in json.loads(line).items() if k not in clocks} for line in lines]


def test_a_stored_run_keeps_records_meta_and_summaries_only(stored: Path) -> None:
    assert sorted(p.name for p in stored.iterdir()) == sorted([*PROTOCOL_PLAYS.values(), "protocol.json",
                                                              "schedules", "submission.json",
                                                              "held-out-floor", "seen-floor"])  # fmt: skip
    for play in PROTOCOL_PLAYS.values():
        assert sorted(p.name for p in (stored / play).iterdir()) == [
            "alias-salt", "meta.json", "records.jsonl", "summary.json"
        ]  # fmt: skip
    submission = read_json(stored / "submission.json")
    assert {k: submission[k] for k in FIELDS} == FIELDS


def test_a_rebuild_gives_the_stored_records_and_passes_check(stored: Path, tmp_path: Path) -> None:
    rebuilt = rebuild_run(stored, tmp_path / "rebuilt", allow_ablation=True)
    assert rebuilt.difference is None and rebuilt.check.ok and rebuilt.ok
    assert not rebuilt.check.records_only  # replayed: the rebuilt runs hold their trajectories
    for play in PROTOCOL_PLAYS.values():
        assert (tmp_path / "rebuilt" / play / "i").is_dir()
        assert _unclocked(stored / play) == _unclocked(tmp_path / "rebuilt" / play)
        assert len(_unclocked(stored / play)) > 0


def test_a_tampered_stored_record_is_named_by_the_rebuild(
    stored: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = _edit_charge(stored, tmp_path / "stored", play="seen", line=2)
    status = main(["runs", "rebuild", str(copy), "--out", str(tmp_path / "rebuilt"), "--ablation"])
    err = capsys.readouterr().err
    assert status == 1
    where = copy / "seen" / "records.jsonl"
    assert (
        f"{where}, line 2, differs from the rebuilt {tmp_path / 'rebuilt' / 'seen' / 'records.jsonl'}" in err
    )
    assert "charge" in err and f"{copy} is not what its code and meta rebuild" in err


def test_first_difference_names_a_missing_record(stored: Path, tmp_path: Path) -> None:
    copy = tmp_path / "short"
    shutil.copytree(stored, copy)
    path = copy / "stream-reset" / "records.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]))
    assert first_difference(stored, copy) == (
        f"{stored / 'stream-reset' / 'records.jsonl'} holds {len(lines)} records and the rebuilt "
        f"{path} {len(lines) - 1}"
    )
    assert first_difference(stored, stored) is None


def test_a_rebuild_refuses_a_target_in_use(stored: Path, tmp_path: Path) -> None:
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "file").write_text("x")
    with pytest.raises(RebuildError, match="is not empty: give a fresh directory"):
        rebuild_run(stored, tmp_path / "used")
    with pytest.raises(RebuildError, match=r"protocol\.json is missing"):
        rebuild_run(tmp_path / "used", tmp_path / "fresh")
    with pytest.raises(RebuildError, match=f"{tmp_path / 'used'} is not a finished protocol"):
        store_run(tmp_path / "used", tmp_path / "kept")


def test_check_refuses_a_stored_run_unless_records_only_is_allowed(stored: Path) -> None:
    strict = check_submission(stored, resamples=RESAMPLES, allow_ablation=True)
    assert not strict.ok and all("/i/" in p and p.endswith(": missing") for p in strict.problems)
    lenient = check_submission(stored, resamples=RESAMPLES, allow_ablation=True, records_only=True)
    assert lenient.ok and lenient.records_only and lenient.problems == []


def test_the_leaderboard_ranks_a_stored_run_as_records_only(stored: Path) -> None:
    board = leaderboard([check_result(stored, resamples=RESAMPLES, allow_ablation=True)])
    assert board.tables == ()  # signed by nobody trusted: reported
    ((row,),) = [t.rows for t in board.reported]
    plane = read_json(stored / "protocol.json")["plane"]
    assert row.stream.budget_used == pytest.approx(plane["learned"]["learner"]["budget_used"])
    assert row.seen["share_saved"].value == pytest.approx(plane["seen"]["share_saved"]["value"])
    assert row.records_only and RECORDS_ONLY not in row.flags and row.status == "reported"


def test_a_stored_run_with_one_charge_edited_is_refused_not_ranked(stored: Path, tmp_path: Path) -> None:
    copy = _edit_charge(stored, tmp_path / "runs" / "toy", line=3)
    board = leaderboard([check_result(copy, resamples=RESAMPLES, allow_ablation=True)])
    assert board.tables == ()
    (refusal,) = board.refused
    record = json.loads((copy / "stream" / "records.jsonl").read_text().splitlines()[2])
    original = json.loads((stored / "stream" / "records.jsonl").read_text().splitlines()[2])
    assert refusal.reason.startswith(
        f"{copy / 'stream' / 'records.jsonl'}, line 3: step {record['step']}: "
        f"charge {record['charge']} (the actions give {original['charge']})"
    )


def test_a_rebuild_without_ablation_says_its_records_are_the_stored_ones(
    stored: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # toy-smoke is not canonical: the records rebuild equal, and only check refuses, for that alone
    status = main(["runs", "rebuild", str(stored), "--out", str(tmp_path / "rebuilt")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 1
    assert err[-1] == (
        f"{stored} rebuilds to its stored records, but check refuses the rebuilt directory "
        "for the problems above"
    )
    refusals = [line for line in err if line.startswith(str(tmp_path / "rebuilt"))]
    assert len(refusals) == len(PROTOCOL_PLAYS) + 2  # and the track's floor on each test
    assert all("not canonical" in line and line.endswith("with --ablation") for line in refusals)
    assert not any("is not what its code and meta rebuild" in line for line in err)
