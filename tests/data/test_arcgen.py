from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any

import pytest

from continual_arc.data import arcgen
from continual_arc.data.arcgen import ArcGenModules

pytestmark = pytest.mark.network

TASKS = ("1190bc91", "13f06aa5", "2b9ef948", "22425bda")

SCRIPT = """
import json, sys
from continual_arc.data import arcgen
out = {}
for task in sys.argv[1:]:
    pair = arcgen.instance(task, 11)
    out[task] = [pair, arcgen.demonstrations(task, 11, 3, pair[0])]
sys.stdout.write(json.dumps(out, sort_keys=True))
"""


def _draws_in_a_process(hashseed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *TASKS], env=env, check=True, capture_output=True, text=True
    )
    return done.stdout


def test_the_same_instance_comes_out_byte_for_byte_in_any_process(arc2_data: Path) -> None:
    first, second = _draws_in_a_process("1"), _draws_in_a_process("987654")
    assert first == second
    here = {t: [arcgen.instance(t, 11), arcgen.demonstrations(t, 11, 3)] for t in TASKS}
    assert json.loads(first) == json.loads(json.dumps(here))


def test_real_draws_are_valid_pairs_with_distinct_demonstrations(arc2_data: Path) -> None:
    for task in TASKS:
        test_input, test_output = arcgen.instance(task, 5)
        assert test_input != test_output
        inputs = [demo[0] for demo in arcgen.demonstrations(task, 5, 8)]
        assert test_input not in inputs and len(set(inputs)) == 8
    assert arcgen.demonstrations(TASKS[0], 2, 5)[:2] == arcgen.demonstrations(TASKS[0], 2, 2)
    assert len({arcgen.instance(TASKS[0], s)[0] for s in range(10)}) == 10


def test_a_draw_leaves_no_global_state_changed(arc2_data: Path) -> None:
    modules = arcgen.load_arcgen()
    common: Any = modules.common
    random.seed(1234)
    before = random.getstate()
    palette, stream = list(common.internal_colors), common.random
    for task in TASKS:
        arcgen.instance(task, 3)
    assert random.getstate() == before
    assert common.internal_colors == palette and common.random is stream is random


def test_the_counted_stream_is_random_random_itself() -> None:
    counted, plain = arcgen._CountedRandom(99, 10_000), random.Random(99)
    for rng in (counted, plain):
        rng.choice(range(7)), rng.randint(0, 40), rng.sample(range(30), 5)
        rng.choices("abc", k=3), rng.random()
    assert counted.getstate() == plain.getstate()
    assert counted.used > 0


# -- the redraw rule, on generators of our own -------------------------------------------------------


def _fake(monkeypatch: pytest.MonkeyPatch, generate: Any) -> Any:
    common: Any = types.ModuleType("fake_common")
    common.random, common.internal_colors = random, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    defaults = {"fake": (generate.__defaults__, None)}
    modules = ArcGenModules(common, {"fake": generate}, tuple(range(10)), defaults)
    monkeypatch.setattr(arcgen, "load_arcgen", lambda: modules)
    return common


def test_rejected_draws_are_redrawn_with_reasons(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def generate() -> Any:
        calls.append(1)
        n = len(calls)
        if n == 1:
            raise ValueError("generator bug")
        if n == 2:
            return {"input": [[1]], "output": [[1]]}
        if n == 3:
            return {"input": [[1]], "output": [[10]]}
        if n == 4:
            while True:  # a rejection loop that never ends: stopped by the random budget
                common.random.randint(0, 9)
        return {"input": [[1]], "output": [[2]]}

    common = _fake(monkeypatch, generate)
    result = arcgen.draw("fake", 0, "test", 0)
    assert result.pair == (((1,),), ((2,),))
    assert result.rejections == (
        "generator raised ValueError",
        "output equals input",
        "bad grid: colour 10 is outside 0-9",
        "random budget spent",
    )


def test_a_repeated_input_is_redrawn_and_redraws_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    def generate() -> Any:
        return {"input": [[common.random.randint(1, 2)]], "output": [[3]]}

    common = _fake(monkeypatch, generate)
    first = arcgen.draw("fake", 0, "demo", 0).pair[0]
    second = arcgen.draw("fake", 0, "demo", 1, frozenset({first}))
    assert second.pair[0] != first and set(second.rejections) <= {"input repeats"}
    with pytest.raises(arcgen.GeneratorError, match="no acceptable pair in 40 draws"):
        arcgen.draw("fake", 0, "demo", 2, frozenset({((1,),), ((2,),)}))


def test_every_global_is_set_back_even_when_the_generator_changes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def generate(seen: list[int] = []) -> Any:  # noqa: B006 - ARC-GEN has a mutable default too
        seen.append(1)
        common.internal_colors = [9] * 10
        random.seed(5)
        return {"input": [[len(seen)]], "output": [[common.random.randint(1, 9)]]}

    common = _fake(monkeypatch, generate)
    state = random.getstate()
    pairs = [arcgen.draw("fake", 4, "test", 0).pair for _ in range(3)]
    assert pairs[0] == pairs[1] == pairs[2]  # the default list is fresh at every call
    assert pairs[0][0] == ((1,),)
    assert common.internal_colors == list(range(10)) and common.random is random
    assert random.getstate() == state


def test_a_hanging_generator_is_stopped_on_the_main_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arcgen, "GENERATOR_TIME_LIMIT", 0.2)
    _fake(monkeypatch, lambda: time.sleep(5))
    start = time.monotonic()
    with pytest.raises(arcgen.GeneratorError, match=r"ran past 0\.2 s"):
        arcgen.draw("fake", 0, "test", 0)
    assert time.monotonic() - start < 4


def test_a_slow_generator_is_refused_on_another_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arcgen, "GENERATOR_TIME_LIMIT", 0.05)
    _fake(monkeypatch, lambda: time.sleep(0.2))
    errors: list[BaseException] = []

    def target() -> None:
        try:
            arcgen.draw("fake", 0, "test", 0)
        except BaseException as err:
            errors.append(err)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    assert len(errors) == 1 and isinstance(errors[0], arcgen.GeneratorError)
