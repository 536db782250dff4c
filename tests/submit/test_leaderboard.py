"""The leaderboard over result directories: checked first, ranked by U per track and users.

The expected numbers are read from each protocol's own ``protocol.json`` and ``records.jsonl``, not
from the code under test.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.measure.pool import BudgetEstimate
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.submit.leaderboard import (
    Checked,
    LeaderboardError,
    check_result,
    find_results,
    leaderboard,
)
from continual_arc.submit.leaderboard import board as board_module
from continual_arc.submit.leaderboard.formats import CSV_COLUMNS, leaderboard_markdown
from continual_arc.submit.standing import Standing, StandingKind

pytestmark = pytest.mark.tampered  # one result is edited on purpose

RANDOM = "continual_arc.testing:RandomLearner"
TOY_RULE = "continual_arc.testing:ToyRuleLearner"
RESAMPLES = 200


def _protocol(root: Path, learner: str, users: int = 1) -> Path:
    play_protocol(
        ProtocolSpec.named(learner, "toy-smoke", users=users),
        ProtocolOptions(out=root, jobs=1, resamples=RESAMPLES),
    )
    submission = read_json(root / "submission.json")
    submission.update(student="none", code="https://example.org/learner@abc123", contact="a@example.org")
    atomic_write_json(root / "submission.json", submission)
    return root


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three honest results on toy-smoke: two learners at 1 user, one at 2 users."""
    root = tmp_path_factory.mktemp("results") / "results" / "toy"
    _protocol(root / "random", RANDOM)
    _protocol(root / "rules", TOY_RULE)
    _protocol(root / "rules-2", TOY_RULE, users=2)
    return root.parent


def _tampered(results: Path, tmp_path: Path) -> Path:
    """A copy of the results in which one stream record claims a cheaper instance."""
    copy = tmp_path / "results"
    shutil.copytree(results, copy)
    path = copy / "toy" / "random" / "stream" / "records.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    record = json.loads(lines[0])
    record["charge"] = 0
    lines[0] = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
    path.write_text("".join(lines))
    return copy


def _records(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]


def _u_and_error(run: Path) -> tuple[float, float]:
    """U and its standard error over tasks, from the stream's records by hand."""
    by_task: dict[str, list[float]] = {}
    for r in _records(run):
        if r["phase"] == "stream" and r.get("episode_type", "primary") == "primary":
            by_task.setdefault(r["task_id"], []).append(100.0 * r["charge"] / r["max_cost"])
    n = sum(len(v) for v in by_task.values())
    u = sum(sum(v) for v in by_task.values()) / n
    t = len(by_task)
    spread = sum((sum(v) - u * len(v)) ** 2 for v in by_task.values())
    return u, math.sqrt(t / (t - 1) * spread) / n


def _checked(results: Path) -> list[Checked]:
    return [check_result(p, resamples=RESAMPLES, allow_ablation=True) for p in find_results([results])]


