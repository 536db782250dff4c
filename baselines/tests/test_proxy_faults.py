"""The tracking proxy against an upstream that misbehaves: every call it forwarded is counted, its
usage flagged unknown where the upstream sent none, and the upstream's Retry-After passed on.

The fake server's own records (its requests, the usage objects it wrote) are the truth counted against.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from continual_arc_baselines.fake_server import FakeModelServer, Script
from continual_arc_baselines.model import Backoff, ModelCallError, ModelClient
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, SettleOptions, serve_proxy

MODEL = "vendor/model-a"
GO = [{"role": "user", "content": "go on"}]


@contextmanager
def upstream_and_proxy(script: Script, **config: Any) -> Iterator[tuple[FakeModelServer, ProxyHandle]]:
    """A fake upstream running the script, with a proxy serving MODEL in front of it."""
    # No generation endpoint: a call whose usage is lost is charged its worst case once the proxy
    # has asked in vain (test_settle.py covers the settlement from the provider's record).
    config.setdefault("settle", SettleOptions(tries=2, wait=0.01))
    with (
        FakeModelServer(script, generations=False) as fake,
        serve_proxy(ProxyConfig(fake.url, (MODEL,), **config)) as proxy,
    ):
        yield fake, proxy


def client_of(proxy: ProxyHandle, **kw: Any) -> ModelClient:
    kw.setdefault("backoff", Backoff(initial=0.01, maximum=0.02))
    return ModelClient(proxy.url, MODEL, run_id="r", **kw)


def counts_match_the_server(proxy: ProxyHandle, fake: FakeModelServer, instance: str) -> dict[str, Any]:
    """The proxy's counts of the instance once it has seen every request (polled briefly)."""
    deadline = time.monotonic() + 2.0
    while proxy.ledger.tally("r", instance).calls < len(fake.chat_requests):
        assert time.monotonic() < deadline, "the proxy never counted every request the server saw"
        time.sleep(0.01)
    tally = proxy.ledger.tally("r", instance).as_dict()
    assert tally["calls"] == len(fake.chat_requests)
    assert tally["prompt_tokens"] == fake.reported("prompt_tokens")
    assert tally["completion_tokens"] == fake.reported("completion_tokens")
    return tally


@pytest.mark.parametrize("stream", [True, False])
def test_the_upstreams_retry_after_reaches_the_client_and_is_honoured(stream: bool) -> None:
    script = [{"status": 429, "headers": {"Retry-After": "1"}}, "after the wait"]
    with upstream_and_proxy(script) as (fake, proxy), client_of(proxy, stream=stream) as client:
        started = time.monotonic()
        assert client.chat(GO, instance="i").text == "after the wait"
        assert time.monotonic() - started >= 1.0  # the client's own backoff would wait 0.02 s
        counts_match_the_server(proxy, fake, "i")
    with upstream_and_proxy([{"status": 429, "headers": {"Retry-After": "7"}}]) as (_, proxy):
        body = {"model": MODEL, "messages": GO, "stream": stream}
        assert httpx.post(f"{proxy.url}/chat/completions", json=body).headers["retry-after"] == "7"


@pytest.mark.parametrize("stream", [True, False])
def test_an_attempt_that_times_out_is_counted_at_once_with_its_usage_unknown(stream: bool) -> None:
    # The upstream hangs for 3 s; the client gives up after 0.4 s and tries again. The proxy must
    # count the abandoned attempt when the client hangs up, not when (or if) the upstream answers.
    script = [{"hang": 3.0}, "in time"]
    with upstream_and_proxy(script) as (fake, proxy), client_of(proxy, timeout=0.4, stream=stream) as c:
        started = time.monotonic()
        assert c.chat(GO, instance="i").text == "in time"
        tally = counts_match_the_server(proxy, fake, "i")
        assert time.monotonic() - started < 2.5  # counted well before the hang ended
    assert (tally["calls"], tally["upstream_errors"], tally["usage_unknown_calls"]) == (2, 1, 1)
    assert tally["cost_unknown_calls"] == 2  # the lost attempt, and the answer (no price given)


