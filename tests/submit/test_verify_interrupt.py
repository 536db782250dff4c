"""An interrupted ``verify``: it stops within two seconds, leaves no learner process, and resumes.

The sleeper (the toy rule learner) starts a child of its own, then sleeps in its stream's third
round, as a learner stuck in a long computation does. ``continual-arc verify`` is interrupted
there (SIGINT, as a terminal's Ctrl-C sends it); the same command, run again, finishes the
protocol from the rounds the first one completed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.rundir import read_records

SLEEPER = r'''
import os, subprocess, sys, time

from continual_arc.testing import ToyRuleLearner


class Sleeper(ToyRuleLearner):
    """The toy rule learner, stuck in its third round when told to be (and a child of its own)."""

    def __init__(self):
        super().__init__()
        self.rounds = 0
        nap = [sys.executable, "-c", "import time; time.sleep(300)", os.environ["SLEEPER_TAG"]]
        self.child = subprocess.Popen(nap)

    def begin_round(self):
        self.rounds += 1
        if self.rounds == 3 and os.environ.get("SLEEPER_HANG"):
            time.sleep(600)
        super().begin_round()
'''


def _left(marks: list[bytes]) -> list[int]:
    """Processes whose command line or environment holds one of ``marks`` (the learner's)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            seen = (entry / "cmdline").read_bytes() + (entry / "environ").read_bytes()
        except OSError:
            continue
        if any(mark in seen for mark in marks):
            found.append(int(entry.name))
    return found


def _records(run: Path) -> list[dict[str, Any]]:
    try:
        return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in read_records(run)]
    except Exception:  # not written yet
        return []


@pytest.mark.slow
def test_an_interrupted_verify_stops_in_two_seconds_and_resumes(tmp_path: Path) -> None:
    learners = tmp_path / f"learners-{uuid.uuid4().hex}"
    learners.mkdir(parents=True)
    (learners / "sleeper.py").write_text(SLEEPER)
    tmp_path.chmod(0o755)
    tag = f"carc-sleeper-{uuid.uuid4().hex}"
    out = tmp_path / "v"
    command = [sys.executable, "-m", "continual_arc.cli", "verify", "--learner", "sleeper:Sleeper",
               "--config", "toy-smoke", "--seed", "5", "--resamples", "200", "--out", str(out),
               "--pass-env", "SLEEPER_HANG", "--pass-env", "SLEEPER_TAG"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(learners), "SLEEPER_TAG": tag}
    running = subprocess.Popen(command, env={**env, "SLEEPER_HANG": "1"}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    try:
        deadline = time.monotonic() + 240
        while len(_records(out / "stream")) < 2 and time.monotonic() < deadline and running.poll() is None:
            time.sleep(0.2)
        assert len(_records(out / "stream")) == 2, running.stderr.read() if running.poll() is not None else ""
        time.sleep(1.5)  # into the third round's sleep
        assert _left([tag.encode()])  # the learner's child runs, in the sandbox
        started = time.monotonic()
        running.send_signal(signal.SIGINT)
        code = running.wait(timeout=30)
        took = time.monotonic() - started
    finally:
        if running.poll() is None:
            os.killpg(running.pid, signal.SIGKILL)
    assert took < 2.0, took
    assert code == 130
    assert _left([tag.encode(), str(learners).encode()]) == []  # no learner process, no child of its
    kept = _records(out / "stream")
    assert len(kept) == 2  # the two whole rounds
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-2000:]
    stream = _records(out / "stream")
    assert len(stream) == 9 and stream[:2] == kept  # resumed from what was complete, not played again
    assert _left([tag.encode(), str(learners).encode()]) == []
