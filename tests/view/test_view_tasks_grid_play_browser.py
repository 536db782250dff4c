"""The Tasks page plays a grid task by hand in headless Chromium, as a run's page does.

A fresh instance of a toy task is opened from its card; the demonstration the page draws is read
back from its canvas and compared with the instance opened here at the seed the server chose, and
the outcome names the charge alone (no learner played it). Needs the view extra, Playwright and
Debian's Chromium; skipped, saying so, without them.
"""

from __future__ import annotations

from typing import Any

import pytest
from view_support import browser, drawn

pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")
pytestmark = [pytest.mark.browser, browser]

from continual_arc.core.environment import EnvSettings  # noqa: E402
from continual_arc.tracks.registry import get_track  # noqa: E402
from continual_arc.view.app import ServerThread  # noqa: E402
from continual_arc.view.catalog import build_catalog  # noqa: E402
from continual_arc.view.site import Site  # noqa: E402
from continual_arc.view.tasks import TaskBrowser  # noqa: E402


@pytest.fixture(scope="module")
def site() -> Site:
    """The toy track's tasks alone, live (playing needs the server)."""
    return Site(build_catalog([]), live=True, tasks=TaskBrowser(only={"toy"}))


def test_a_grid_task_is_played_by_hand_from_its_card(server: ServerThread, page: Any) -> None:
    page.goto(server.url + "#page=tasks")
    page.wait_for_selector(".task-card[data-loaded=true] [data-play-task]")
    task = page.get_attribute(".task-card[data-loaded=true] [data-play-task]", "data-play-task")
    page.click(f"[data-play-task='{task}']")
    page.wait_for_selector("#tasks-play .play-board:not([hidden]) canvas[data-role=play-input]")
    seed = int(page.get_attribute("#tasks-play", "data-seed"))
    env: Any = get_track("toy").open("stream", task, seed, EnvSettings())
    assert drawn(page, "#tasks-play canvas[data-role=play-input]") == [list(r) for r in env.instance.input]
    page.click("#tasks-play [data-act=demo]")
    page.wait_for_selector("#tasks-play canvas[data-role=play-demo-in-1]")
    given, answer = env.instance.demonstration(0)
    assert drawn(page, "#tasks-play canvas[data-role=play-demo-in-1]") == [list(r) for r in given]
    assert drawn(page, "#tasks-play canvas[data-role=play-demo-out-1]") == [list(r) for r in answer]
    page.click("#tasks-play [data-act=give-up]")
    page.wait_for_selector("#tasks-play[data-done=true]")
    outcome = page.inner_text("#tasks-play .outcome")
    assert "You were charged" in outcome and "The learner on this task" not in outcome
