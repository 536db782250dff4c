"""``continual-arc view --leaderboard FILE``: the file read, its results viewed, each row tied to its runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.protocol.play import ProtocolOptions, play_protocol
from continual_arc.view.catalog import build_catalog
from continual_arc.view.leaderboard import LeaderboardFileError, leaderboard_document, read_leaderboard


@pytest.fixture(scope="module")
def board_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``leaderboard --json`` over one toy result."""
    root = tmp_path_factory.mktemp("board") / "results" / "rules"
    play_protocol(
        ProtocolOptions(
            out=root, learner="continual_arc.testing:ToyRuleLearner", config="toy-smoke", resamples=200
        )
    )
    submission = read_json(root / "submission.json")
    submission.update(student="none", code="https://example.org/l@abc", contact="a@example.org")
    atomic_write_json(root / "submission.json", submission)
    out = root.parent.parent / "board.json"
    assert main(["leaderboard", str(root), "--ablation", "--resamples", "200", "--json", str(out)]) == 0
    return out


def test_each_number_is_tied_to_the_run_it_was_read_from(board_file: Path) -> None:
    board = read_leaderboard(board_file)
    row = board["tables"][0]["rows"][0]
    catalog = build_catalog([row["path"]])
    (protocol,) = catalog.protocols.values()
    document = leaderboard_document(board, catalog, live=True)
    shown = document["tables"][0]["rows"][0]
    assert shown["protocol"] == protocol.id and shown["runs"] == protocol.plays
    assert catalog.runs[shown["runs"]["stream"]].path == Path(row["path"]) / "stream"
    assert document["problems"] == []
    elsewhere = leaderboard_document(board, build_catalog([board_file.parent]), live=False)
    # An export names the result by its label (from the folder given), never by its local path.
    assert elsewhere["tables"][0]["rows"][0]["path"] == f"{board_file.parent.name}/results/rules"


def test_the_export_holds_the_leaderboard(board_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert main(["view", "--leaderboard", str(board_file), "--export", str(out)]) == 0
    assert (out / "data" / "leaderboard.js").read_text().startswith('CAV.deliver("leaderboard",')


def test_a_file_that_is_not_a_leaderboard_gets_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"format": 1}')
    assert main(["view", "--leaderboard", str(other)]) == 2
    assert capsys.readouterr().err == (
        f"continual-arc: error: {other} is not a leaderboard written by continual-arc leaderboard --json\n"
    )
    with pytest.raises(LeaderboardFileError, match="does not exist"):
        read_leaderboard(tmp_path / "missing.json")
