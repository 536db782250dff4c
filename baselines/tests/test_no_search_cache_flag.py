"""``--no-search-cache``: the library searches afresh, keeps nothing in the data directory, same records."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.data.directory import data_dir
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc_baselines.options import NO_SEARCH_CACHE_ENV

LEARNER = "continual_arc_baselines.library:ProgramLibraryLearner"


def _records(run: Path) -> list[dict[str, object]]:
    lines = (run / "records.jsonl").read_text().splitlines()
    left_out = (*TIMING_FIELDS, "alias")  # aliases are salted per run directory
    return [{k: v for k, v in json.loads(line).items() if k not in left_out} for line in lines]


def _cache_files() -> list[Path]:
    return [p for p in (data_dir() / "search-cache").rglob("*") if p.is_file()]


@pytest.mark.slow
def test_the_flag_turns_the_search_cache_off_and_leaves_the_records_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Set empty (the cache allowed) so that monkeypatch restores the variable after the flag sets it.
    monkeypatch.setenv(NO_SEARCH_CACHE_ENV, "")
    schedule = tmp_path / "s.json"
    assert main(["schedule", "make", "--config", "arc1-smoke", "--no-epilogue", "--out", str(schedule)]) == 0
    play = ["run", "--learner", LEARNER, "--schedule", str(schedule), "--out"]
    assert main([*play, str(tmp_path / "cached")]) == 0
    assert _cache_files(), "the library keeps its searches in the data directory by default"
    for path in _cache_files():
        path.unlink()
    assert main([*play, str(tmp_path / "fresh"), "--no-search-cache"]) == 0
    assert os.environ.get(NO_SEARCH_CACHE_ENV) == "1"
    assert _cache_files() == []
    assert _records(tmp_path / "fresh") == _records(tmp_path / "cached")
