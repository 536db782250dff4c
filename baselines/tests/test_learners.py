from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from continual_arc.cli import main as continual_arc_main
from continual_arc.core.files import read_json
from continual_arc.core.grids import Grid
from continual_arc.learner import LearnerSpecError, load_learner
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.runner import LearnerError, run
from continual_arc.stream.schedule import build_schedule, test_schedule
from continual_arc.testing import apply_rule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.cli import BARE_LEARNER
from continual_arc_baselines.cli import main as baselines_main
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.learners import DemoCacheFloor, ModelProgramLibrary, StatelessFloor
from continual_arc_baselines.library.model_session import COUNT_KEYS
from continual_arc_baselines.prompts import grid_text, parse_grid
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, serve_proxy
from continual_arc_baselines.systems.bare import BareModelLearner

MODEL = "vendor/toy-model"
TOY = get_config("toy-smoke")
ARC1 = get_config("arc1-smoke")
LEARNERS = [StatelessFloor, DemoCacheFloor, ModelProgramLibrary, BareModelLearner]
RULES = [(d, c) for d in range(8) for c in range(8)]
HEADER = re.compile(r"^(.+) \((\d+)x(\d+)\):$")

# The toy rule (continual_arc.testing.apply_rule) as the model would write it.
TOY_PROGRAM = """D, C = {d}, {c}


def transform(grid):
    rows = [list(row) for row in grid]
    if D & 4:
        rows = [list(col) for col in zip(*rows)]
    for _ in range(D & 3):
        rows = [list(col) for col in zip(*rows[::-1])]
    return [[0 if x == 0 else (x - 1 + C) % 9 + 1 for x in row] for row in rows]
"""


def shown_grids(text: str) -> list[tuple[str, Grid]]:
    """The labelled grids of a prompt, in order."""
    lines, found, i = text.splitlines(), [], 0
    while i < len(lines):
        match = HEADER.match(lines[i])
        if match:
            rows = lines[i + 1 : i + 1 + int(match[2])]
            found.append((match[1], tuple(tuple(int(x) for x in row.split()) for row in rows)))
        i += 1
    return found


def toy_model(body: dict[str, Any]) -> str:
    """A fake model that finds the toy rule fitting the demonstrations it was shown.

    It answers with a program (the program writer) or a grid (the floors and the bare model); with
    no toy rule fitting (ARC tasks) it answers the identity program or a one-cell grid, both wrong.
    """
    messages = body["messages"]
    grids = shown_grids(messages[1]["content"])
    pairs = zip((g for k, g in grids if k == "input"), (g for k, g in grids if k == "output"), strict=True)
    demos = list(pairs)
    test = next(g for k, g in grids if k == "Test input")
    wrong = {g for k, g in grids if k.startswith("wrong answer")}
    turns = [m["content"] for m in messages if m["role"] == "assistant"]
    if "Python program" in messages[0]["content"]:
        fits = [r for r in RULES if all(apply_rule(a, r) == b for a, b in demos)]
        fits = [r for r in fits if apply_rule(test, r) not in wrong]
        if not fits:
            return "```python\ndef transform(grid):\n    return grid\n```"
        d, c = fits[len(turns) % len(fits)]
        return f"The rule is a turn and a colour shift.\n```python\n{TOY_PROGRAM.format(d=d, c=c)}```"
    wrong |= {parse_grid(t) for t in turns} - {None}  # type: ignore[arg-type]
    answers = [apply_rule(test, r) for r in RULES if all(apply_rule(a, r) == b for a, b in demos)]
    answer = next((g for g in answers if g not in wrong), ((0,),))  # short: the fake streams word by word
    return f"I think it is:\n```grid\n{grid_text(answer)}\n```"


@dataclass
class Rig:
    fake: FakeModelServer
    proxy: ProxyHandle

    def kwargs(self, **extra: Any) -> dict[str, Any]:
        return {"model": MODEL, "base_url": self.proxy.url, "max_retries": 0, **extra}

    def calls(self) -> int:
        return len(self.fake.chat_requests)


@pytest.fixture
def rig() -> Iterator[Rig]:
    with (
        FakeModelServer(toy_model) as fake,
        serve_proxy(ProxyConfig(upstream=fake.url, models=(MODEL,))) as proxy,
    ):
        yield Rig(fake, proxy)


