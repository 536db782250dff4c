"""A play's progress file is read through its declaration: one of the wrong shape is no progress."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from continual_arc.sweep.units import bookkeeping, read_progress

GOOD = {"session": "s1", "pid": 42, "host": "h", "instances_done": 3, "instances_total": 10}


def write(protocol: Path, text: str) -> None:
    bookkeeping(protocol).mkdir(parents=True, exist_ok=True)
    (bookkeeping(protocol) / "stream.progress").write_text(text)


def test_a_progress_file_reads_back_as_written(tmp_path: Path) -> None:
    assert read_progress(tmp_path, "stream") is None  # none written yet
    write(tmp_path, json.dumps(GOOD) + "\n")
    assert read_progress(tmp_path, "stream") == GOOD


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({**GOOD, "pid": "42"}),  # a string where the pid is a number
        json.dumps({k: v for k, v in GOOD.items() if k != "session"}),
        json.dumps({**GOOD, "colour": 1}),
        json.dumps([GOOD]),
        '{"session": "s1", "pid"',  # cut short by a write that died
    ],
)
def test_a_progress_file_of_the_wrong_shape_is_no_progress(tmp_path: Path, text: str) -> None:
    write(tmp_path, text)
    assert read_progress(tmp_path, "stream") is None
