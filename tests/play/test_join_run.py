"""The learner's optional ``join_run(run_id)``: the run directory's id, the same when the run resumes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.learner_ref import LearnerRef
from continual_arc.play.aliases import RUN_ID_FILE, read_or_create_run_id
from continual_arc.play.options import RunOptions
from continual_arc.play.remote import log_index, remote_learner
from continual_arc.play.rundir import is_empty_run_dir
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule, test_schedule
from continual_arc.testing import ToyRuleLearner
from continual_arc.tracks.registry import get_config

TOY = get_config("toy-smoke")
STREAM = build_schedule(TOY, 0, epilogue=False)


class Joining(ToyRuleLearner):
    """Notes ``join_run`` among ``load_state`` and ``resume_from``, in the order they come."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    def join_run(self, run_id: str) -> None:
        self.calls.append(("join_run", run_id))

    def load_state(self, directory: Any) -> None:
        super().load_state(directory)
        self.calls.append(("load_state", None))

    def resume_from(self, records: list[dict[str, Any]]) -> None:
        self.calls.append(("resume_from", len(records)))


def test_a_resumed_run_joins_under_the_id_its_directory_keeps(tmp_path: Path) -> None:
    first = Joining()
    run(first, STREAM.first_rounds(2), tmp_path / "run")
    kept = (tmp_path / "run" / RUN_ID_FILE).read_text().strip()
    assert first.calls == [("join_run", kept)]
    assert len(kept) == 16 and int(kept, 16) >= 0
    again = Joining()
    run(again, STREAM, tmp_path / "run", RunOptions(resume=True))
    # The same id, before the state is loaded and the records handed over.
    assert again.calls == [("join_run", kept), ("load_state", None), ("resume_from", 2)]
    other = Joining()
    run(other, STREAM.first_rounds(1), tmp_path / "other")
    assert other.calls[0][0] == "join_run" and other.calls[0][1] != kept  # another run, another id


def test_a_directory_holding_only_a_run_id_takes_a_fresh_run(tmp_path: Path) -> None:
    """A run killed before its setup ended leaves its id; the next run there is that same run."""
    drawn = read_or_create_run_id(tmp_path / "run")
    assert is_empty_run_dir(tmp_path / "run")
    learner = Joining()
    run(learner, STREAM.first_rounds(1), tmp_path / "run")
    assert learner.calls == [("join_run", drawn)]


def test_a_run_id_file_holding_anything_but_hex_digits_is_refused(tmp_path: Path) -> None:
    (tmp_path / RUN_ID_FILE).write_text("not-an-id\n")
    with pytest.raises(ValueError, match="delete it to draw a new one"):
        read_or_create_run_id(tmp_path)


NOTING = """
import os

from continual_arc.testing import ToyRuleLearner


class Noting(ToyRuleLearner):
    def join_run(self, run_id):
        with open(os.environ["JOINED_LOG"], "a") as log:
            log.write(f"{os.getpid()} {run_id}\\n")
"""


def test_every_process_of_a_remote_learner_is_told_the_run_id(tmp_path: Path) -> None:
    """A new process on reset (as ``verify`` starts for every test instance) joins the run too."""
    (tmp_path / "noting.py").write_text(NOTING)
    log = tmp_path / "joined.txt"
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "JOINED_LOG": str(log)}
    seen = test_schedule(TOY, 0, "seen", width=1)
    learner = remote_learner(
        LearnerRef.of({"class": "noting:Noting", "kwargs": {}}),
        tmp_path / "work",
        env=env,
        restart_on_reset=True,
    )
    try:
        run(learner, seen, tmp_path / "run")
    finally:
        learner.close()
    kept = (tmp_path / "run" / RUN_ID_FILE).read_text().strip()
    joined = [line.split() for line in log.read_text().splitlines()]
    processes = log_index(tmp_path / "work" / "logs") or list((tmp_path / "work" / "logs").glob("[0-9]*"))
    assert len(joined) == len(processes) > len(seen.slots) // 2  # a new process for every instance
    assert {run_id for _, run_id in joined} == {kept}
    assert len({pid for pid, _ in joined}) == len(joined)  # each process told once
