from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from continual_arc_baselines.fake_server import FakeModelServer, Script
from continual_arc_baselines.model import Backoff, ModelCallError, ModelClient, instance_mark
from continual_arc_baselines.proxy import (
    REFUSED_FIELDS,
    UNREACHED_HEADER,
    Price,
    ProxyConfig,
    ProxyHandle,
    marked_base_url,
    serve_proxy,
)

HTTP = httpx.Client(timeout=20)  # one client: building one per request costs a TLS context each time
MODEL = "vendor/model-a"
KEY = "sk-upstream-secret"


class Rig:
    """A fake upstream with the proxy in front of it."""

    def __init__(self, fake: FakeModelServer, proxy: ProxyHandle, log: Path) -> None:
        self.fake, self.proxy, self.log = fake, proxy, log

    def post(self, body: dict[str, Any], path: str = "/chat/completions", **headers: str) -> httpx.Response:
        return HTTP.post(self.proxy.url + path, json=body, headers=headers)

    def usage(self, **params: str) -> dict[str, Any]:
        reply = HTTP.get(self.proxy.usage_url, params=params)
        reply.raise_for_status()
        result: dict[str, Any] = reply.json()
        return result

    def log_lines(self) -> list[dict[str, Any]]:
        """The ledger's lines but each call's ``start`` and ``generation`` (written before it ends)."""
        lines = [json.loads(line) for line in self.log.read_text().splitlines()]
        return [line for line in lines if line["event"] not in ("start", "generation")]

    def client(self, run: str = "r1", **kw: Any) -> ModelClient:
        kw.setdefault("backoff", Backoff(initial=0.01, maximum=0.02))
        return ModelClient(self.proxy.url, MODEL, run_id=run, **kw)


@pytest.fixture
def make_rig(tmp_path: Path) -> Iterator[Any]:
    opened: list[tuple[FakeModelServer, ProxyHandle]] = []

    def make(script: Script, **config: Any) -> Rig:
        fake = FakeModelServer(script).start()
        log = tmp_path / f"proxy-{len(opened)}.jsonl"
        config.setdefault("models", (MODEL, "vendor/model-b"))
        proxy = serve_proxy(ProxyConfig(upstream=fake.url, api_key=KEY, log_path=log, **config))
        opened.append((fake, proxy))
        return Rig(fake, proxy, log)

    yield make
    for fake, proxy in opened:
        proxy.close()
        fake.close()


def _body(model: str = MODEL, **extra: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "solve this"}], **extra}


def test_counts_equal_the_calls_the_upstream_saw_per_instance(make_rig: Any) -> None:
    rig = make_rig(lambda request: "a reply of six words here")
    plan = ["a", "b", "b", "c", "c", "c"]
    with rig.client() as client:
        for instance in plan:
            client.chat([{"role": "user", "content": "solve this"}], instance=instance)
    seen = Counter(r.body["messages"][0]["content"].splitlines()[0] for r in rig.fake.chat_requests)
    for instance, calls in Counter(plan).items():
        counts = rig.usage(run="r1", instance=instance)
        assert counts["calls"] == calls == seen[instance_mark(instance, "r1")]
        assert counts["completion_tokens"] == 6 * calls
        assert counts["prompt_tokens"] == client.usage(instance).prompt_tokens
    run = rig.usage(run="r1")
    assert run["calls"] == len(rig.fake.chat_requests) == 6
    assert set(run["instances"]) == {"a", "b", "c"}
    assert rig.usage(run="r1", instance="never")["calls"] == 0
    assert rig.usage()["total"]["calls"] == 6


def test_the_upstream_key_is_added_and_the_learners_is_dropped(make_rig: Any) -> None:
    rig = make_rig(["ok"])
    assert rig.post(_body(), Authorization="Bearer learner-key").status_code == 200
    headers = rig.fake.requests[0].headers
    assert headers["authorization"] == f"Bearer {KEY}"
    assert "x-continual-arc-instance" not in headers
    assert KEY not in rig.log.read_text()


def test_both_chat_paths_are_served(make_rig: Any) -> None:
    rig = make_rig(["one", "two"])
    base = rig.proxy.url.removesuffix("/v1")
    assert HTTP.post(f"{base}/v1/chat/completions", json=_body()).status_code == 200
    assert HTTP.post(f"{base}/chat/completions", json=_body()).status_code == 200
    assert [r.path for r in rig.fake.requests] == ["/v1/chat/completions"] * 2


