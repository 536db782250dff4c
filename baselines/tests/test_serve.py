"""``serve``: open weights as an OpenAI-compatible endpoint, counted exactly, batched, behind the proxy."""

from __future__ import annotations

import hashlib
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.cli import main as baselines_main
from continual_arc_baselines.learners import StatelessFloor
from continual_arc_baselines.proxy import ProxyConfig, serve_proxy
from continual_arc_baselines.serve import (
    ModelNotFound,
    RequestError,
    ServeHandle,
    load_engine,
    parse_request,
    resolve_model,
)
from continual_arc_baselines.serve.engine import GenerationKey
from continual_arc_baselines.systems.bare import BareModelLearner

MESSAGES = [
    {"role": "system", "content": "Answer with a grid."},
    {"role": "user", "content": "input:\n1 2\n3 4"},
]


@pytest.fixture(scope="module")
def server(tiny_model: Path) -> Iterator[ServeHandle]:
    # A long window: requests sent together in a test are surely batched together.
    with ServeHandle(load_engine(resolve_model(str(tiny_model))), window=0.3) as handle:
        yield handle


def chat(url: str, **body: Any) -> dict[str, Any]:
    reply = httpx.post(
        f"{url}/chat/completions", json={"messages": MESSAGES, "max_tokens": 12, **body}, timeout=60
    )
    reply.raise_for_status()
    payload: dict[str, Any] = reply.json()
    return payload


def streamed(url: str, **body: Any) -> tuple[str, list[dict[str, Any]]]:
    request = {"messages": MESSAGES, "max_tokens": 12, "stream": True, **body}
    with httpx.stream("POST", f"{url}/chat/completions", json=request, timeout=60) as reply:
        lines = [line[6:] for line in reply.iter_lines() if line.startswith("data: ")]
    assert lines[-1] == "[DONE]"
    chunks = [json.loads(line) for line in lines[:-1]]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    return text, [c["usage"] for c in chunks if c.get("usage")]


def test_a_folder_is_named_by_the_hash_of_its_files(tiny_model: Path, tmp_path: Path) -> None:
    lines = ""
    for path in sorted(tiny_model.rglob("*"), key=lambda p: p.relative_to(tiny_model).as_posix()):
        if path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            lines += f"{path.relative_to(tiny_model).as_posix()}\t{digest}\n"
    digest = hashlib.sha256(lines.encode()).hexdigest()
    assert resolve_model(str(tiny_model)).name == f"local/tiny-qwen2@sha256:{digest}"
    copy = shutil.copytree(tiny_model, tmp_path / "renamed")
    assert resolve_model(str(copy)).name == f"local/renamed@sha256:{digest}"
    (copy / "extra.txt").write_text("x")
    assert digest not in resolve_model(str(copy)).name
    cached = resolve_model("org/model@0123abcd")
    assert (cached.name, cached.source, cached.revision) == ("org/model@0123abcd", "org/model", "0123abcd")