def logs(out: Path, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [read_json(out / "i" / f"{r['step']}.json")["learner_log"] for r in records]


def check_counts(rig: Rig, learner: Any, out: Path, records: list[dict[str, Any]]) -> list[dict[str, float]]:
    """Every call is counted once, per instance, by the proxy; the records' counters are cumulative."""
    per_instance = [log["resources"] for log in logs(out, records)]
    proxy_total = rig.proxy.ledger.totals(learner.session.run_id)
    assert sum(c["calls"] for c in per_instance) == proxy_total.calls == rig.calls()
    for key in ("prompt_tokens", "completion_tokens"):
        assert sum(c[key] for c in per_instance) == getattr(proxy_total, key)
    for counts, log in zip(per_instance, logs(out, records), strict=True):
        assert set(counts) == set(COUNT_KEYS)
        replies = [m for talk in log["messages"] for m in talk if m["role"] == "assistant"]
        assert len(replies) == counts["calls"]
        assert (counts["prompt_tokens"] > 0) == (counts["completion_tokens"] > 0) == (counts["calls"] > 0)
    for n, record in enumerate(records, start=1):  # one user: each record follows its own round
        assert {k: record["resources"][k] for k in COUNT_KEYS} == {
            k: pytest.approx(sum(c[k] for c in per_instance[:n])) for k in COUNT_KEYS
        }
    assert learner.instance_resources(records[-1]["user"]) == per_instance[-1]
    # each record carries its own instance's counts, the proxy's
    assert [r["instance_resources"] for r in records] == [pytest.approx(c) for c in per_instance]
    return per_instance


@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
def test_each_learner_solves_toy_smoke_through_the_proxy(cls: Any, rig: Rig, tmp_path: Path) -> None:
    learner = cls(**rig.kwargs())
    records = run(learner, build_schedule(TOY, 0, epilogue=False), tmp_path / "run").records
    assert all(r["solved"] and r["error"] is None for r in records)
    counts = check_counts(rig, learner, tmp_path / "run", records)
    returning = [(r, c) for r, c in zip(records, counts, strict=True) if r["exposure_index"] > 0]
    assert returning
    if cls is ModelProgramLibrary:  # a kept program answers with no call, no cost, no demonstration
        assert all((r["charge"], c["calls"], c["prompt_tokens"]) == (0, 0, 0) for r, c in returning)
        assert len(read_json(tmp_path / "run" / "memory.json")["programs"]) == 3
    elif cls is DemoCacheFloor:  # the kept demonstrations are shown again, for free
        assert all(r["demos_bought"] == 0 and c["calls"] >= 1 for r, c in returning)
    else:  # nothing kept: every instance buys its demonstrations again
        assert all(r["demos_bought"] >= 3 and c["calls"] >= 1 for r, c in returning)
    first = read_json(tmp_path / "run" / "i" / "0.json")["learner_log"]
    assert first["counted_by"] == "proxy" and first["model"]["model"] == MODEL
    assert first["messages"][0][0]["role"] == "system"


@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
def test_each_learner_plays_arc1_smoke_through_the_proxy(cls: Any, rig: Rig, tmp_path: Path) -> None:
    learner = cls(**rig.kwargs(program_time_limit=2.0, max_calls=3))
    records = run(learner, build_schedule(ARC1, 0, epilogue=False), tmp_path / "run").records
    assert len(records) == 9 and all(r["error"] is None for r in records)
    counts = check_counts(rig, learner, tmp_path / "run", records)
    assert all(c["calls"] >= 1 for c in counts)  # nothing kept that answers: every instance calls


def test_the_demo_cache_floor_never_pays_again_for_demonstrations_it_holds(rig: Rig, tmp_path: Path) -> None:
    learner = DemoCacheFloor(**rig.kwargs())
    records = run(learner, build_schedule(TOY, 0, epilogue=False), tmp_path / "run").records
    kept = read_json(tmp_path / "run" / "memory.json")["demos"]
    for record, log in zip(records, logs(tmp_path / "run", records), strict=True):
        shown = log["messages"][0][1]["content"].count("Demonstration ")
        if record["exposure_index"] == 0:
            assert record["demos_bought"] == shown == 3
        else:
            assert record["demos_bought"] == 0 and shown >= 3
    assert {len(v) for v in kept.values()} == {3}


@pytest.mark.parametrize("cls", [ModelProgramLibrary, DemoCacheFloor], ids=lambda c: c.__name__)
def test_state_round_trips_and_the_seen_test_starts_from_it(cls: Any, rig: Rig, tmp_path: Path) -> None:
    stream = cls(**rig.kwargs())
    run(stream, build_schedule(TOY, 0, epilogue=False), tmp_path / "stream")
    state = sorted((tmp_path / "stream" / "state").glob("round-*"))[-1]
    fresh = cls(**rig.kwargs())
    fresh.load_state(state)
    assert fresh.library == stream.library and fresh.memory() == stream.memory()
    fresh.save_state(tmp_path)
    again = cls(**rig.kwargs())
    again.load_state(tmp_path)
    assert again.library == stream.library
    (tmp_path / "seen").mkdir()
    shutil.copy(tmp_path / "stream" / "alias-salt", tmp_path / "seen")
    calls_before = rig.calls()
    seen = run(again, test_schedule(TOY, 0, "seen"), tmp_path / "seen").records
    assert all(r["solved"] and r["demos_bought"] == 0 for r in seen)
    if cls is ModelProgramLibrary:
        assert [r["charge"] for r in seen] == [0] * len(seen) and rig.calls() == calls_before


def test_a_refused_model_stops_the_run_with_a_clear_error(rig: Rig, tmp_path: Path) -> None:
    learner = ModelProgramLibrary(**rig.kwargs(model="vendor/other-model"))
    with pytest.raises(LearnerError, match=r"refused the model.*vendor/other-model.*403"):
        run(learner, build_schedule(TOY, 0, epilogue=False), tmp_path / "run")
    assert rig.calls() == 0 and rig.proxy.ledger.totals().refused == 1
    committed = tmp_path / "run" / "records.jsonl"
    assert not committed.exists() or committed.read_text() == ""  # the round was not committed


def test_counting_on_a_proxy_that_is_not_there_is_a_clear_error(rig: Rig, tmp_path: Path) -> None:
    learner = StatelessFloor(model=MODEL, base_url=rig.fake.url, max_retries=0)  # no proxy in front
    with pytest.raises(LearnerError, match="proxy_counts=false"):
        run(learner, build_schedule(TOY, 0, epilogue=False), tmp_path / "run")


def test_without_the_proxy_the_client_counts(rig: Rig, tmp_path: Path) -> None:
    learner = StatelessFloor(model=MODEL, base_url=rig.fake.url, proxy_counts=False)
    records = run(learner, build_schedule(TOY, 0, epilogue=False), tmp_path / "run").records
    per_instance = [log["resources"] for log in logs(tmp_path / "run", records)]
    assert sum(c["calls"] for c in per_instance) == rig.calls() == records[-1]["resources"]["calls"]
    assert logs(tmp_path / "run", records)[0]["counted_by"] == "client"


def test_runs_are_deterministic_under_the_fake_server(tmp_path: Path) -> None:
    played = []
    for name in ("a", "b"):
        with (
            FakeModelServer(toy_model) as fake,
            serve_proxy(ProxyConfig(upstream=fake.url, models=(MODEL,))) as proxy,
        ):
            learner = ModelProgramLibrary(model=MODEL, base_url=proxy.url)
            out = tmp_path / name
            if name == "b":  # the same task names as the first run
                out.mkdir()
                shutil.copy(tmp_path / "a" / "alias-salt", out)
            records = run(learner, build_schedule(TOY, 1, epilogue=False), out).records
            for log in (trajectories := logs(out, records)):
                log["model"]["base_url"] = "the proxy"  # its port is drawn afresh
            timeless = [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]
            played.append((timeless, trajectories))
    assert played[0] == played[1]


def test_learners_are_built_from_json_keywords(rig: Rig, tmp_path: Path) -> None:
    path = "continual_arc_baselines.learners:DemoCacheFloor"
    learner = load_learner(path, {"model": MODEL, "effort": "low", "tries": 3, "initial_demos": 2})
    assert learner.settings.effort == "low" and learner.initial_demos == 2  # type: ignore[attr-defined]
    with pytest.raises(LearnerSpecError, match="unexpected keyword"):
        load_learner(path, {"model": MODEL, "reasoning": "low"})
    with pytest.raises(ValueError, match="NO_SUCH_KEY_VARIABLE"):
        StatelessFloor(model=MODEL, api_key_env="NO_SUCH_KEY_VARIABLE")
    schedule = tmp_path / "stream.json"
    build_schedule(TOY, 0, epilogue=False, rounds=3).save(schedule)
    kwargs = json.dumps(rig.kwargs())
    argv = ["run", "--learner", path, "--learner-kwargs", kwargs, "--schedule", str(schedule)]
    assert continual_arc_main([*argv, "--out", str(tmp_path / "run")]) == 0
    meta = read_json(tmp_path / "run" / "meta.json")
    assert meta["learner"] == {"class": path, "kwargs": rig.kwargs()}


def test_arc_baselines_run_plays_the_bare_model(rig: Rig, tmp_path: Path, capsys: Any) -> None:
    schedule = tmp_path / "held-out.json"
    test_schedule(TOY, 0, "held-out").save(schedule)
    out = tmp_path / "bare"
    argv = ["run", "--schedule", str(schedule), "--out", str(out), "--model", MODEL]
    assert baselines_main([*argv, "--effort", "low", "--base-url", rig.proxy.url, "--demos", "2"]) == 0
    assert "held-out" in capsys.readouterr().out
    meta = read_json(out / "meta.json")
    assert meta["learner"]["class"] == BARE_LEARNER
    assert meta["learner"]["kwargs"] == {
        "model": MODEL,
        "effort": "low",
        "base_url": rig.proxy.url,
        "demos": 2,
    }
    records = [json.loads(line) for line in (out / "records.jsonl").read_text().splitlines()]
    per_instance = [log["resources"] for log in logs(out, records)]
    assert sum(c["calls"] for c in per_instance) == rig.calls() == rig.proxy.ledger.totals().calls
    assert all(r["demos_bought"] == 2 for r in records)
    assert all(req.body.get("reasoning_effort") == "low" for req in rig.fake.chat_requests)
    assert baselines_main([*argv, "--base-url", rig.proxy.url]) == 1  # the directory is not empty
