"""The viewer with no run, only the Tasks page (``continual-arc view --tasks ...``), in headless Chromium.

Served and exported, the page opens on the Tasks page and draws a task's grids as its document
has them; the Runs and Figures pages each say there is no run to show; no link is broken and no
request fails (a failed one is a console error). Screenshots ``tasks-alone-*.png`` are saved as in
test_view_browser.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from view_support import browser, check_first_card, screenshot_dir

pytestmark = [pytest.mark.browser, browser]
pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")

from continual_arc.view.app import ServerThread  # noqa: E402
from continual_arc.view.catalog import build_catalog  # noqa: E402
from continual_arc.view.export import export_site  # noqa: E402
from continual_arc.view.site import Site  # noqa: E402
from continual_arc.view.tasks import TaskBrowser  # noqa: E402

SHOTS = screenshot_dir()


def _site(*, live: bool) -> Site:
    return Site(build_catalog([]), live=live, tasks=TaskBrowser(only={"toy"}))


@pytest.fixture(scope="module")
def site() -> Site:
    """What the module's server serves: no run, the toy track's tasks."""
    return _site(live=True)


def _check(page: Any, site: Site, shot: str) -> None:
    """The page opened on the site's address: the Tasks page first, then Runs and Figures say so."""
    page.wait_for_selector(".task-card[data-loaded=true]")
    assert page.is_visible("#page-tasks") and not page.is_visible("#page-runs")
    assert "page=tasks" in page.evaluate("location.hash")
    assert page.is_hidden("#pages a[data-page=leaderboard]")
    check_first_card(page, site)
    page.screenshot(path=str(SHOTS / f"tasks-alone-{shot}-tasks.png"), full_page=True)
    page.click("#pages a[data-page=runs]")
    assert page.inner_text("#runs p.no-runs").startswith("No run to show")
    assert page.is_hidden("#run") and page.locator("#runs table").count() == 0
    page.screenshot(path=str(SHOTS / f"tasks-alone-{shot}-runs.png"), full_page=True)
    page.click("#pages a[data-page=figures]")
    assert page.inner_text("#page-figures p.no-runs").startswith("No run to show")
    assert page.locator("#page-figures svg").count() == 0
    page.screenshot(path=str(SHOTS / f"tasks-alone-{shot}-figures.png"), full_page=True)


def test_the_served_site_without_a_run(server: ServerThread, page: Any, site: Site) -> None:
    page.goto(server.url)
    _check(page, site, "served")
    page.goto(server.url + "#page=runs")
    page.reload()  # a page asked for by the address is kept, even with no run to show
    page.wait_for_selector("#runs p.no-runs")
    assert page.is_visible("#page-runs") and not page.is_visible("#page-tasks")


def test_the_exported_site_without_a_run(page: Any, tmp_path: Path) -> None:
    site = _site(live=False)
    export_site(site.catalog, tmp_path / "out", site=site)
    page.goto((tmp_path / "out" / "index.html").as_uri())
    assert page.evaluate("location.protocol") == "file:"
    _check(page, site, "export")
