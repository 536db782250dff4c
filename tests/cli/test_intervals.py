"""Every command that reads the same runs prints the same estimate, interval and rounding for a measure."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.cli.protocol import format_protocol
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.testing import ToyRuleLearner

INTERVAL = r"(-?\d+\.\d\d \[-?\d+\.\d\d, -?\d+\.\d\d\])"


class HalfKeeper(ToyRuleLearner):
    """Keeps only the rules that shift by an even amount, so the shares lie inside (0, 1).

    Chosen by the rule, not by the task's name: names are aliases salted at random per run
    directory, so a choice by name kept a different subset each run (all of them one time in eight).
    """

    def end_round(self) -> None:
        self._pending = {task: rule for task, rule in self._pending.items() if rule[0] % 2 == 0}
        super().end_round()


def _one(pattern: str, text: str) -> str:
    found = re.findall(pattern, text)
    assert len(found) == 1, (pattern, text)
    return str(found[0])


@pytest.mark.heavy
def test_each_measure_reads_alike_in_every_command(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "p"
    spec, options = (
        ProtocolSpec.named("test_intervals:HalfKeeper", "toy-smoke"),
        ProtocolOptions(out=out, jobs=1),
    )
    protocol = format_protocol(play_protocol(spec, options), out)
    capsys.readouterr()
    printed = {}
    for name, argv in {
        "learned": ["learned", str(out / "stream"), str(out / "stream-reset")],
        "seen": ["transfer", "--test", "seen", str(out / "seen"), str(out / "seen-reset")],
        "held-out": ["transfer", str(out / "held-out"), str(out / "held-out-reset")],
        "plane": ["plane", str(out), "--out", str(tmp_path / "plots")],
        "check": ["check", str(out)],
    }.items():
        main(argv)
        printed[name] = capsys.readouterr().out
    seen = _one(r"memorization \(seen\)\s+share saved " + INTERVAL, protocol)
    held = _one(r"generalization \(held-out\)\s+share saved " + INTERVAL, protocol)
    learned = _one(r"share learned over the stream\s+" + INTERVAL, protocol)
    assert seen != "1.00 [1.00, 1.00]"  # a share with a real interval
    assert _one(r"share saved\s+" + INTERVAL, printed["seen"]) == seen
    assert _one(r"share saved\s+" + INTERVAL, printed["held-out"]) == held
    assert _one(r"share learned\s+" + INTERVAL, printed["learned"]) == learned
    assert _one(r"seen " + INTERVAL, printed["plane"]) == seen
    assert _one(r"held-out " + INTERVAL, printed["plane"]) == held
    assert _one(r"memorization " + INTERVAL, printed["check"]) == seen
    assert _one(r"share learned over the stream " + INTERVAL, printed["check"]) == learned
    t_protocol = _one(r"seen\)\s+share saved [^\n]*T (-?\d+\.\d \[-?\d+\.\d, -?\d+\.\d\])", protocol)
    assert _one(r"T \(points\)\s+(-?\d+\.\d \[-?\d+\.\d, -?\d+\.\d\])", printed["seen"]) == t_protocol
