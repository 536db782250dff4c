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


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random tiny Qwen2 model and its tokenizer in a folder, built offline once per session.

    Skips (with the reason) where the baselines' [train] extra is not installed.
    """
    for module in ("torch", "transformers", "peft", "safetensors"):
        pytest.importorskip(module, reason=f"open weights need the baselines' [train] extra ({module})")
    from continual_arc_baselines.trained.tiny import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "tiny-qwen2")