def test_a_stream_abandoned_midway_is_counted_with_its_usage_unknown() -> None:
    script = [{"text": "one two three four five six", "chunk_delay": 0.3}, "whole"]
    with upstream_and_proxy(script) as (fake, proxy), client_of(proxy, timeout=0.5) as client:
        assert client.chat(GO, instance="i").text == "whole"
        tally = counts_match_the_server(proxy, fake, "i")
    assert (tally["calls"], tally["usage_unknown_calls"]) == (2, 1)


@pytest.mark.parametrize("stream", [True, False])
def test_a_malformed_reply_is_a_counted_retryable_error(stream: bool) -> None:
    with (
        upstream_and_proxy([{"malformed": True}, "two words"]) as (fake, proxy),
        client_of(proxy, stream=stream) as client,
    ):
        result = client.chat(GO, instance="i")
        tally = counts_match_the_server(proxy, fake, "i")
    assert (result.text, result.attempts) == ("two words", 2)
    assert (tally["calls"], tally["upstream_errors"], tally["usage_unknown_calls"]) == (2, 1, 1)


def test_under_a_cap_unknown_usage_without_a_price_is_refused_with_its_true_cause() -> None:
    # No price: the malformed reply's worst case cannot be charged, so its cost stays unknown.
    script = [{"malformed": True}, {"text": "two words", "cost": 0.1}]
    with (
        upstream_and_proxy(script, spend_cap=5.0) as (fake, proxy),
        client_of(proxy) as c,
        pytest.raises(ModelCallError) as caught,
    ):
        c.chat(GO, instance="i")  # the retry of the malformed reply is refused: its cost is unknown
    assert caught.value.status == 402 and len(fake.chat_requests) == 1
    assert "1 ended with no usage known" in caught.value.detail
    assert "reported usage but no cost" not in caught.value.detail  # the cause is the lost usage


def test_an_unknown_call_cost_lets_a_capped_run_go_on_and_counts_against_the_cap() -> None:
    free = [{"text": "two words", "cost": 0.0}, {"text": "three more words", "cost": 0.0}]
    script = [{"malformed": True}, *free, {"hang": 2.0}, "never"]
    config = {"spend_cap": 1.0, "unknown_call_cost": 0.5}
    with upstream_and_proxy(script, **config) as (fake, proxy), client_of(proxy, timeout=0.3) as c:
        assert c.chat(GO, instance="i").text == "two words"  # 0.5 USD charged for the malformed reply
        assert c.chat(GO, instance="j").text == "three more words"  # free
        with pytest.raises(ModelCallError) as caught:
            c.chat(GO, instance="k")  # 0.5 more for the hang: the cap refuses the retry
        spent = proxy.ledger.spent("r")
    assert (spent.cost, spent.usage_unknown_calls) == (0.0, 2)
    assert caught.value.status == 402 and len(fake.chat_requests) == 4
    assert "1.000000 USD of its 1 USD cap" in caught.value.detail


def test_carried_spend_counts_against_the_cap_once() -> None:
    script = [{"text": "x", "cost": 0.5}] * 4
    with upstream_and_proxy(script, spend_cap=2.0) as (fake, proxy), client_of(proxy) as client:
        client.chat(GO, instance="i")  # 0.5 USD counted by the proxy itself
        carry = f"{proxy.usage_url.rsplit('/', 1)[0]}/carry"
        reply = httpx.post(carry, json={"run": "r", "cost": 1.5})  # the records say 1.5 in all
        assert reply.json()["spent"]["cost"] == pytest.approx(1.5)
        httpx.post(carry, json={"run": "r", "cost": 1.5})  # told again: nothing more
        client.chat(GO, instance="j")  # 2.0 USD: the cap is reached
        with pytest.raises(ModelCallError) as caught:
            client.chat(GO, instance="k")
    assert caught.value.status == 402 and len(fake.chat_requests) == 2
