from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.config import CANONICAL_SEEDS
from continual_arc.core.files import read_json
from continual_arc.play.remote import log_index
from continual_arc.play.rundir import read_records
from continual_arc.stream.users import with_users
from continual_arc.submit.check import check_submission
from continual_arc.submit.verify import VerifyOptions, draw_seed, verify
from continual_arc.tracks.registry import get_config

TOY = with_users(get_config("toy-smoke"), 1)

AMNESIAC = """
from continual_arc.testing import ToyRuleLearner


class Amnesiac(ToyRuleLearner):
    '''Learns the rules and keeps them, but in its process only: it saves nothing.'''

    # Said on the class, as a learner's keeping is read from its class (hiding the methods on the
    # built object alone is refused as a declaration the object contradicts).
    save_state = None
    load_state = None
"""


def _u(run_dir: Path) -> float:
    records = read_records(run_dir)
    return sum(r["charge"] for r in records) / len(records)


def test_a_verification_is_a_checked_protocol_at_a_seed_of_its_own(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert all(draw_seed() not in CANONICAL_SEEDS for _ in range(200))
    argv = ["verify", "--learner", "continual_arc.testing:ToyRuleLearner", "--config", "toy-smoke"]
    assert main([*argv, "--out", str(tmp_path / "v"), "--seed", "7", "--resamples", "200"]) == 0
    out = capsys.readouterr().out
    assert "the rerun checked: every check holds" in out
    marker = read_json(tmp_path / "v" / "verification.json")
    assert marker["mode"] == "reproduced" and marker["seed"] == 7
    seen = read_records(tmp_path / "v" / "seen")
    assert all(r["charge"] == 0 for r in seen)  # its saved rules answer, in a new process each instance
    logs = tmp_path / "v" / "work" / "logs"
    index = [entry for entry in log_index(logs) if entry["play"] == "seen"]
    assert [entry["process"] for entry in index] == list(range(len(seen)))  # a process an instance
    assert all((logs / str(entry["log"]) / "stderr.txt").is_file() for entry in index)  # each with its log
    assert all(re.fullmatch("[0-9a-f]{16}", str(entry["log"])) for entry in index)  # named at random
    assert sorted(p.name for p in (tmp_path / "v" / "work").iterdir()) == ["fresh-state", "logs", "no-data"]


def test_a_verification_whose_learner_cannot_start_leaves_no_folder(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["verify", "--learner", "no_such_module:L", "--config", "toy-smoke", "--seed", "7"]
    assert main([*argv, "--out", str(tmp_path / "v")]) == 2
    assert "cannot import learner module 'no_such_module'" in capsys.readouterr().err
    assert not (tmp_path / "v").exists()  # not a folder holding only schedules/ and the marker


@pytest.mark.slow
def test_memory_kept_only_in_the_process_plays_the_tests_from_nothing(tmp_path: Path) -> None:
    (tmp_path / "amnesiac.py").write_text(AMNESIAC)
    tmp_path.chmod(0o755)  # its processes run as nobody when the tests run as root
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    options = VerifyOptions(learner="amnesiac:Amnesiac", config=TOY, out=tmp_path / "v", seed=11, env=env,
                            resamples=200)  # fmt: skip
    verify(options)
    stream, stream_reset = _u(tmp_path / "v" / "stream"), _u(tmp_path / "v" / "stream-reset")
    assert stream < stream_reset  # on the stream, in one process, it learns
    assert _u(tmp_path / "v" / "seen") == _u(tmp_path / "v" / "seen-reset")  # the tests start from nothing
    assert check_submission(tmp_path / "v", resamples=200, allow_ablation=True).ok  # unsigned: reported
