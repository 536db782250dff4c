"""``continual-arc sweep SPEC --dry-run``: each protocol and play listed, nothing built, written or played."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.protocol.plan import PLAN
from continual_arc.sweep.driver import dry_run
from continual_arc.sweep.spec import parse_spec

SPEC = """
configs = ["toy-smoke"]
seeds = [0, 5]
users = [1, 2]

[[learners]]
name = "nowhere"
class = "no_such_module:NoSuchLearner"    # never imported by a dry run
gpus = 1
axes = {keep = ["a", "b", "c"]}
"""


def test_every_protocol_and_play_is_listed_in_order() -> None:
    import tomllib

    lines = dry_run(parse_spec(tomllib.loads(SPEC), default_name="s"))
    protocols = [line for line in lines if line.startswith("protocols/")]
    assert len(protocols) == 3 * 2 * 2  # variants x users x seeds
    assert lines[0].startswith("sweep s: 3 learner variant(s) x 1 configuration(s) x 2 number(s) of users")
    assert f"= 12 protocol(s), {12 * len(PLAN.plays)} plays" in lines[0]
    first = lines.index(protocols[0])
    assert protocols[0] == (
        "protocols/nowhere-keep=a/toy-smoke-users1-seed0: nowhere keep=a "
        '(no_such_module:NoSuchLearner {"keep": "a"}) on toy-smoke, '
        "1 user, seed 0, 1 cpu(s) and 1 gpu(s) a play"
    )
    plays = [line.strip().split(" ")[0] for line in lines[first + 1 : first + 1 + len(PLAN.plays)]]
    assert plays == [p.name for p in PLAN.one_by_one()]


def test_the_command_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(SPEC)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["sweep", "s.toml", "--dry-run", "--out", "sweep-out"]) == 0
    assert printed.getvalue().count("\n  stream\n") == 12
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]