def test_two_learners_are_ranked_by_u_with_the_numbers_of_their_protocols(results: Path) -> None:
    board = leaderboard(_checked(results))
    assert board.tables == ()  # self-run, signed by no trusted key: every row is reported
    assert [(t.track, t.users) for t in board.reported] == [("toy", 1), ("toy", 2)]
    assert board.refused == () and board.not_here == ()
    one = board.reported[0].rows
    assert [Path(r.path).name for r in one] == ["rules", "random"]  # the rule keeper spends less
    assert [r.rank for r in one] == [1, 2]
    for row in (*one, *board.reported[1].rows):
        plane = read_json(Path(row.path) / "protocol.json")["plane"]
        u, error = _u_and_error(Path(row.path) / "stream")
        assert row.stream.budget_used == pytest.approx(u)
        assert row.stream.budget_used == pytest.approx(plane["learned"]["learner"]["budget_used"])
        assert row.stream.standard_error == pytest.approx(error)
        assert row.reset["budget_used"] == pytest.approx(plane["learned"]["reset"]["budget_used"])
        assert row.learned is not None
        assert row.learned.value == pytest.approx(plane["learned"]["share_learned"]["value"])
        assert row.seen["share_saved"].value == pytest.approx(plane["seen"]["share_saved"]["value"])
        held = plane["held_out"]
        assert row.held_out["share_saved"].value == pytest.approx(held["share_saved"]["value"])
        assert row.held_out["learner"]["share_solved"] == pytest.approx(held["learner"]["share_solved"])
        assert row.student == "none" and row.status == "reported"
        plays = [Path(row.path) / play for play in ("stream", "seen", "held-out")]
        records = [r for play in plays for r in _records(play)]
        assert row.spend is not None and row.spend.usd is None and row.spend.searches is None
        assert row.spend.instances == sum(r.get("episode_type", "primary") == "primary" for r in records)
        assert row.spend.learner_seconds == pytest.approx(sum(r["learner_time"] for r in records))
        ablation = "ablation: track toy has no canonical configuration"
        if Path(row.path).name == "random":  # a learner that gives up: its reset too, below the floor
            assert row.flags[0] == ablation and len(row.flags) == 2
            assert row.flags[1].startswith("FLAG: the seen reset plays below the floor")
        else:
            assert row.flags == (ablation,)
    keeper, random = (row.stream.budget_used for row in one)
    assert keeper is not None and random == pytest.approx(100.0) and keeper < 100.0


def test_a_tampered_result_is_shown_refused_and_never_ranked(results: Path, tmp_path: Path) -> None:
    board = leaderboard(_checked(_tampered(results, tmp_path)))
    ranked = [Path(r.path).name for t in board.reported for r in t.rows]
    assert ranked == ["rules", "rules-2"]
    (refusal,) = board.refused
    assert Path(refusal.path).name == "random" and refusal.name == "RandomLearner on toy-smoke, seed 0"
    where = Path(refusal.path) / "stream" / "records.jsonl"
    assert refusal.reason == f"{where}, line 1: step 0: charge 0 (the actions give 16)"
    text = leaderboard_markdown(board)
    assert "## Refused by the checker (not ranked)" in text
    assert f"- {refusal.path} (RandomLearner on toy-smoke, seed 0): {refusal.reason}" in text


def test_a_canonical_check_refuses_an_ablation_unless_asked(results: Path) -> None:
    board = leaderboard([check_result(results / "toy" / "rules", resamples=RESAMPLES)])
    (refusal,) = board.refused
    # each of the six plays is not canonical, and the floor's run on each test
    assert board.tables == board.reported == () and refusal.problems == 8
    assert refusal.reason.endswith(
        "not canonical (track toy has no canonical configuration); check an ablation with --ablation"
    )


def test_the_three_formats_agree(results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path, json_path = tmp_path / "board.csv", tmp_path / "board.json"
    args = ["leaderboard", str(results), "--ablation", "--resamples", str(RESAMPLES)]
    assert main([*args, "--csv", str(csv_path), "--json", str(json_path)]) == 0
    markdown = capsys.readouterr().out
    lines = markdown.splitlines()
    assert lines[0] == "No verified or reproduced result: the main tables are empty."
    first = lines.index("## toy, 1 user (reported)")
    assert "## toy, 2 users (reported)" in lines
    assert lines[first + 4].startswith("| 1 | ToyRuleLearner on toy-smoke, seed 0 |")
    assert lines[first + 5].startswith("| 2 | RandomLearner on toy-smoke, seed 0 |")
    assert "| 100.0 ± 0.0 | 0.0 | 100.0 | 0.0 |" in lines[first + 5]
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text())))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [(r["users"], r["rank"], Path(r["path"]).name) for r in rows] == [
        ("1", "1", "rules"),
        ("1", "2", "random"),
        ("2", "1", "rules-2"),
    ]
    document = read_json(json_path)
    assert document == leaderboard(_checked(results)).to_json()
    for row, table_row in zip(rows, [r for t in document["reported"] for r in t["rows"]], strict=True):
        assert float(row["U"]) == table_row["stream"]["budget_used"]
        assert float(row["seen_saved"]) == table_row["seen"]["share_saved"]["value"]


