"""Runs for the viewer's tests (a toy protocol, a random learner on the same stream, damaged copies)
and the browser tests' fixtures: Chromium, a checked page, and the viewer served.

A browser test module gets ``chromium`` (one per module), ``page`` (one per test, no console
error allowed) and ``server`` (one per module, serving the fixture ``site``: by default the
results below, live; a module overrides ``site`` to serve something else). A module whose
fixtures play protocols names them in ``PLAYED_FIRST``, so that they run before Chromium starts.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from view_support import checked_page, launched_chromium

from continual_arc.addons import PracticeAfterFailure
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.runner import RunOptions, run
from continual_arc.schedule import build_schedule
from continual_arc.testing import RandomLearner
from continual_arc.tracks.registry import get_config
from continual_arc.view.catalog import build_catalog
from continual_arc.view.site import Site

TOY_RULE = "continual_arc.testing:ToyRuleLearner"


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Results: a toy protocol (``toy-rule/``) and a random learner on its stream (``random/``)."""
    root = tmp_path_factory.mktemp("view") / "results"
    play_protocol(
        ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=root / "toy-rule", resamples=200)
    )
    run(RandomLearner(), build_schedule(get_config("toy-smoke"), 0, epilogue=False), root / "random")
    return root


@pytest.fixture
def copy_run(results: Path, tmp_path: Path) -> Callable[[str], Path]:
    """A copy of one of the results' runs, to damage (``copy_run("random")``)."""

    def make(name: str) -> Path:
        target = tmp_path / "copies" / name.replace("/", "-")
        shutil.copytree(results / name, target)
        return target

    return make


@pytest.fixture
def practice(tmp_path: Path) -> Path:
    """A random learner's run with a practice episode after every failure (auxiliary episodes)."""
    schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False)
    played = RunOptions(plugins=[PracticeAfterFailure()])
    return run(RandomLearner(), schedule, tmp_path / "practice", played).out_dir


@pytest.fixture(scope="module")
def chromium(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Debian's Chromium, headless, one per module, launched after the module's ``PLAYED_FIRST`` fixtures.

    Those play protocols, whose plays are forked processes: a fork must come before Playwright
    starts its own threads.
    """
    for name in getattr(request.module, "PLAYED_FIRST", ()):
        request.getfixturevalue(name)
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright's Python package is missing")
    with launched_chromium(sync_api) as launched:
        yield launched


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    """A fresh page of the module's Chromium; a script or console error on it fails the test."""
    with checked_page(chromium) as opened:
        yield opened


@pytest.fixture(scope="module")
def site(results: Path) -> Site:
    """What ``server`` serves: the results, live (a module overrides this fixture to serve another site)."""
    return Site(build_catalog([results]), live=True)


@pytest.fixture(scope="module")
def server(site: Site) -> Iterator[Any]:
    """The viewer serving ``site`` from a background thread, for the module's tests (needs the view extra)."""
    app = pytest.importorskip("continual_arc.view.app", reason="the view extra is not installed")
    with app.ServerThread(site) as running:
        yield running
