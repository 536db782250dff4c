"""The viewer shows the flags on the reset reference beside a protocol's numbers (headless Chromium).

A toy sandbagger (tests/learners/sandbag_learner.py), verified, carries the give-up flag on each of
its three reset plays; the honest toy protocol of the viewer's results carries none. The screenshot
is ``reset-flags.png`` in the screenshot folder (see test_view_browser.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from view_support import browser, screenshot_dir

pytestmark = [pytest.mark.browser, browser]
pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")

from continual_arc.play.rundir import read_records  # noqa: E402
from continual_arc.stream.users import with_users  # noqa: E402
from continual_arc.submit.verify import VerifyOptions, verify  # noqa: E402
from continual_arc.tracks.registry import get_config  # noqa: E402
from continual_arc.view.app import ServerThread  # noqa: E402
from continual_arc.view.catalog import build_catalog  # noqa: E402
from continual_arc.view.site import Site  # noqa: E402

LEARNERS = Path(__file__).resolve().parents[1] / "learners"
PLAYED_FIRST = ("flagged", "results")  # verified and played before Chromium starts its own threads


@pytest.fixture(scope="module")
def flagged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A verified sandbagger (``sandbag/``), and a copy without protocol.json the viewer reads itself."""
    root = tmp_path_factory.mktemp("view-flags") / "results"
    out = root / "sandbag"
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(LEARNERS))  # verify compiles the learner's module before it starts
        env = {**os.environ, "PYTHONPATH": str(LEARNERS)}
        config = with_users(get_config("toy-smoke"), 1)
        verify(VerifyOptions(learner="sandbag_learner:SandbagToy", config=config, out=out, seed=7, env=env,
                             resamples=200))  # fmt: skip
    shutil.rmtree(out / "work")  # the learner processes' folders: not runs of the protocol
    computed = root / "sandbag-computed"
    shutil.copytree(out, computed)
    (computed / "protocol.json").unlink()
    return root


@pytest.fixture(scope="module")
def site(flagged: Path, results: Path) -> Site:
    """What the module's server serves: the sandbagger's protocols beside the honest toy results."""
    return Site(build_catalog([flagged, results]), live=True)


def _expected(out: Path) -> list[str]:
    """The give-up lines, counted from the records: the reset solved none, the learner some at first sight."""
    first = [r for r in read_records(out / "stream") if r["exposure_index"] == 0]
    held = read_records(out / "held-out")
    lines = []
    for play, mine in (("stream", first), ("held-out", held), ("seen", first)):
        reset = read_records(out / f"{play}-reset")
        assert not any(r["solved"] for r in reset) and any(r["solved"] for r in mine)
        tasks = {r["task_id"] for r in reset}
        mine = [r for r in mine if r["task_id"] in tasks]
        lines.append(
            f"FLAG: the {play} reset plays no better than giving up at once (it solved 0 of {len(reset)}, "
            f"the learner {sum(r['solved'] for r in mine)} of {len(mine)} at first sight of the same tasks)"
        )
    return lines


def test_a_sandbaggers_protocol_shows_its_flags_and_an_honest_one_none(
    page: Any, server: ServerThread, flagged: Path
) -> None:
    opened = page
    opened.goto(server.url)
    opened.wait_for_selector(".protocol svg.plane circle")
    cards = opened.locator(".protocol")
    texts = {cards.nth(i).locator("h3").inner_text(): cards.nth(i) for i in range(cards.count())}
    expected = _expected(flagged / "sandbag")
    shown = [label for label in texts if "sandbag" in label]
    assert len(shown) == 2  # protocol.json's flags, and the ones the viewer computed itself
    floor_lines = []
    for label in shown:
        lines = texts[label].locator(".flags p.flag").all_inner_texts()
        # protocol.json's flags also read the track's floor copied in beside the plays (the
        # sandbagger's seen reset gives up below it); the viewer's own computation reads none
        floor_lines += [line for line in lines if "below the floor" in line]
        assert [line for line in lines if "below the floor" not in line] == expected
    assert len(floor_lines) == 1 and floor_lines[0].startswith("FLAG: the seen reset plays below the floor")
    honest = [label for label in texts if "toy-rule" in label]
    assert honest and texts[honest[0]].locator(".flags").count() == 0
    texts[shown[0]].scroll_into_view_if_needed()
    opened.screenshot(path=str(screenshot_dir() / "reset-flags.png"), full_page=True)
