"""A killed learner's temporary folder (and its harness) do not outlive the next learner's start."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from continual_arc_baselines.harness.folders import process_start, sweep
from continual_arc_baselines.harness.system import SystemLearner

LEARNER = """
import subprocess, sys, time
from continual_arc_baselines.harness.system import SystemLearner
learner = SystemLearner("m", base_url="http://127.0.0.1:9/v1")
harness = subprocess.Popen(["sleep", "600"], start_new_session=True)
learner._folder.harness_started(harness.pid)
print(learner._root, harness.pid, flush=True)
if sys.argv[1] == "wait":
    time.sleep(600)
"""


@pytest.fixture
def tmp_dir(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary directory of the test's own, for the learners of this test and their children."""
    path = Path(tempfile.mkdtemp(prefix="sweep-", dir="/tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(path))
    monkeypatch.setenv("TMPDIR", str(path))
    yield path
    for folder in path.glob("*"):
        if (folder / "owner.json").exists():
            (folder / "owner.json").unlink()  # no longer owned: the sweep below may take it
    subprocess.run(["rm", "-rf", str(path)], check=False)


def _learner(mode: str) -> tuple[subprocess.Popen[str], Path, int]:
    child = subprocess.Popen([sys.executable, "-c", LEARNER, mode], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    root, harness = child.stdout.readline().split()
    return child, Path(root), int(harness)


def _running(pid: int) -> bool:
    """The process exists now and is not a zombie waiting for a parent that does not reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def _gone(pid: int) -> bool:
    """The process ends (or is left a zombie) within ten seconds."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not _running(pid):
            return True
        time.sleep(0.05)
    return False


def test_a_killed_learners_folder_and_harness_are_swept_and_a_live_ones_kept(tmp_dir: Path) -> None:
    killed, stale, orphan = _learner("wait")
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    assert stale.is_dir() and _running(orphan)  # SIGKILL left both behind
    live, kept, live_harness = _learner("wait")
    try:
        learner = SystemLearner("m", base_url="http://127.0.0.1:9/v1")
        try:
            assert not stale.exists() and _gone(orphan)
            assert kept.is_dir() and learner._root.is_dir() and _running(live_harness)
        finally:
            learner.close()
        assert not learner._root.exists()
    finally:
        live.kill()
        live.wait()
        os.killpg(live_harness, signal.SIGKILL)


def test_a_learner_never_closed_removes_its_folder_when_its_interpreter_exits(tmp_dir: Path) -> None:
    child, root, harness = _learner("exit")
    assert child.wait() == 0
    os.killpg(harness, signal.SIGKILL)
    assert not root.exists()


def test_an_owner_whose_pid_was_reused_is_dead_and_a_folder_without_owner_is_left(tmp_dir: Path) -> None:
    reused, unowned = tmp_dir / "carc-reused", tmp_dir / "carc-making"
    reused.mkdir()
    unowned.mkdir()
    start = process_start(os.getpid())
    assert start is not None and start.isdigit()
    (reused / "owner.json").write_text(json.dumps({"pid": os.getpid(), "start": str(int(start) + 1)}))
    assert sweep(tmp_dir) == [reused]
    assert not reused.exists() and unowned.is_dir()
