"""Shared fixtures: an isolated data directory for every test, so that no test reads or fills the
machine's search cache."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(path))
    return path
