"""The Leaderboard page over the repository's stored runs, in headless Chromium: pooled seeds and cost.

The leaderboard is what ``continual-arc leaderboard --json`` writes over the stored arc1 runs (three
seeds of the program library, pooled into one row) and an arc3 run this Python cannot check (listed
as not checked here). The cost figure's points are compared with each row's cost per instance,
computed here from the stored records.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from view_support import browser, screenshot_dir

pytestmark = [pytest.mark.browser, browser]
pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")

from continual_arc.cli import main  # noqa: E402
from continual_arc.view.app import ServerThread  # noqa: E402
from continual_arc.view.catalog import build_catalog  # noqa: E402
from continual_arc.view.leaderboard import leaderboard_paths, read_leaderboard  # noqa: E402
from continual_arc.view.site import Site  # noqa: E402

SHOTS = screenshot_dir()
RUNS = Path(__file__).resolve().parents[2] / "runs"
ARC1 = ["arc1-library-seed0", "arc1-library-seed1", "arc1-library-seed2", "arc1-demo-cache-seed0"]
PLAYED_FIRST = ("board_file",)


@pytest.fixture(scope="module")
def board_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``leaderboard --json`` over the stored arc1 runs and one arc3 run."""
    out = tmp_path_factory.mktemp("stored-board") / "board.json"
    given = [str(RUNS / name) for name in [*ARC1, "arc3-explorer-seed0"]]
    assert main(["leaderboard", *given, "--no-regenerate", "--resamples", "200", "--json", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def site(board_file: Path) -> Site:
    board = read_leaderboard(board_file)
    return Site(build_catalog(leaderboard_paths(board)), live=True, leaderboard=board)


def _per_instance(name: str) -> tuple[float, float]:
    """Searches and seconds per instance over the learner's stream and both tests, from the stored records.

    The library's ``resources`` are cumulative: each play's last record holds its searches.
    """
    searches, seconds, instances = 0.0, 0.0, 0
    for play in ("stream", "seen", "held-out"):
        lines = (RUNS / name / play / "records.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines]
        primary = sorted(
            (r for r in records if r.get("episode_type", "primary") == "primary"), key=lambda r: r["step"]
        )
        searches += primary[-1]["resources"]["searches"]
        seconds += sum(r["learner_time"] for r in records)
        instances += len(primary)
    return searches / instances, seconds / instances


def test_pooled_seeds_open_onto_each_seed_and_cost_stands_beside_the_score(
    page: Any, server: ServerThread, site: Site
) -> None:
    page.goto(server.url)
    page.wait_for_selector("#leaderboard section.board-table.reported tbody tr")
    assert page.query_selector("#leaderboard section.board-table:not(.reported)") is None
    pooled = page.query_selector("#leaderboard tr.pooled")
    assert pooled is not None and pooled.get_attribute("data-seeds") == "3"
    seeds = page.query_selector_all("#leaderboard tr.seed-row")
    assert len(seeds) == 3 and all(not s.is_visible() for s in seeds)
    page.click("#leaderboard tr.pooled button.seeds-toggle")
    assert all(s.is_visible() for s in seeds)
    assert [s.inner_text().split("\t")[1] for s in seeds] == ["seed 0", "seed 1", "seed 2"]
    # Each seed's own numbers open its runs (the pooled row's are the seeds' mean).
    assert all(s.query_selector("a.num-link") is not None for s in seeds)
    # Per instance, as the records give it: the pooled row over all three seeds, each seed its own.
    for i, shown in enumerate(s.query_selector("td.per-instance").inner_text() for s in seeds):
        searches, seconds = _per_instance(f"arc1-library-seed{i}")
        assert shown == f"{searches:.2f} searches, {seconds:.3f} s"
    shown = page.inner_text("#leaderboard section.board-table.reported td.standing")
    assert shown.startswith("reported") and "records only" in shown
    # The cost figure: two points per row (held-out and seen), one row per learner (3 of them here).
    labels = page.eval_on_selector_all(
        "#leaderboard svg.cost circle", "cs => cs.map(c => c.getAttribute('data-label'))"
    )
    assert len(labels) == 2 * len(site.document("leaderboard")["reported"][0]["rows"])
    assert any("held-out test" in label and "per instance" in label for label in labels)
    # The plane is full width, and its points are apart: no two circles on the same pixel.
    width = page.evaluate(
        "document.querySelector('#leaderboard svg.plane-wide').getBoundingClientRect().width"
    )
    assert width > 900
    centres = page.eval_on_selector_all(
        "#leaderboard svg.plane-wide circle",
        "cs => cs.map(c => [+c.getAttribute('cx'), +c.getAttribute('cy')])",
    )
    assert all(
        abs(a[0] - b[0]) + abs(a[1] - b[1]) > 8 for i, a in enumerate(centres) for b in centres[i + 1 :]
    )
    text = page.inner_text("#leaderboard section.not-here")
    if importlib.util.find_spec("arcengine") is None:
        assert "arc3-explorer-seed0" in text and "Python 3.12" in text
    page.locator("#leaderboard").screenshot(path=str(SHOTS / "leaderboard-stored.png"))
