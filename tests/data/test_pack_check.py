"""``pack check``: a rule copied from a public task, or one in disguise, is refused; the demo pack passes."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from continual_arc.cli import main
from continual_arc.data.pack import load_pack
from continual_arc.data.pack_check import check_pack, public_tasks
from continual_arc.data.pinned import arc1_tasks

REPO = Path(__file__).resolve().parents[2]
COPIED = REPO / "tests" / "fixtures" / "packs" / "copied"
DISGUISED = REPO / "tests" / "fixtures" / "packs" / "disguised"


def test_public_tasks_hold_every_arc1_task() -> None:
    tasks = public_tasks()
    arc1 = arc1_tasks()
    assert {f"arc1/{t}" for split in arc1.values() for t in split} <= set(tasks)
    assert sum(key.startswith("arc1/") for key in tasks) == 800


def test_a_rule_copied_from_a_public_task_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # Task 3c9b0459 turns its grid by half a turn: checked here on its own pairs, not by the check.
    task = arc1_tasks()["train"]["3c9b0459"]
    assert all(p["output"] == [row[::-1] for row in p["input"][::-1]] for p in task["train"] + task["test"])
    report = check_pack(load_pack(COPIED))
    verdicts = {rule.rule: rule for rule in report.rules}
    assert not report.ok
    assert any(
        "reproduces every pair of public task arc1/3c9b0459" in p for p in verdicts["half-turn"].problems
    )
    assert any("equals a pair of public task arc1/a85d4709" in p for p in verdicts["public-pair"].problems)
    assert main(["pack", "check", str(COPIED)]) == 1
    out = capsys.readouterr().out
    assert "half-turn" in out and "REFUSED" in out and "2 of 2 rules refused" in out


def _half_turn(grid: Any) -> list[list[int]]:
    return [list(row[::-1]) for row in grid[::-1]]


def test_a_public_task_in_disguise_is_refused_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    # Task 3c9b0459 turns its grid by half a turn: checked here on its own pairs, not by the check.
    task = arc1_tasks()["train"]["3c9b0459"]
    pairs = task["train"] + task["test"]
    assert all(p["output"] == _half_turn(p["input"]) for p in pairs)
    pack = load_pack(DISGUISED)
    rule = pack.rules["turned-look"]
    # its own verifier refuses the public task's inputs, so the copy check alone cannot find it ...
    for pair in pairs:
        with pytest.raises(ValueError):
            rule.verify(pair["input"])
    # ... while every pair it draws is a half turn, the public task's rule
    drawn = [rule.generate(random.Random(seed)) for seed in range(20)]
    assert all(d["output"] == _half_turn(d["input"]) for d in drawn)

    assert main(["pack", "check", "--json", str(DISGUISED)]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["verifiers"] == 400  # Re-ARC's, one per ARC-AGI-1 training task
    verdict = document["rules"]["turned-look"]
    assert not verdict["ok"]
    assert len(verdict["problems"]) == 1
    assert verdict["problems"][0].startswith(
        "rule turned-look is public task arc1/3c9b0459 in disguise: "
        "that task's Re-ARC verifier reproduces 20 of its 20 drawn pairs"
    )


@pytest.mark.slow
def test_the_demo_pack_passes_the_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pack", "check", str(REPO / "packs" / "demo")]) == 0
    out = capsys.readouterr().out
    assert "every one of the 18 rules passes" in out
    assert "configuration pack-demo: 9 rules streamed over 72 instances, 9 held out" in out
