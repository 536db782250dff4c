"""An experiment's ``verify`` table: stored verify reruns, a row each, the reset's flags beside them.

The expected cells are read from the rerun's own ``protocol.json`` (the plane ``verify`` wrote as
it finished) and counted from its records, not from the table's code.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.play.rundir import read_records
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.stream.users import with_users
from continual_arc.submit.rebuild import store_run
from continual_arc.submit.verify import VerifyOptions, verify
from continual_arc.tracks.registry import get_config

LEARNERS = Path(__file__).resolve().parents[1] / "learners"
LEARNER = "sandbag_learner:SandbagToy"

SPEC = """title = "sandbag"

[[tables]]
title = "reruns"
kind = "verify"
runs = [{runs}]
"""


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toy sandbagger verified on toy-smoke at seed 7, stored without trajectories."""
    root = tmp_path_factory.mktemp("verify-kind")
    played = root / "played"
    env = {**os.environ, "PYTHONPATH": str(LEARNERS)}
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(LEARNERS))  # verify compiles the learner's module before it starts
        config = with_users(get_config("toy-smoke"), 1)
        verify(VerifyOptions(learner=LEARNER, config=config, out=played, seed=7, env=env, resamples=300))
    return store_run(played, root / "experiments" / "sandbag" / "runs" / "toy")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _estimate(e: dict[str, Any]) -> str:
    return f"{e['value']:.2f} [{e['low']:.2f}, {e['high']:.2f}]"


def test_the_stored_rerun_keeps_its_verification(stored: Path) -> None:
    marker = read_json(stored / "verification.json")
    assert (marker["mode"], marker["learner"], marker["seed"]) == ("reproduced", LEARNER, 7)
    assert not list(stored.glob("*/i")) and not (stored / "work").exists()


def test_a_verify_table_shows_each_sides_spend_and_the_flags(stored: Path) -> None:
    folder = stored.parents[1]
    (folder / "experiment.toml").write_text(SPEC.format(runs='"runs/toy"'))
    assert main(["figures", str(folder), "--write"]) == 0
    lines = (folder / "tables.md").read_text().splitlines()
    row = _cells(next(line for line in lines if line.startswith("| `SandbagToy`")))
    assert row[0] == "`SandbagToy`, reproduced on toy-smoke, seed 7"
    plane = read_json(stored / "protocol.json")["plane"]
    # The shares come with the protocol's bootstrap at 10,000 resamples; the written plane had 300,
    # so only the point values are compared.
    assert row[1].split(" [")[0] == f"{plane['seen']['share_saved']['value']:.2f}"
    assert row[2].split(" [")[0] == f"{plane['held_out']['share_saved']['value']:.2f}"
    # The reset gives up on every instance: it spends the whole budget on every play.
    assert all(r["charge"] == r["max_cost"] for p in ("stream-reset", "held-out-reset", "seen-reset")
               for r in read_records(stored / p))  # fmt: skip
    assert row[5] == "100.0 / 100.0 / 100.0"
    learner = [read_records(stored / p) for p in ("stream", "held-out", "seen")]
    spend = [100 * sum(r["charge"] for r in rs) / sum(r["max_cost"] for r in rs) for rs in learner]
    assert row[4] == " / ".join(f"{u:.1f}" for u in spend)
    held = read_records(stored / "held-out")
    solved = sum(r["solved"] for r in held)
    assert f"held-out (0 of {len(held)} against {solved} of {len(held)})" in row[7]
    assert row[7].startswith("gives up: ")
    assert main(["figures", str(folder)]) == 0  # what it wrote is what the runs give


def test_a_run_that_is_not_a_rerun_is_named_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played = tmp_path / "played"
    toy = "continual_arc.testing:ToyRuleLearner"
    play_protocol(ProtocolSpec.named(toy, "toy-smoke"), ProtocolOptions(out=played))
    folder = tmp_path / "experiments" / "x"
    folder.mkdir(parents=True)
    (folder / "experiment.toml").write_text(SPEC.format(runs='"../../played"'))
    capsys.readouterr()  # the protocol's progress
    assert main(["figures", str(folder)]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not a verify rerun: it holds no verification.json" in err[0]
