"""A fresh install's first comparison: ``leaderboard runs/`` exits 0, arc2 and arc3 not checked here.

A fresh install is played by a process whose data directory is empty (arc2's data not fetched) on
this Python (arc3 needs 3.12 and ARC Prize's engine: absent on 3.11). ``check`` of a stored run says
in one sentence what it is, and ``protocol`` writes nothing into ``runs/`` by default.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from continual_arc.cli import main

ROOT = Path(__file__).resolve().parents[2]
STORED = ROOT / "runs"


def _fresh(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    empty = tmp_path / "data"
    empty.mkdir(exist_ok=True)
    env = {**os.environ, "CONTINUAL_ARC_DATA": str(empty)}
    code = "import sys; from continual_arc.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=ROOT, env=env, check=False
    )


@pytest.mark.heavy
def test_a_fresh_install_ranks_the_stored_runs_and_lists_arc2_and_arc3_as_not_checked_here(
    tmp_path: Path,
) -> None:
    done = _fresh(tmp_path, "leaderboard", "runs/", "--json", str(tmp_path / "board.json"))
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "Refused" not in out and "Error(" not in out  # no exception's repr anywhere
    listed = out.split("## Not checked here", 1)[1].splitlines()
    arc2 = [line for line in listed if line.startswith("- runs/arc2-")]
    assert len(arc2) == 3
    for line in arc2:
        name = line.split(" ", 2)[1]
        assert line.endswith(
            f"the arc2 track's data is not fetched here; to check it: continual-arc data fetch --track arc2, "
            f"then continual-arc check {name.rstrip(':')}"
        )
    arc3 = [line for line in listed if line.startswith("- runs/arc3-")]
    if importlib.util.find_spec("arcengine") is None:
        stored_arc3 = sorted(STORED.glob("arc3-*/protocol.json"))  # every stored arc3 protocol
        assert len(arc3) == len(stored_arc3) >= 6
        assert all("Python 3.12" in line and "pip install" in line for line in arc3)
    assert "## arc1, 1 user (reported)" in out  # the stored baselines: claims, signed by nobody trusted
    assert "not checked here" in done.stderr


def test_check_of_a_stored_run_says_what_it_is_in_one_sentence(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = "runs/arc1-library-seed0"
    monkeypatch.chdir(ROOT)
    assert main(["check", stored]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"continual-arc: error: {stored} is a stored run (each play's records, meta and summary, no "
        f"trajectories to replay): continual-arc leaderboard {stored} checks everything but the replay, and "
        f"continual-arc runs rebuild {stored} plays it again and replays every instance"
    ]


@pytest.mark.heavy
def test_protocol_writes_its_default_out_outside_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["protocol", "--config", "toy-smoke", "--jobs", "1", "--resamples", "50", "--no-plots"]) == 0
    assert not (tmp_path / "runs").exists()
    (written,) = (tmp_path / "out").iterdir()
    assert written.name.startswith("protocol-") and (written / "submission.json").is_file()
