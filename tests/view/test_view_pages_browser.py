"""The Tasks and Figures pages in headless Chromium, served and exported: no console error, a task's
grids drawn as its document has them (read back from the canvas pixels), and each figure with as
many points and lines as its numbers. Screenshots are saved as in test_view_browser.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from view_support import browser, check_first_card, screenshot_dir

pytestmark = [pytest.mark.browser, browser]
pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")

from continual_arc.core.files import atomic_write_json  # noqa: E402
from continual_arc.view.app import ServerThread  # noqa: E402
from continual_arc.view.catalog import build_catalog  # noqa: E402
from continual_arc.view.export import export_site  # noqa: E402
from continual_arc.view.site import Site  # noqa: E402
from continual_arc.view.tasks import TaskBrowser  # noqa: E402

SHOTS = screenshot_dir()
PLAYED_FIRST = ("results",)  # the protocol is played before Chromium starts its own threads


def _site(results: Path, sweep: Path, *, live: bool) -> Site:
    catalog = build_catalog([results])
    floor = next(e.id for e in catalog.runs.values() if e.label == "results/random")
    tasks = TaskBrowser(only={"toy"})
    return Site(catalog, live=live, tasks=tasks, floors=frozenset({floor}), sweeps=(sweep,))


@pytest.fixture(scope="module")
def sweep(results: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sweep naming the toy protocol at one and two users."""
    folder = tmp_path_factory.mktemp("sweep")
    (folder / "toy").symlink_to(results / "toy-rule")
    row = {"label": "rules", "config": "toy-smoke", "seed": 0, "directory": "toy"}
    atomic_write_json(folder / "sweep.json", {"protocols": [{**row, "users": 1}, {**row, "users": 2}]})
    return folder


def _check_tasks(page: Any, site: Site) -> None:
    page.click("#pages a[data-page=tasks]")
    page.wait_for_selector(".task-card[data-loaded=true]")
    assert "page=tasks" in page.evaluate("location.hash")
    assert page.locator(".task-card").count() == 24  # one page of cards, not all 87
    check_first_card(page, site)
    page.click("[data-pager=next]")
    page.wait_for_selector(".task-card[data-task='toy-d3-c2'][data-loaded=true]")  # the second page
    page.screenshot(path=str(SHOTS / "tasks-page.png"), full_page=True)


def _check_figures(page: Any, site: Site) -> None:
    page.click("#pages a[data-page=figures]")
    page.wait_for_selector("section.figure[data-figure=users] svg")
    doc = site.document("figures")
    assert isinstance(doc, dict)
    (curve,) = doc["curves"]
    assert page.locator("circle.curve-point").count() == len(curve["learner"])
    assert page.locator("circle.reset-point").count() == len(curve["reset"])
    assert page.locator("line.floor-line").count() == len(doc["floors"]) == 1
    assert page.locator("section[data-figure=plane] circle").count() == len(doc["plane"]) == 1
    assert page.locator("circle.users-point").count() == 2 * 2  # two settings, two tests
    page.screenshot(path=str(SHOTS / "figures-page.png"), full_page=True)
    page.click(f"section[data-figure=exposure] a.num-link[data-run='{curve['run']}']")
    page.wait_for_selector(f"#replay[data-run='{curve['run']}']:not([hidden])")
    assert not page.is_visible("#page-figures")


@pytest.fixture(scope="module")
def site(results: Path, sweep: Path) -> Site:
    """What the module's server serves: the results, the toy track's tasks, a floor and the sweep."""
    return _site(results, sweep, live=True)


def test_the_served_pages(server: ServerThread, page: Any, site: Site) -> None:
    page.goto(server.url)
    page.wait_for_selector("#pages a[data-page=tasks]:not([hidden])")
    _check_tasks(page, site)
    _check_figures(page, site)
    page.goto(server.url + "#page=figures")
    page.reload()
    page.wait_for_selector("section.figure[data-figure=exposure] svg")  # the address keeps the page


def test_the_exported_pages_open_from_the_file_system(
    page: Any, results: Path, sweep: Path, tmp_path: Path
) -> None:
    site = _site(results, sweep, live=False)
    export_site(site.catalog, tmp_path / "out", site=site)
    page.goto((tmp_path / "out" / "index.html").as_uri())
    page.wait_for_selector("#pages a[data-page=tasks]:not([hidden])")
    _check_tasks(page, site)
    _check_figures(page, site)