@pytest.mark.parametrize(
    "model", ["vendor/model-c", f"{MODEL}:online", f"{MODEL}:nitro", "openrouter/auto", None]
)
def test_other_models_are_refused(make_rig: Any, model: str | None) -> None:
    rig = make_rig(["never"])
    reply = rig.post(_body(model), **{"X-Continual-ARC-Run": "r1", "X-Continual-ARC-Instance": "i"})
    assert reply.status_code == 403
    assert reply.json()["error"]["code"] == "model"
    assert rig.fake.requests == []
    assert rig.usage(run="r1", instance="i")["refused"] == 1
    assert rig.usage(run="r1", instance="i")["calls"] == 0


def test_the_client_sees_a_refusal_as_not_retryable(make_rig: Any) -> None:
    rig = make_rig(["never"])
    with ModelClient(rig.proxy.url, f"{MODEL}:online") as client, pytest.raises(ModelCallError) as caught:
        client.chat([{"role": "user", "content": "x"}], instance="i")
    assert (caught.value.status, caught.value.attempts) == (403, 1)
    assert "online" in str(caught.value)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/v1/models", 404),
        ("POST", "/v1/embeddings", 404),
        ("POST", "/v1/responses", 404),
        ("POST", "/v1/completions", 404),
        ("GET", "/v1/chat/completions", 405),
        ("POST", "/continual-arc/usage", 404),
    ],
)
def test_other_endpoints_are_refused(make_rig: Any, method: str, path: str, status: int) -> None:
    rig = make_rig(["never"])
    base = rig.proxy.url.removesuffix("/v1")
    reply = HTTP.request(method, base + path, json=_body())
    assert reply.status_code == status
    assert "error" in reply.json()
    assert rig.fake.requests == []
    assert rig.usage()["total"]["refused"] == 1


FIELD_EXAMPLES = {
    "web_search_options": {},
    "plugins": [{"id": "web"}],
    "models": ["x"],
    "route": "fallback",
    "preset": "p",
}
REFUSED_BODIES = {
    **{name: _body(**{name: value}) for name, value in FIELD_EXAMPLES.items()},
    "web search tool": _body(tools=[{"type": "web_search_preview"}]),
    "tool without type": _body(tools=[{"function": {"name": "f"}}]),
    "file part": _body(
        messages=[{"role": "user", "content": [{"type": "file", "file": {"file_data": "x"}}]}]
    ),
    "remote image": _body(
        messages=[
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x.test/a.png"}}]}
        ]
    ),
    "remote audio": _body(
        messages=[
            {
                "role": "user",
                "content": [{"type": "input_audio", "input_audio": {"data": "https://x.test/a"}}],
            }
        ]
    ),
    "video part": _body(
        messages=[{"role": "user", "content": [{"type": "video_url", "video_url": {"url": "x"}}]}]
    ),
}


def test_every_refused_field_has_an_example_here() -> None:
    assert set(FIELD_EXAMPLES) == set(REFUSED_FIELDS)


@pytest.mark.parametrize("name", sorted(REFUSED_BODIES))
def test_fields_that_make_the_provider_fetch_or_run_something_are_refused(make_rig: Any, name: str) -> None:
    rig = make_rig(["never"])
    reply = rig.post(REFUSED_BODIES[name])
    assert reply.status_code == 400, name
    assert rig.fake.requests == []
    assert rig.log_lines()[-1]["event"] == "refused"


def test_function_tools_and_inline_images_are_forwarded(make_rig: Any) -> None:
    rig = make_rig(["one", "two"])
    tool = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
    assert rig.post(_body(tools=[tool])).status_code == 200
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    assert rig.post(_body(messages=[{"role": "user", "content": [image]}])).status_code == 200
    assert len(rig.fake.requests) == 2


def test_the_spend_cap_answers_402_without_calling_the_upstream(make_rig: Any) -> None:
    # Each call: 4 prompt words and 400 completion words at 1,000 USD per million each = 0.404 USD.
    rig = make_rig(lambda request: "w " * 400, spend_cap=1.0, prices={MODEL: Price(1000, 1000)})
    headers = {"X-Continual-ARC-Run": "capped"}
    assert rig.post(_body(messages=[{"role": "user", "content": "a b c d"}]), **headers).status_code == 200
    assert rig.post(_body(messages=[{"role": "user", "content": "a b c d"}]), **headers).status_code == 200
    # 0.192 USD left: not enough for this prompt (about 30 tokens, estimated) and a 256-token reply.
    refused = rig.post(_body(), **headers)
    assert refused.status_code == 402
    error = refused.json()["error"]
    assert error["code"] == "spend_cap"
    assert "the 0.192000 USD left cannot pay for this prompt" in error["message"]
    assert len(rig.fake.requests) == 2
    assert rig.usage(run="capped")["refused"] == 1
    assert rig.usage(run="capped")["cost"] == pytest.approx(0.808)
    assert rig.post(_body(), **{"X-Continual-ARC-Run": "other"}).status_code == 200  # the cap is per run


