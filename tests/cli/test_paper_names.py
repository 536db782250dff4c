from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.tracks.registry import CONFIG_ALIASES, config_alias_note, get_config


def test_arc1_small_is_arc1_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert get_config("arc1-small") is get_config("arc1")
    assert CONFIG_ALIASES == {"arc1-small": "arc1"} and config_alias_note("arc1") is None
    paper, ours = tmp_path / "paper.json", tmp_path / "ours.json"
    assert main(["schedule", "make", "--config", "arc1-small", "--seed", "1", "--out", str(paper)]) == 0
    assert "note: arc1-small is the paper's name of arc1" in capsys.readouterr().err
    assert main(["schedule", "make", "--config", "arc1", "--seed", "1", "--out", str(ours)]) == 0
    assert capsys.readouterr().err == ""
    assert paper.read_bytes() == ours.read_bytes()


@pytest.mark.parametrize("mode", ["workstreams", "sequential", "random"])
def test_mode_is_order(tmp_path: Path, mode: str) -> None:
    paper, ours = tmp_path / "paper.json", tmp_path / "ours.json"
    args = ["schedule", "make", "--config", "toy-smoke", "--no-epilogue"]
    assert main([*args, "--mode", mode, "--out", str(paper)]) == 0
    assert main([*args, "--order", mode, "--out", str(ours)]) == 0
    assert paper.read_bytes() == ours.read_bytes()
    default = tmp_path / "default.json"
    assert main([*args, "--out", str(default)]) == 0
    assert (default.read_bytes() == ours.read_bytes()) == (mode == "workstreams")