def test_a_refused_result_sets_the_exit_status(
    results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = _tampered(results, tmp_path)
    csv_path = tmp_path / "board.csv"
    assert main(["leaderboard", str(copy), "--ablation", "--csv", str(csv_path)]) == 1
    captured = capsys.readouterr()
    assert "1 result(s) refused by the checker: not ranked" in captured.err
    refused = [r for r in csv.DictReader(io.StringIO(csv_path.read_text())) if r["status"] == "refused"]
    assert [Path(r["path"]).name for r in refused] == ["random"] and refused[0]["U"] == ""


def test_a_directory_that_is_not_a_result_gets_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["leaderboard", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"continual-arc: error: {tmp_path / 'empty'} is not a result: neither it nor any folder under it "
        "holds submission.json (continual-arc protocol writes one)"
    )
    assert main(["leaderboard", str(tmp_path / "missing")]) == 2
    assert "is not a directory" in capsys.readouterr().err
    with pytest.raises(LeaderboardError):
        find_results([tmp_path / "empty"])


def test_a_result_named_twice_is_ranked_once(results: Path) -> None:
    rules = results / "toy" / "rules"
    assert find_results([rules, results / "toy"]) == [
        rules,
        results / "toy" / "random",
        results / "toy" / "rules-2",
    ]


@pytest.fixture(scope="module")
def checked(results: Path) -> list[Checked]:
    return _checked(results)


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_the_ranking_is_by_u_whatever_the_order_given(checked: list[Checked], data: st.DataObject) -> None:
    spent = st.one_of(st.none(), st.floats(0, 100))
    changed = [
        dataclasses.replace(c, stream=BudgetEstimate(data.draw(spent), None, 0.0, 1, 1)) for c in checked
    ]
    shuffled = data.draw(st.permutations(changed))
    board = leaderboard(shuffled)
    assert board == leaderboard(changed)
    for table in (*board.tables, *board.reported):
        used = [math.inf if r.stream.budget_used is None else r.stream.budget_used for r in table.rows]
        assert used == sorted(used) and [r.rank for r in table.rows] == list(range(1, len(used) + 1))


def test_end_to_end_a_self_run_result_is_reported_beneath_a_signed_one(
    results: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The signature itself is the signing module's (tested there): here the rules result is one a
    # trusted key signed, and the random one is self-run.
    real = board_module.standing_of

    def signed_rules(directory: Path, trusted: Any) -> Standing:
        if Path(directory).name == "rules":
            return Standing(StandingKind.VERIFIED, "signed by the maintainers' key", signer="maintainers")
        return real(directory, trusted)

    monkeypatch.setattr(board_module, "standing_of", signed_rules)
    one_user = [results / "toy" / "rules", results / "toy" / "random"]
    assert main(["leaderboard", *map(str, one_user), "--ablation", "--resamples", str(RESAMPLES)]) == 0
    lines = capsys.readouterr().out.splitlines()
    main_table = lines.index("## toy, 1 user")
    reported = lines.index("## toy, 1 user (reported)")
    assert main_table < reported
    assert lines[main_table + 4].startswith("| 1 | ToyRuleLearner on toy-smoke, seed 0 |")
    assert lines[main_table + 4].endswith("| verified (signed by maintainers) |")
    # The random learner spends more: it is first of its own table, never second of the verified one.
    assert lines[reported + 4].startswith("| 1 | RandomLearner on toy-smoke, seed 0 |")
    assert not any(line.startswith("| 2 |") for line in lines[main_table:reported])
