"""The committed task indexes list exactly the ids of the pinned data files they stand for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from continual_arc.data import arc2_sources, pinned, task_index


def _ids_in(path: Path) -> dict[str, list[str]]:
    data = json.loads(path.read_text())
    return {split: sorted(tasks) for split, tasks in data.items()}


def test_the_arc1_index_lists_the_ids_of_arc1_json() -> None:
    expected = _ids_in(pinned.arc1_json_path())
    index = task_index.index_of("arc1")
    assert index["sha256"] == pinned.ARC1_JSON_SHA256
    assert {"train": index["train"], "eval": index["eval"]} == expected
    assert len(expected["train"]) == len(expected["eval"]) == 400


def test_the_arc2_index_lists_the_ids_of_the_fetched_json(arc2_data: Path) -> None:
    expected = _ids_in(arc2_sources.arc2_json_path())
    index = task_index.index_of("arc2")
    assert index["sha256"] == arc2_sources.ARC2_JSON_SHA256
    assert {"train": index["train"], "eval": index["eval"]} == expected


def test_an_index_of_another_file_is_refused() -> None:
    with pytest.raises(RuntimeError, match="arc1 task index is of another data file"):
        task_index.indexed_ids("arc1", "train", "0" * 64)


def test_new_arc2_ids_exclude_every_arc1_id() -> None:
    arc1 = set(task_index.index_of("arc1")["train"]) | set(task_index.index_of("arc1")["eval"])
    for split in ("train", "eval"):
        new = arc2_sources.new_task_ids(split)
        assert new == tuple(sorted(new)) and not arc1 & set(new)
    # ARC-AGI-2's tasks not in ARC-AGI-1 (see docs/arc2.md): 233 training, 114 evaluation.
    assert (len(arc2_sources.new_task_ids("train")), len(arc2_sources.new_task_ids("eval"))) == (233, 114)


def test_listing_the_held_out_tasks_decodes_no_data_file() -> None:
    # A fresh process: the schedule's held-out tasks come from the index; arc1.json is not decoded.
    code = (
        "from continual_arc.data import pinned\n"
        "from continual_arc.tracks.registry import get_track\n"
        "source = get_track('arc1').source('held-out')\n"
        "print(len(source.task_ids()), pinned.arc1_tasks.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["400", "0"]
