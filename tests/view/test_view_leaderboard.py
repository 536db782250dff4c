"""``continual-arc view --leaderboard FILE``: the file read, its results viewed, each row tied to its runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.view.catalog import build_catalog
from continual_arc.view.leaderboard import LeaderboardFileError, leaderboard_document, read_leaderboard


@pytest.fixture(scope="module")
def board_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``leaderboard --json`` over one toy result."""
    root = tmp_path_factory.mktemp("board") / "results" / "rules"
    play_protocol(
        ProtocolSpec.named("continual_arc.testing:ToyRuleLearner", "toy-smoke"),
        ProtocolOptions(out=root, resamples=200),
    )
    submission = read_json(root / "submission.json")
    submission.update(student="none", code="https://example.org/l@abc", contact="a@example.org")
    atomic_write_json(root / "submission.json", submission)
    out = root.parent.parent / "board.json"
    assert main(["leaderboard", str(root), "--ablation", "--resamples", "200", "--json", str(out)]) == 0
    return out


def test_each_number_is_tied_to_the_run_it_was_read_from(board_file: Path) -> None:
    board = read_leaderboard(board_file)
    assert board["tables"] == []  # a self-run result: reported
    row = board["reported"][0]["rows"][0]
    catalog = build_catalog([row["path"]])
    (protocol,) = catalog.protocols.values()
    document = leaderboard_document(board, catalog, live=True)
    shown = document["reported"][0]["rows"][0]
    assert shown["protocol"] == protocol.id and shown["runs"] == protocol.plays
    assert catalog.runs[shown["runs"]["stream"]].path == Path(row["path"]) / "stream"
    assert document["problems"] == []
    elsewhere = leaderboard_document(board, build_catalog([board_file.parent]), live=False)
    # An export names the result by its label (from the folder given), never by its local path.
    assert elsewhere["reported"][0]["rows"][0]["path"] == f"{board_file.parent.name}/results/rules"


def test_a_file_that_ranks_a_result_as_verified_is_not_taken_on_its_word(
    board_file: Path, tmp_path: Path
) -> None:
    board = read_leaderboard(board_file)
    (table,) = board["reported"]
    claimed = {
        **table,
        "reported": False,
        "rows": [{**table["rows"][0], "status": "verified", "signer": "me"}],
    }
    forged = {**board, "tables": [claimed], "reported": []}
    path = str(Path(table["rows"][0]["path"]).resolve())
    catalog = build_catalog([table["rows"][0]["path"]])
    trusted_here = {path: {"kind": "verified", "reason": "signed", "signer": "maintainers"}}
    assert (
        leaderboard_document(forged, catalog, live=True, standings=trusted_here)["tables"][0]["rows"][0][
            "status"
        ]
        == "verified"
    )
    unsigned = {path: {"kind": "reported", "reason": "unsigned", "signer": None}}
    document = leaderboard_document(forged, catalog, live=True, standings=unsigned)
    assert document["tables"] == []
    (moved,) = document["reported"][0]["rows"]
    assert (moved["status"], moved["standing_reason"], moved["rank"]) == ("reported", "unsigned", 1)
    assert document["problems"] == [
        f"{table['rows'][0]['path']}: the leaderboard file places it as verified, but under the keys trusted "
        "here it is reported (unsigned)"
    ]
    # The command line judges each row with the keys it trusts (here none signs anything).
    atomic_write_json(tmp_path / "forged.json", forged)
    out = tmp_path / "site"
    assert main(["view", "--leaderboard", str(tmp_path / "forged.json"), "--export", str(out)]) == 0
    assert '"tables":[]' in (out / "data" / "leaderboard.js").read_text().replace(" ", "")


def test_the_export_holds_the_leaderboard(board_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert main(["view", "--leaderboard", str(board_file), "--export", str(out)]) == 0
    assert (out / "data" / "leaderboard.js").read_text().startswith('CAV.deliver("leaderboard",')


def test_a_file_that_is_not_a_leaderboard_gets_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"format": 2}')
    assert main(["view", "--leaderboard", str(other)]) == 2
    assert capsys.readouterr().err == (
        f"continual-arc: error: {other} is not a leaderboard written by continual-arc leaderboard --json\n"
    )
    older = tmp_path / "older.json"
    older.write_text('{"format": 1, "tables": []}')
    with pytest.raises(LeaderboardFileError, match="format 1, this one reads 2"):
        read_leaderboard(older)
    with pytest.raises(LeaderboardFileError, match="does not exist"):
        read_leaderboard(tmp_path / "missing.json")


def test_an_experiment_stays_in_its_own_table_tied_to_its_runs(board_file: Path) -> None:
    board = read_leaderboard(board_file)
    (table,) = board["reported"]
    # the same result, as the leaderboard lists an experiment: in a table of its own
    tried = {**board, "reported": [], "experiments": [{**table, "experiment": True}]}
    row = table["rows"][0]
    document = leaderboard_document(tried, build_catalog([row["path"]]), live=True)
    assert document["reported"] == [] and document["tables"] == []
    (shown,) = document["experiments"][0]["rows"]
    assert document["experiments"][0]["experiment"] is True and shown["protocol"] is not None
    assert document["problems"] == []