def test_a_model_not_on_this_machine_is_one_clear_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    pytest.importorskip("transformers", reason="open weights need the baselines' [train] extra")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-cache"))
    with pytest.raises(ModelNotFound, match="not in the local Hugging Face cache"):
        load_engine(resolve_model("nobody/nothing@0123abcd"))
    assert baselines_main(["serve", "not-a-model"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "neither a model folder nor a repository" in err[0]


def test_usage_is_the_tokenizers_count_streamed_or_not(server: ServeHandle, tiny_model: Path) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_model)
    text = tokenizer.apply_chat_template(MESSAGES, tokenize=False, add_generation_prompt=True)
    prompt = len(tokenizer(text, add_special_tokens=False)["input_ids"])
    plain = chat(server.url)
    reply = plain["choices"][0]["message"]["content"]
    usage = plain["usage"]
    assert plain["model"] == server.engine.name and usage["prompt_tokens"] == prompt
    # a random model never stops: the reply is the limit's 12 tokens, and decodes from them
    assert plain["choices"][0]["finish_reason"] == "length" and usage["completion_tokens"] == 12
    assert usage["total_tokens"] == prompt + 12
    text, usages = streamed(server.url, stream_options={"include_usage": True})
    assert text == reply and usages == [usage]  # greedy: the same reply, and one usage chunk
    assert streamed(server.url)[1] == []  # no usage unless asked for
    assert chat(server.url)["choices"][0]["message"]["content"] == reply


def test_tools_reach_the_template_and_content_parts_are_read(server: ServeHandle) -> None:
    tool = {"type": "function", "function": {"name": "arc", "parameters": {"type": "object"}}}
    parts = [{"role": MESSAGES[0]["role"], "content": [{"type": "text", "text": MESSAGES[0]["content"]}]}]
    with_tools = chat(server.url, messages=[*parts, MESSAGES[1]], tools=[tool])
    # the tiny model's template writes no tools, so the prompt is the plain one, token for token
    assert with_tools["usage"] == chat(server.url)["usage"]
    assert with_tools["choices"][0]["finish_reason"] == "length"  # a random model calls nothing


def test_a_seeded_temperature_is_honoured(server: ServeHandle) -> None:
    def text(**sampling: Any) -> str:
        return str(chat(server.url, **sampling)["choices"][0]["message"]["content"])

    greedy = text()
    assert text(temperature=1.5, seed=7) == text(temperature=1.5, seed=7)
    assert any(text(temperature=1.5, seed=s) != greedy for s in range(4))


def test_models_lists_the_name_and_other_models_are_refused(server: ServeHandle) -> None:
    models = httpx.get(f"{server.url}/models").json()
    assert [m["id"] for m in models["data"]] == [server.engine.name]
    refused = httpx.post(f"{server.url}/chat/completions", json={"model": "other", "messages": MESSAGES})
    assert refused.status_code == 404 and server.engine.name in refused.json()["error"]["message"]


def test_concurrent_requests_share_one_batch_and_answer_as_alone(server: ServeHandle) -> None:
    other = [{"role": "user", "content": "a longer prompt: 7 7 7 7 7 7 7 7 7 7 7 7"}]
    alone = [chat(server.url)["choices"][0]["message"]["content"], chat(server.url, messages=other)]
    before = len(server.served)
    replies: dict[int, dict[str, Any]] = {}
    threads = [
        threading.Thread(target=lambda: replies.__setitem__(0, chat(server.url))),
        threading.Thread(target=lambda: replies.__setitem__(1, chat(server.url, messages=other))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    served = server.served[before:]
    assert len(served) == 2 and served[0]["batch"] == served[1]["batch"]
    assert [s["batch_size"] for s in served] == [2, 2]
    assert replies[0]["choices"][0]["message"]["content"] == alone[0]
    assert replies[1]["choices"][0]["message"]["content"] == alone[1]["choices"][0]["message"]["content"]
    assert replies[1]["usage"] == alone[1]["usage"]


@pytest.mark.parametrize("cls", [BareModelLearner, StatelessFloor], ids=lambda c: c.__name__)
def test_a_model_learner_plays_open_weights_through_the_proxy(
    cls: Any, tiny_model: Path, tmp_path: Path
) -> None:
    engine = load_engine(resolve_model(str(tiny_model)))
    with (
        ServeHandle(engine) as served,
        serve_proxy(ProxyConfig(upstream=served.url, models=(engine.name,))) as proxy,
    ):
        learner = cls(model=engine.name, base_url=proxy.url, max_tokens=8, max_calls=2, max_retries=0)
        schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False)
        records = run(learner, schedule, tmp_path / "run").records
        log = served.served
    assert all(r["error"] is None for r in records)
    counts = [r["instance_resources"] for r in records]
    assert sum(c["calls"] for c in counts) == len(log) == proxy.ledger.totals(learner.session.run_id).calls
    for key in ("prompt_tokens", "completion_tokens"):
        assert sum(c[key] for c in counts) == sum(entry[key] for entry in log)
    trajectory = json.loads((tmp_path / "run" / "i" / "0.json").read_text())
    assert trajectory["learner_log"]["model"]["model"] == engine.name


class _Named:
    """What parse_request asks of an engine: its name, and the prompt's ids (one a message here)."""

    name = "local/model"

    def encode(self, messages: list[object], tools: list[object] | None = None) -> tuple[int, ...]:
        return tuple(range(len(messages)))


def test_a_request_s_sampling_fields_are_read_as_numbers_and_refused_otherwise() -> None:
    asked = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 7, "temperature": 0, "seed": 3}
    prompt, key = parse_request(_Named(), asked, 1024)  # type: ignore[arg-type]
    assert (prompt.ids, prompt.max_tokens, key) == ((0,), 7, GenerationKey(0.0, 1.0, 3))
    _, default = parse_request(_Named(), {"messages": [{"role": "user"}], "top_p": 0.5}, 64)  # type: ignore[arg-type]
    assert default == GenerationKey(0.0, 0.5, 0)
    for field, value in (("temperature", "hot"), ("max_tokens", [1]), ("n", True)):
        with pytest.raises(RequestError, match=f"the field '{field}' must be a number") as refused:
            parse_request(_Named(), {**asked, field: value}, 1024)  # type: ignore[arg-type]
        assert refused.value.status == 400
    with pytest.raises(RequestError, match="one choice per request"):
        parse_request(_Named(), {**asked, "n": 2}, 1024)  # type: ignore[arg-type]
