"""The viewer's *Leaderboard* page in headless Chromium: every number opens the replay of its run.

The leaderboard is the file ``continual-arc leaderboard --json`` writes over two toy results and a
tampered copy of one; the view is given that file, as ``continual-arc view --leaderboard`` does.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from view_support import browser, screenshot_dir

pytestmark = [pytest.mark.browser, pytest.mark.tampered, browser]
pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")

from continual_arc.cli import main  # noqa: E402
from continual_arc.core.files import atomic_write_json, read_json  # noqa: E402
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol  # noqa: E402
from continual_arc.view.app import ServerThread  # noqa: E402
from continual_arc.view.catalog import build_catalog  # noqa: E402
from continual_arc.view.export import export_site  # noqa: E402
from continual_arc.view.leaderboard import leaderboard_paths, read_leaderboard  # noqa: E402
from continual_arc.view.site import Site  # noqa: E402

SHOTS = screenshot_dir()
PLAYED_FIRST = ("board_file",)  # its protocols' plays fork: before Chromium starts its threads
LEARNERS = {"rules": "continual_arc.testing:ToyRuleLearner", "random": "continual_arc.testing:RandomLearner"}


@pytest.fixture(scope="module")
def board_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``leaderboard --json`` over two toy results and a tampered copy of the random one."""
    root = tmp_path_factory.mktemp("board") / "results"
    for name, learner in LEARNERS.items():
        play_protocol(
            ProtocolSpec.named(learner, "toy-smoke"), ProtocolOptions(out=root / name, resamples=200)
        )
        submission = read_json(root / name / "submission.json")
        submission.update(student="none", code="https://example.org/l@abc", contact="a@example.org")
        atomic_write_json(root / name / "submission.json", submission)
    shutil.copytree(root / "random", root / "tampered")
    path = root / "tampered" / "seen" / "records.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    record = json.loads(lines[0])
    record["solved"] = not record["solved"]
    lines[0] = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
    path.write_text("".join(lines))
    out = root.parent / "board.json"
    assert main(["leaderboard", str(root), "--ablation", "--resamples", "200", "--json", str(out)]) == 1
    return out


def _site(board_file: Path, *, live: bool) -> Site:
    board = read_leaderboard(board_file)
    return Site(build_catalog(leaderboard_paths(board)), live=live, leaderboard=board)


@pytest.fixture(scope="module")
def site(board_file: Path) -> Site:
    """What the module's server serves: the leaderboard and the results it names, live."""
    return _site(board_file, live=True)


def _every_number_opens_its_replay(page: Any) -> int:
    links = page.query_selector_all("#leaderboard a.num-link")
    for i, link in enumerate(links):
        run = link.get_attribute("data-run")
        page.click(f"#leaderboard a.num-link >> nth={i}")
        page.wait_for_selector(f"#replay[data-run='{run}'][data-at='0']:not([hidden])")
        assert f"run={run}" in page.evaluate("location.hash")
    return len(links)


def test_the_page_ranks_as_the_file_and_every_number_opens_a_replay(
    page: Any, server: ServerThread, site: Site
) -> None:
    document = site.document("leaderboard")
    assert document["tables"] == []  # self-run results: the reported tables alone
    (table,) = document["reported"]
    page.goto(server.url)
    page.wait_for_selector("#leaderboard table.board tbody tr")
    assert page.inner_text("#leaderboard p.no-verified").startswith("No verified or reproduced result")
    names = page.eval_on_selector_all(
        "#leaderboard section.board-table.reported tbody tr td:nth-child(2)",
        "cells => cells.map(c => c.textContent)",
    )
    assert (
        names
        == [row["name"] for row in table["rows"]]
        == [
            "ToyRuleLearner on toy-smoke, seed 0",
            "RandomLearner on toy-smoke, seed 0",
        ]
    )
    first_u = page.inner_text("#leaderboard tbody tr:first-child td:nth-child(9)")
    stream = table["rows"][0]["stream"]
    assert first_u == f"{stream['budget_used']:.1f} ± {stream['standard_error']:.1f}"
    assert len(page.query_selector_all("#leaderboard svg.plane-wide circle")) == 2
    assert page.inner_text("#leaderboard tbody tr:first-child td.standing") == "reported"
    assert "tampered" in page.inner_text("#leaderboard section.refused")
    # 7 numbers per row (U, P, reset U and P, two shares saved, the share learned), each a link.
    assert _every_number_opens_its_replay(page) == 14
    page.screenshot(path=str(SHOTS / "leaderboard.png"), full_page=True)


def test_the_exported_page_opens_from_the_file_system(page: Any, board_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    site = _site(board_file, live=False)
    export_site(site.catalog, out, leaderboard=site.leaderboard)
    page.goto((out / "index.html").as_uri())
    page.wait_for_selector("#leaderboard table.board tbody tr")
    assert page.evaluate("location.protocol") == "file:"
    assert str(board_file.parent) not in page.inner_text("#leaderboard")  # an export names no local path
    assert _every_number_opens_its_replay(page) == 14