def test_the_spend_cap_uses_the_upstreams_reported_cost(make_rig: Any) -> None:
    rig = make_rig([{"text": "x", "cost": 0.7}] * 3, spend_cap=1.0)
    assert rig.post(_body()).status_code == 200
    assert rig.post(_body()).status_code == 200
    assert rig.post(_body()).status_code == 402
    assert len(rig.fake.requests) == 2
    assert rig.usage(run="default")["cost"] == pytest.approx(1.4)
    assert {line["cost_source"] for line in rig.log_lines() if line["event"] == "call"} == {"upstream"}


def test_a_cap_with_unknown_costs_refuses_rather_than_overspend(make_rig: Any) -> None:
    rig = make_rig(["a", "b"], spend_cap=5.0)
    assert rig.post(_body()).status_code == 200
    reply = rig.post(_body())
    assert reply.status_code == 402
    assert "cannot be enforced" in reply.json()["error"]["message"]
    assert len(rig.fake.requests) == 1


def test_a_stream_passes_through_with_its_usage_counted(make_rig: Any) -> None:
    rig = make_rig([{"text": "a streamed reply of seven words here", "reasoning_tokens": 2}])
    body = _body(stream=True)  # no stream_options: the proxy asks for the usage chunk itself
    headers = {"X-Continual-ARC-Run": "r1", "X-Continual-ARC-Instance": "s"}
    with HTTP.stream(
        "POST", rig.proxy.url + "/chat/completions", json=body, headers=headers, timeout=20
    ) as reply:
        assert reply.status_code == 200
        assert reply.headers["content-type"].startswith("text/event-stream")
        events = [line[6:] for line in reply.iter_lines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c["choices"])
    assert text == "a streamed reply of seven words here"
    assert chunks[-1]["usage"]["completion_tokens"] == 9
    assert rig.fake.requests[0].body["stream_options"] == {"include_usage": True}
    counts = rig.usage(run="r1", instance="s")
    assert (counts["calls"], counts["completion_tokens"], counts["reasoning_tokens"]) == (1, 9, 2)
    assert counts["prompt_tokens"] == 2
    assert counts["usage_unknown_calls"] == 0


def test_stream_chunks_arrive_as_they_come(make_rig: Any) -> None:
    rig = make_rig([{"text": "one two three four five six", "chunk_delay": 0.25}])
    arrivals: list[float] = []
    with HTTP.stream(
        "POST", rig.proxy.url + "/chat/completions", json=_body(stream=True), timeout=20
    ) as reply:
        for line in reply.iter_lines():
            if line.startswith("data: "):
                arrivals.append(time.monotonic())
    # The upstream spends about 2 s writing; a proxy that buffered would deliver everything at once.
    assert arrivals[-1] - arrivals[0] > 0.75


def test_a_stream_without_usage_is_counted_with_tokens_unknown(make_rig: Any) -> None:
    rig = make_rig([{"text": "no usage", "usage": None}])
    with rig.client() as client:
        result = client.chat([{"role": "user", "content": "x"}], instance="u")
    assert not result.usage_known
    counts = rig.usage(run="r1", instance="u")
    assert (counts["calls"], counts["usage_unknown_calls"], counts["prompt_tokens"]) == (1, 1, 0)
    line = rig.log_lines()[-1]
    assert line["usage_known"] is False and line["prompt_tokens"] is None


def test_upstream_errors_pass_through_and_are_counted(make_rig: Any) -> None:
    rig = make_rig([{"status": 429}, {"status": 500}, "fine"])
    with rig.client(max_retries=2) as client:
        assert client.chat([{"role": "user", "content": "x"}], instance="e").text == "fine"
    counts = rig.usage(run="r1", instance="e")
    assert (counts["calls"], counts["upstream_errors"]) == (3, 2)
    assert [line["status"] for line in rig.log_lines()] == [429, 500, 200]


