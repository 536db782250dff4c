"""The trained learner: LoRA adapters trained between rounds, saved, loaded and reset, compute apart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from continual_arc.core.grids import Grid
from continual_arc.measure.report import format_run, run_report
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines import prompts
from continual_arc_baselines.serve import ModelNotFound, resolve_model
from continual_arc_baselines.trained.learner import Taught, TrainedLearner, round_examples
from continual_arc_baselines.trained.lora import COMPUTE_KEYS

A: Grid = ((1, 2), (3, 4))
B: Grid = ((4, 3), (2, 1))
C: Grid = ((5, 0), (0, 5))
D: Grid = ((0, 5), (5, 0))
PROBE = [{"role": "user", "content": "input:\n1 2\n3 4"}]
FAST = {"learning_rate": 0.05, "epochs": 3, "max_tokens": 8, "max_calls": 2, "max_retries": 0}


def learner(tiny_model: Path, **extra: Any) -> TrainedLearner:
    name = resolve_model(str(tiny_model)).name
    return TrainedLearner(model=name, weights=str(tiny_model), **{**FAST, **extra})


def reply(trained: TrainedLearner) -> str:
    body = {"messages": PROBE, "max_tokens": 16}
    answer = httpx.post(f"{trained.server.url}/chat/completions", json=body, timeout=60).json()
    return str(answer["choices"][0]["message"]["content"])


def weights(trained: TrainedLearner) -> dict[str, list[Any]]:
    return {k: v.tolist() for k, v in trained.adapter.weights().items()}


def test_the_round_is_taught_in_one_fixed_format() -> None:
    taught = [Taught(((A, B), (C, D)), (C, B), 8), Taught(((A, B),), None, 8)]
    examples = round_examples(taught)
    fence = "```\n{}\n```"
    assert [(list(e.messages), e.reply) for e in examples] == [
        (prompts.bare_messages([(C, D)], A, 8), fence.format("4 3\n2 1")),
        (prompts.bare_messages([(A, B)], C, 8), fence.format("0 5\n5 0")),
        (prompts.bare_messages([(A, B), (C, D)], C, 8), fence.format("4 3\n2 1")),
        (prompts.bare_messages([], A, 8), fence.format("4 3\n2 1")),
    ]
    assert all(prompts.parse_grid(e.reply) is not None for e in examples)


def test_training_changes_the_adapters_and_the_replies_and_reset_undoes_it(
    tiny_model: Path, tmp_path: Path
) -> None:
    trained = learner(tiny_model)
    try:
        base_weights, base_reply = weights(trained), reply(trained)
        trained.adapter.train(round_examples([Taught(((A, B), (C, D)), (C, B), 8)]))
        after_weights, after_reply = weights(trained), reply(trained)
        assert after_weights != base_weights and after_reply != base_reply
        compute = trained.training_resources()
        assert set(compute) == set(COMPUTE_KEYS) and compute["rounds_trained"] == 1
        assert compute["examples_trained"] == compute["steps_trained"] == 3 * 3
        assert compute["tokens_trained"] > 0
        assert compute["device_seconds"] > 0 and compute["peak_memory_bytes"] > 0
        trained.save_state(tmp_path / "state")
        assert {p.name for p in (tmp_path / "state").iterdir()} == {
            "adapter.safetensors",
            "optimizer.pt",
            "trained.json",
        }
        trained.reset()
        assert weights(trained) == base_weights and reply(trained) == base_reply
    finally:
        trained.close()
    again = learner(tiny_model)
    try:
        again.load_state(tmp_path / "state")
        assert weights(again) == after_weights and reply(again) == after_reply
        assert again.training_resources() == compute
        state = {k: v for k, v in again.adapter.optimizer.state_dict()["state"].items()}
        assert state and all(int(s["step"]) == 9 for s in state.values())  # 3 epochs of 3 examples
    finally:
        again.close()


def test_a_token_limit_that_drops_every_example_trains_nothing_and_says_so(
    tiny_model: Path, tmp_path: Path
) -> None:
    trained = learner(tiny_model, max_train_tokens=2)  # shorter than any example
    try:
        before = weights(trained)
        examples = round_examples([Taught(((A, B), (C, D)), (C, B), 8)])
        with pytest.warns(UserWarning) as caught:
            trained.adapter.train(examples)
        compute = trained.training_resources()
        assert weights(trained) == before
        assert (compute["rounds_trained"], compute["steps_trained"], compute["examples_trained"]) == (0, 0, 0)
        (sentence,) = trained.memory()["untrained_rounds"]
        assert str(caught[0].message) == sentence
        assert sentence.startswith("max_train_tokens=2 left out every one of the round's 3 examples")
        assert sentence.endswith("the round trained nothing") and sentence.count(".") == 0
        trained.save_state(tmp_path / "state")
    finally:
        trained.close()
    again = learner(tiny_model)  # a resumed run's learner, given the saved state
    try:
        assert again.memory()["untrained_rounds"] == []
        again.load_state(tmp_path / "state")
        assert again.memory()["untrained_rounds"] == [sentence]
    finally:
        again.close()


def test_a_folder_that_is_not_the_named_model_is_refused(tiny_model: Path) -> None:
    with pytest.raises(ModelNotFound, match=r"is local/tiny-qwen2@sha256:.*not the model named"):
        TrainedLearner(model="local/tiny-qwen2@sha256:00", weights=str(tiny_model))


def test_a_run_counts_calls_like_the_server_and_training_apart(tiny_model: Path, tmp_path: Path) -> None:
    trained = learner(tiny_model, epochs=1)
    try:
        schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False)
        result = run(trained, schedule, tmp_path / "run")
        log = trained.server.served
    finally:
        trained.close()
    records = result.records
    assert all(r["error"] is None for r in records)
    counts = [r["instance_resources"] for r in records]
    assert sum(c["calls"] for c in counts) == len(log)
    for key in ("prompt_tokens", "completion_tokens"):
        assert sum(c[key] for c in counts) == sum(entry[key] for entry in log)
    rounds = max(r["round"] for r in records) + 1
    last = max(records, key=lambda r: r["step"])["training_resources"]
    assert last["rounds_trained"] == rounds and "tokens_trained" not in last.keys() - set(COMPUTE_KEYS)
    assert all("tokens_trained" not in r["resources"] for r in records)  # serving counts only
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    report = run_report(tmp_path / "run", meta, records)
    assert report["training"] == last
    assert f"tokens_trained {last['tokens_trained']:g}" in format_run(report)


def test_its_proxy_counts_prompts_with_the_models_tokenizer(tiny_model: Path) -> None:
    """The proxy in front of the weights it serves counts a prompt as the server does, not from bytes."""
    trained = learner(tiny_model)
    try:
        assert trained.proxy is not None
        model = trained.settings.model
        body = {"model": model, "messages": PROBE, "max_tokens": 4}
        answer = httpx.post(f"{trained.proxy.url}/chat/completions", json=body, timeout=60)
        answer.raise_for_status()
        served = answer.json()["usage"]["prompt_tokens"]
        assert trained.proxy.ledger.prompt_count(model, body) == served
        other = {"model": model, "messages": [*PROBE, {"role": "assistant", "content": "1 2"}, *PROBE]}
        assert trained.proxy.ledger.prompt_count(model, other) == trained.engine.prompt_tokens(other) > served
    finally:
        trained.close()
