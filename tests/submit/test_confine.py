"""The rights of a verified learner's process: its bytecode is compiled once, before any process starts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from continual_arc.submit.confine import precompile, with_proxy


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A learner package of two modules, importable and never imported."""
    package = tmp_path / "fresh_learner_pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "mod.py").write_text("class L:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return package


def test_the_learners_modules_get_bytecode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    precompile("fresh_learner_pkg.sub.mod:L")
    for source in (package / "__init__.py", package / "sub" / "mod.py"):
        assert Path(importlib.util.cache_from_source(str(source))).is_file()


def test_no_bytecode_is_written_when_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    precompile("fresh_learner_pkg.sub.mod:L")
    assert not list(package.rglob("__pycache__"))


@pytest.mark.parametrize(
    ("url", "inside"),
    [
        ("http://127.0.0.1:9123/v1", "http://127.0.0.1:9123/v1"),
        ("http://proxy.example:8787", "http://127.0.0.1:8787/v1"),  # another host: the relay's port is its
        ("http://10.0.0.5:4000/", "http://127.0.0.1:4000/v1"),
    ],
)
def test_the_learner_is_told_the_relays_address(url: str, inside: str) -> None:
    env = with_proxy({"PATH": "/usr/bin"}, url)
    assert env == {"PATH": "/usr/bin", "CONTINUAL_ARC_PROXY": inside}
