"""Every learner a protocol builds is closed once its play is over (weights and servers are not kept)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from continual_arc.core.files import read_json
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.testing import ToyRuleLearner

pytestmark = pytest.mark.heavy  # whole protocols: left out of the fast loop (CONTRIBUTING)


class Holder(ToyRuleLearner):
    """A learner that holds something: it writes a line when built and one when closed."""

    stateless_when = None  # it keeps its rules (its parent's keep is not an argument of its own)

    def __init__(self, log: str) -> None:
        super().__init__()
        self.log, self.mark = log, f"{os.getpid()}-{id(self)}"
        self._write("built")

    def _write(self, what: str) -> None:
        with open(self.log, "a") as handle:
            handle.write(f"{what} {self.mark}\n")

    def close(self) -> None:
        self._write("closed")


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_learner_built_is_closed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    log = tmp_path / "log.txt"
    spec = ProtocolSpec.named("test_release:Holder", "toy-smoke", kwargs={"log": str(log)})
    options = ProtocolOptions(out=tmp_path / "p", jobs=jobs, resamples=100, plots=False)
    play_protocol(spec, options)
    lines = [line.split() for line in log.read_text().splitlines()]
    built = [mark for what, mark in lines if what == "built"]
    closed = Counter(mark for what, mark in lines if what == "closed")
    # One learner for each of the six plays, and no probe: what it keeps is read from its class.
    assert len(built) == 6
    assert closed == Counter(built)


def test_the_submission_names_the_learner_with_its_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two variants of one class must not share a name on the leaderboard.
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    log = tmp_path / "log.txt"
    spec = ProtocolSpec.named("test_release:Holder", "toy-smoke", kwargs={"log": str(log)})
    options = ProtocolOptions(out=tmp_path / "p", jobs=1, resamples=100, plots=False)
    play_protocol(spec, options)
    name = read_json(tmp_path / "p" / "submission.json")["name"]
    assert name == f"Holder log={log} on toy-smoke, seed 0"
