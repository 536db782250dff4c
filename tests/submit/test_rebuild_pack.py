"""``runs rebuild --pack``: a stored verification on a rule pack played again as ``verify`` played it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_verify_pack import _tiny_pack

from continual_arc.cli import main

LEARNER = "continual_arc.play.toy_learners:DemoBuyerLearner"


@pytest.mark.slow
def test_a_stored_pack_verification_rebuilds_only_with_its_pack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = _tiny_pack(tmp_path / "private" / "tiny")
    played, stored = tmp_path / "v", tmp_path / "stored"
    argv = ["verify", "--learner", LEARNER, "--pack", str(pack), "--out", str(played), "--seed", "5"]
    assert main([*argv, "--resamples", "100"]) == 0
    assert (
        main(
            ["runs", "store", str(played), str(stored), "--student", "none", "--code", "c", "--contact", "a"]
        )
        == 0
    )
    capsys.readouterr()
    # Without the pack its rules cannot be played: one sentence, and nothing written. (In a process of
    # its own, as a user runs it: verify above left the pack in use in this one.) Unsigned, the rerun
    # is checked as a self-run result that is not canonical, hence --ablation.
    alone = [sys.executable, "-m", "continual_arc.cli", "runs", "rebuild", str(stored), "--ablation"]
    done = subprocess.run([*alone, "--out", str(tmp_path / "none")], capture_output=True, text=True)
    assert done.returncode == 2 and "no configuration named 'pack-tiny'" in done.stderr
    assert not (tmp_path / "none").exists()
    rebuilt = tmp_path / "rebuilt"
    again = ["runs", "rebuild", str(stored), "--out", str(rebuilt), "--pack", str(pack), "--ablation"]
    assert main(again) == 0
    assert "every play's records are the stored ones" in capsys.readouterr().out
    assert json.loads((rebuilt / "verification.json").read_text())["seed"] == 5
    assert any((rebuilt / "held-out" / "i").iterdir())  # the trajectories, made again
