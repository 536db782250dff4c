"""OpenClaw's launch reads the installation's compile cache when one is there, and may not write it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from continual_arc_baselines.harness.openclaw import OpenClawLearner
from continual_arc_baselines.harness.play import InstanceContext


def _context(folder: Path) -> InstanceContext:
    places = {name: folder / name for name in ("workspace", "home", "tmp", "bin")}
    for place in places.values():
        place.mkdir(parents=True)
    return InstanceContext(
        key="task-x/0/0",
        folder=folder,
        workspace=places["workspace"],
        home=places["home"],
        tmp=places["tmp"],
        bin_dir=places["bin"],
        prompt="solve it",
        base_url="http://127.0.0.1:9/v1",
        model="m",
        effort=None,
    )


@pytest.mark.parametrize("warmed", [False, True])
def test_the_compile_cache_is_read_only_and_used_only_once_warmed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warmed: bool
) -> None:
    home = tmp_path / "data" / "harnesses" / "openclaw-2026.9.6"
    home.mkdir(parents=True)
    (home / "installed.json").write_text(json.dumps({"name": "openclaw"}))
    if warmed:
        (home / "compile-cache").mkdir()
    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(tmp_path / "data"))
    learner = OpenClawLearner("m", base_url="http://127.0.0.1:9/v1")
    try:
        launch = learner.launch(_context(tmp_path / "i0"))
    finally:
        learner.close()
    assert launch.env.get("NODE_COMPILE_CACHE") == (str(home / "compile-cache") if warmed else None)
    assert launch.read_dirs == (str(home),)
    assert all(not d.startswith(str(home)) for d in launch.lock_dirs)  # nothing of it is writable
