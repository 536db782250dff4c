from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import continual_arc.play.commit as commit
from continual_arc.play.commit import Committer
from continual_arc.play.rundir import CommittedRound, prune_states, write_rounds


def played(round_: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One round of one instance: its record and its trajectory."""
    return [{"round": round_, "step": round_}], [{"step": round_, "events": []}]


def test_rounds_played_while_the_disk_is_busy_are_written_together_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate, batches = threading.Event(), []

    def slow_write(out: Path, rounds: Sequence[CommittedRound]) -> None:
        gate.wait(10)  # the first write holds the disk until every round is queued
        batches.append([r.round for r in rounds])
        write_rounds(out, rounds)

    monkeypatch.setattr(commit, "write_rounds", slow_write)
    committer = Committer(tmp_path, None)
    for round_ in range(5):
        committer.commit(round_, *played(round_))
    gate.set()
    committer.close()
    # Round 0 was taken alone; 1 to 4 queued behind it and went in one write.
    assert batches == [[0], [1, 2, 3, 4]]
    lines = (tmp_path / "records.jsonl").read_text().splitlines()
    assert [json.loads(line)["round"] for line in lines] == [0, 1, 2, 3, 4]
    assert sorted(p.name for p in (tmp_path / "i").iterdir()) == [f"{n}.json" for n in range(5)]


def test_a_failed_write_is_raised_by_the_next_commit_and_nothing_after_it_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(out: Path, rounds: Sequence[CommittedRound]) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(commit, "write_rounds", broken)
    committer = Committer(tmp_path, None)
    committer.commit(0, *played(0))
    with pytest.raises(OSError, match="disk full"):
        committer.wait()
    with pytest.raises(OSError, match="disk full"):
        committer.commit(1, *played(1))
    with pytest.raises(OSError, match="disk full"):
        committer.close()
    assert not (tmp_path / "records.jsonl").exists()


def state_dirs(run_dir: Path, rounds: Sequence[int]) -> None:
    for round_ in rounds:
        (run_dir / "state" / f"round-{round_:06d}").mkdir(parents=True)


def test_a_commit_keeps_the_states_saved_for_later_rounds_meanwhile(tmp_path: Path) -> None:
    state_dirs(tmp_path, [0, 1, 2, 3])
    (tmp_path / "state" / "stray").mkdir()
    write_rounds(tmp_path, [CommittedRound(1, *played(1))])
    # Round 1 is durable: 0 goes; 2 and 3 were saved by the playing thread after it and stay.
    kept = sorted(p.name for p in (tmp_path / "state").iterdir())
    assert kept == ["round-000001", "round-000002", "round-000003"]


def test_a_resume_drops_states_of_rounds_that_never_committed(tmp_path: Path) -> None:
    state_dirs(tmp_path, [4, 5, 6])
    prune_states(tmp_path, keep=5)
    assert [p.name for p in (tmp_path / "state").iterdir()] == ["round-000005"]
