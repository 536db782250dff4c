from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.rundir import read_records
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol

pytestmark = pytest.mark.heavy  # whole protocols: left out of the fast loop (CONTRIBUTING)


TOY_RULE = "continual_arc.testing:ToyRuleLearner"


def _timeless(run_dir: Path) -> list[dict[str, object]]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in read_records(run_dir)]


def test_a_test_from_a_stream_run_is_the_protocols_test(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "p"
    play_protocol(ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=root, jobs=1, resamples=100))
    for test in ("seen", "held-out"):
        assert main(["test", "--from", str(root / "stream"), "--test", test]) == 0
        assert f"written to {root / f'stream-{test}'}" in capsys.readouterr().out
        assert _timeless(root / f"stream-{test}") == _timeless(root / test)
    # Run again, it finds the test finished and plays nothing more.
    assert main(["test", "--from", str(root / "stream"), "--test", "seen"]) == 0
    assert len(read_records(root / "stream-seen")) == 6


def test_a_test_needs_a_learners_stream(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "p"
    play_protocol(ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=root, jobs=1, resamples=100))
    assert main(["test", "--from", str(root / "stream-reset"), "--test", "seen"]) == 2
    assert "is not a learner's stream" in capsys.readouterr().err
    assert main(["test", "--from", str(tmp_path / "nowhere"), "--test", "seen"]) == 2
    assert "not a run directory" in capsys.readouterr().err
