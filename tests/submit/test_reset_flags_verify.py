"""A learner that sandbags its reset, verified: the reset flags show in check, verify and protocol.json.

The sandbaggers (tests/learners/sandbag_learner.py) give up at once whenever their state has played
nothing, which is every reset instance, and play as the learner they extend otherwise. The learners
they extend, verified the same way, carry no flag.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.play.rundir import read_records
from continual_arc.stream.users import with_users
from continual_arc.submit.check import check_submission
from continual_arc.submit.rebuild import first_difference
from continual_arc.submit.verify import VerifyOptions, verify
from continual_arc.tracks.registry import get_config

LEARNERS = Path(__file__).resolve().parents[1] / "learners"
STORED = Path(__file__).resolve().parents[2] / "experiments" / "verify" / "runs"
"""The same two reruns as docs/VERIFY.md shows them, stored (experiments/verify)."""


def _verified(root: Path, learner: str, config: str, seed: int, *, salts: Path | None = None) -> Path:
    """Verify ``learner``; with ``salts``, each play names its tasks with that stored rerun's salts."""
    out = root / learner.rsplit(":", 1)[-1]
    for salt in sorted(salts.glob("*/alias-salt")) if salts else ():
        (out / salt.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copy(salt, out / salt.parent.name / salt.name)
    env = {**os.environ, "PYTHONPATH": str(LEARNERS)}
    verify(VerifyOptions(learner=learner, config=with_users(get_config(config), 1), out=out, seed=seed,
                         env=env, resamples=300))  # fmt: skip
    return out


def _expected_gave_up(out: Path) -> list[dict[str, Any]]:
    """The give-up flag of each reset play, counted straight from the records."""
    stream = read_records(out / "stream")
    first = [r for r in stream if r["exposure_index"] == 0]
    rows = []
    for play, learner in (("stream", None), ("held-out", read_records(out / "held-out")), ("seen", None)):
        reset = read_records(out / f"{play}-reset")
        tasks = {r["task_id"] for r in reset}
        mine = learner if learner is not None else [r for r in first if r["task_id"] in tasks]
        rows.append({
            "play": play, "reset_instances": len(reset), "reset_solved": sum(r["solved"] for r in reset),
            "learner_instances": len(mine), "learner_solved": sum(r["solved"] for r in mine),
        })  # fmt: skip
    return rows


def _assert_flags(out: Path, capsys: pytest.CaptureFixture[str], flagged: bool) -> None:
    expected = _expected_gave_up(out)
    if flagged:  # a sandbagger's reset solves nothing anywhere, its learner something at first sight
        assert all(row["reset_solved"] == 0 < row["learner_solved"] for row in expected)
    else:
        assert all(row["reset_solved"] > 0 or row["learner_solved"] == 0 for row in expected)
    # unsigned, the rerun stands as reported: checked as a self-run result that is not canonical
    result = check_submission(out, resamples=300, allow_ablation=True)
    assert result.ok and result.numbers is not None  # a flag is read beside the score, not a problem
    flags = result.numbers["flags"].to_json()  # as a stored protocol.json holds them
    assert [{k: v for k, v in g.items() if k != "flagged"} for g in flags["gave_up"]] == expected
    assert [g["flagged"] for g in flags["gave_up"]] == [flagged] * 3
    plane = read_json(out / "protocol.json")["plane"]
    assert plane["flags"]["messages"] == flags["messages"]
    lines = [f"FLAG: the {row['play']} reset plays no better than giving up at once" for row in expected]
    assert main(["check", str(out), "--resamples", "300", "--no-regenerate", "--ablation"]) == 0
    printed = capsys.readouterr().out
    assert all((line in printed) is flagged for line in lines)
    marker = read_json(out / "verification.json")
    argv = [
        "verify",
        "--learner",
        marker["learner"],
        "--config",
        marker["config"],
        "--seed",
        str(marker["seed"]),
    ]
    assert main([*argv, "--out", str(out), "--resamples", "300"]) == 0  # resumed: every play is done
    printed = capsys.readouterr().out
    assert all((line in printed) is flagged for line in lines)
    assert ("FLAG" in printed) is flagged


@pytest.mark.slow  # a verify of ~15 CPU-s; the viewer's test verifies the same sandbagger in the default run
def test_the_toy_sandbagger_carries_the_reset_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(LEARNERS))  # for check and verify's own learner processes
    monkeypatch.syspath_prepend(str(LEARNERS))  # verify compiles the learner's module before it starts
    out = _verified(tmp_path, "sandbag_learner:SandbagToy", "toy-smoke", 7)
    # It saves its whole reset's spend on the seen test: every reset instance charged the budget.
    assert all(r["charge"] == r["max_cost"] for r in read_records(out / "seen-reset"))
    _assert_flags(out, capsys, flagged=True)


@pytest.mark.slow
def test_the_toy_rule_learner_carries_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _assert_flags(_verified(tmp_path, "continual_arc.testing:ToyRuleLearner", "toy-smoke", 7), capsys, False)


@pytest.mark.slow
def test_the_library_sandbagger_on_arc1_smoke_is_flagged_and_the_library_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(LEARNERS))
    monkeypatch.syspath_prepend(str(LEARNERS))
    sandbag = _verified(tmp_path, "sandbag_learner:SandbagLibrary", "arc1-smoke", 1234,
                        salts=STORED / "sandbag-arc1-smoke-seed1234")  # fmt: skip
    honest = _verified(tmp_path, "continual_arc_baselines.library:ProgramLibraryLearner", "arc1-smoke", 1234,
                       salts=STORED / "library-arc1-smoke-seed1234")  # fmt: skip
    # The figures: the sandbagger's reset gives up on every instance of every reset play.
    for play in ("stream-reset", "seen-reset", "held-out-reset"):
        assert all(r["charge"] == r["max_cost"] for r in read_records(sandbag / play))
    _assert_flags(sandbag, capsys, flagged=True)
    _assert_flags(honest, capsys, flagged=False)
    # The stored reruns that docs/VERIFY.md's table is recomputed from are what verify gives today.
    assert first_difference(STORED / "sandbag-arc1-smoke-seed1234", sandbag) is None
    assert first_difference(STORED / "library-arc1-smoke-seed1234", honest) is None
