"""Shared fixtures: an isolated data directory for every test, and a check of every run it made."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(path))
    return path


@pytest.fixture(autouse=True)
def _summaries_match_records(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[None]:
    """Every summary.json a test leaves behind must be what its records give."""
    yield
    if request.node.get_closest_marker("tampered"):
        return
    from continual_arc.measure.report import recompute_summary
    from continual_arc.play.rundir import load_run

    for summary in tmp_path.rglob("summary.json"):
        run_dir = summary.parent
        if not (run_dir / "meta.json").exists():
            continue
        run = load_run(run_dir)
        _, differs = recompute_summary(run.records, run.meta, run.summary)
        assert not differs, f"{run_dir}: summary.json differs from its records: {differs}"
