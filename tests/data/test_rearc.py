from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from continual_arc.data import rearc
from continual_arc.data.pinned import ReArcModules

SCRIPT = """
import json, sys
from continual_arc.data import rearc
out = {}
for task in ("007bbfb7", "3bd67248", "e26a3af2", "484b58aa"):
    pair = rearc.instance(task, 11)
    demos = rearc.demonstrations(task, 11, 3)
    out[task] = [pair, demos]
sys.stdout.write(json.dumps(out, sort_keys=True))
"""


def _run(hashseed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    return subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, check=True, capture_output=True, text=True
    ).stdout


def test_same_task_and_seed_give_identical_pairs_in_any_process() -> None:
    first, second = _run("1"), _run("987654")
    assert first == second
    assert json.loads(first) == json.loads(
        json.dumps(
            {
                t: [rearc.instance(t, 11), rearc.demonstrations(t, 11, 3)]
                for t in ("007bbfb7", "3bd67248", "e26a3af2", "484b58aa")
            }
        )
    )


def test_pairs_are_valid_verified_and_not_identity() -> None:
    from continual_arc.data.pinned import load_rearc

    verify = load_rearc().verifiers["3bd67248"]
    for seed in range(5):
        grid_in, grid_out = rearc.instance("3bd67248", seed)
        assert grid_in != grid_out
        assert tuple(tuple(r) for r in verify(grid_in)) == grid_out


def test_demonstrations_differ_from_test_input_and_each_other() -> None:
    for task in ("007bbfb7", "d631b094", "6150a2bd"):
        test_input = rearc.instance(task, 5)[0]
        demos = rearc.demonstrations(task, 5, 8)
        inputs = [d[0] for d in demos]
        assert test_input not in inputs
        assert len(set(inputs)) == 8


def test_demonstration_k_does_not_depend_on_how_many_are_asked() -> None:
    assert rearc.demonstrations("007bbfb7", 2, 5)[:2] == rearc.demonstrations("007bbfb7", 2, 2)


def test_different_seeds_differ() -> None:
    assert len({rearc.instance("007bbfb7", s)[0] for s in range(10)}) == 10


def _fake(monkeypatch: pytest.MonkeyPatch, generator: Any, verifier: Any) -> None:
    modules = ReArcModules(generators={"fake": generator}, verifiers={"fake": verifier})
    monkeypatch.setattr(rearc, "load_rearc", lambda: modules)


def test_rejected_draws_are_redrawn_with_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def generator(rng: Any, lb: float, ub: float) -> dict[str, Any]:
        calls.append(1)
        n = len(calls)
        if n == 1:
            raise ValueError("generator bug")
        if n == 2:
            return {"input": ((1,),), "output": ((1,),)}
        if n == 3:
            return {"input": ((1,),), "output": ((-1,),)}
        if n == 4:
            return {"input": ((1,),), "output": ((3,),)}  # verifier will disagree
        return {"input": ((1,),), "output": ((2,),)}

    _fake(monkeypatch, generator, lambda grid: ((2,),))
    result = rearc.draw("fake", 0, "test", 0)
    assert result.pair == (((1,),), ((2,),))
    assert result.rejections == (
        "generator raised ValueError",
        "output equals input",
        "bad grid: colour -1 is outside 0-9",
        "verifier disagrees",
    )


def test_redraws_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake(monkeypatch, lambda rng, lb, ub: {"input": ((1,),), "output": ((1,),)}, lambda g: g)
    with pytest.raises(rearc.GeneratorError, match="no acceptable pair in 40 draws"):
        rearc.draw("fake", 0, "test", 0)


def test_a_hanging_generator_is_stopped_on_the_main_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rearc, "GENERATOR_TIME_LIMIT", 0.2)
    _fake(monkeypatch, lambda rng, lb, ub: time.sleep(5), lambda g: g)
    start = time.monotonic()
    with pytest.raises(rearc.GeneratorError, match="ran past"):
        rearc.draw("fake", 0, "test", 0)
    assert time.monotonic() - start < 4


def test_a_slow_generator_is_refused_on_another_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rearc, "GENERATOR_TIME_LIMIT", 0.05)
    _fake(monkeypatch, lambda rng, lb, ub: time.sleep(0.2), lambda g: g)
    errors: list[BaseException] = []

    def target() -> None:
        try:
            rearc.draw("fake", 0, "test", 0)
        except BaseException as err:
            errors.append(err)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    assert len(errors) == 1 and isinstance(errors[0], rearc.GeneratorError)
