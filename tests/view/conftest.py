"""Runs for the viewer's tests: a toy protocol, a random learner on the same stream, damaged copies."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from continual_arc.addons import PracticeAfterFailure
from continual_arc.protocol.play import ProtocolOptions, play_protocol
from continual_arc.runner import run
from continual_arc.schedule import build_schedule
from continual_arc.testing import RandomLearner
from continual_arc.tracks.registry import get_config

TOY_RULE = "continual_arc.testing:ToyRuleLearner"


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Results: a toy protocol (``toy-rule/``) and a random learner on its stream (``random/``)."""
    root = tmp_path_factory.mktemp("view") / "results"
    play_protocol(ProtocolOptions(out=root / "toy-rule", learner=TOY_RULE, config="toy-smoke", resamples=200))
    run(RandomLearner(), build_schedule(get_config("toy-smoke"), 0, epilogue=False), root / "random")
    return root


@pytest.fixture
def copy_run(results: Path, tmp_path: Path) -> Callable[[str], Path]:
    """A copy of one of the results' runs, to damage (``copy_run("random")``)."""

    def make(name: str) -> Path:
        target = tmp_path / "copies" / name.replace("/", "-")
        shutil.copytree(results / name, target)
        return target

    return make


@pytest.fixture
def practice(tmp_path: Path) -> Path:
    """A random learner's run with a practice episode after every failure (auxiliary episodes)."""
    schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False)
    return run(RandomLearner(), schedule, tmp_path / "practice", plugins=[PracticeAfterFailure()]).out_dir