def test_an_unreachable_upstream_gives_502_and_is_no_call(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    with serve_proxy(ProxyConfig(upstream=dead, models=(MODEL,), timeout=5)) as proxy:
        reply = HTTP.post(proxy.url + "/chat/completions", json=_body())
        assert reply.status_code == 502 and reply.headers[UNREACHED_HEADER] == "true"
        totals = proxy.ledger.totals()
        assert (totals.calls, totals.upstream_errors, totals.unreached) == (0, 0, 1)


def test_the_log_has_one_line_per_call_and_refusal(make_rig: Any) -> None:
    rig = make_rig(["one two", "three"], prices={MODEL: Price(1.0, 2.0)})
    headers = {"X-Continual-ARC-Run": "r9", "X-Continual-ARC-Instance": "task%2F3"}
    rig.post(_body(), **headers)
    rig.post(_body("nope"), **headers)
    rig.post(_body(stream=True), **headers)
    lines = rig.log_lines()
    assert [line["event"] for line in lines] == ["call", "refused", "call"]
    first = lines[0]
    assert (first["run"], first["instance"], first["model"], first["status"]) == ("r9", "task/3", MODEL, 200)
    assert (first["prompt_tokens"], first["completion_tokens"], first["stream"]) == (2, 2, False)
    assert first["cost"] == pytest.approx((2 * 1.0 + 2 * 2.0) / 1e6)
    assert first["cost_source"] == "price"
    assert lines[1]["kind"] == "model" and lines[1]["status"] == 403
    assert lines[2]["stream"] is True and lines[2]["completion_tokens"] == 1
    assert all(isinstance(line["time"], float) for line in lines)


def test_the_command_line_starts_the_proxy(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    with FakeModelServer(["from upstream"]) as fake:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        code = "from continual_arc_baselines.cli import main; raise SystemExit(main())"
        args = ["proxy", "--upstream", fake.url, "--api-key-env", "TEST_UPSTREAM_KEY", "--model", MODEL]
        args += ["--port", str(port), "--log", str(log), "--spend-cap", "2", "--price", f"{MODEL}=1,2"]
        env = {**os.environ, "TEST_UPSTREAM_KEY": "sk-from-env"}
        process = subprocess.Popen(
            [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True, env=env
        )
        try:
            assert process.stdout is not None
            assert f"127.0.0.1:{port}/v1" in process.stdout.readline()
            reply = HTTP.post(f"http://127.0.0.1:{port}/v1/chat/completions", json=_body())
            assert reply.json()["choices"][0]["message"]["content"] == "from upstream"
            assert fake.requests[0].headers["authorization"] == "Bearer sk-from-env"
        finally:
            process.terminate()
            process.wait(timeout=20)
    ended = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["cost_source"] for line in ended if line["event"] == "call"] == ["price"]


def test_the_command_line_checks_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    from continual_arc_baselines.cli import main

    monkeypatch.delenv("NO_SUCH_KEY_VARIABLE", raising=False)
    base = ["proxy", "--upstream", "http://127.0.0.1:9/v1", "--model", MODEL, "--port", "0"]
    assert main([*base, "--api-key-env", "NO_SUCH_KEY_VARIABLE"]) == 2
    assert main([*base, "--price", "garbage"]) == 2
    assert main([*base, "--price", "other/model=1,2"]) == 2


def test_a_streamed_call_is_counted_by_the_time_its_client_returns(make_rig: Any) -> None:
    # Read the counts at once, with no wait: the call must already be in the ledger, and a client
    # that hangs up right after [DONE] is no failure.
    rig = make_rig([{"text": f"reply number {i}"} for i in range(5)])
    client = rig.client(run="quick", stream=True)
    for i in range(5):
        result = client.chat([{"role": "user", "content": "go"}], instance=f"i{i}")
        counts = rig.usage(run="quick", instance=f"i{i}")
        assert (counts["calls"], counts["completion_tokens"]) == (1, result.completion_tokens)
    assert rig.usage(run="quick")["upstream_errors"] == 0


def test_a_marked_base_url_counts_under_the_run_and_instance_it_names(make_rig: Any) -> None:
    rig = make_rig(["one", "two"])
    base = marked_base_url(rig.proxy.url, "run 7", "task-3f/12/0")
    assert HTTP.post(base + "/chat/completions", json=_body()).status_code == 200
    assert HTTP.post(base + "/chat/completions", json=_body(stream=True)).status_code == 200
    assert HTTP.get(base + "/models").status_code == 404
    tally = rig.usage(run="run 7", instance="task-3f/12/0")
    assert (tally["calls"], tally["refused"]) == (2, 1)
    assert tally["prompt_tokens"] == 2 * 2  # "solve this", twice
    assert rig.usage(run="default")["calls"] == 0
