"""What a call really cost, when its usage is lost, and a run's budget shared by its users (issue 38).

The fake server bills every generation it starts, as a provider does, whether or not its reply is
read to the end, and serves OpenRouter's ``GET /generation?id=`` (or, with ``generations=False``,
not): its bill is the truth the proxy's ledger is held to.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc_baselines.fake_faults import prompt_tokens
from continual_arc_baselines.fake_server import FakeModelServer, Script
from continual_arc_baselines.model import Backoff, ModelCallError, ModelClient
from continual_arc_baselines.proxy import (
    Ledger,
    Price,
    PromptGauge,
    ProxyConfig,
    ProxyHandle,
    ReplyLimits,
    SettleOptions,
    Settler,
    Tally,
    serve_proxy,
)
from continual_arc_baselines.proxy.budget import PROMPT_BYTES_PER_TOKEN

MODEL = "vendor/model-a"
RATES = (1000.0, 2000.0)  # USD per million prompt and completion tokens: 1e-3 and 2e-3 USD a token
PRICE = Price(*RATES)
GO = [{"role": "user", "content": "go on"}]
FAST = SettleOptions(tries=3, wait=0.05)


@contextmanager
def rig(
    script: Script, *, generations: bool = True, **config: Any
) -> Iterator[tuple[FakeModelServer, ProxyHandle]]:
    config.setdefault("settle", FAST)
    config.setdefault("prices", {MODEL: PRICE})
    with (
        FakeModelServer(script, generations=generations, price=RATES) as fake,
        serve_proxy(ProxyConfig(fake.url, (MODEL,), **config)) as proxy,
    ):
        yield fake, proxy


def client_of(proxy: ProxyHandle, run: str = "r", **kw: Any) -> ModelClient:
    kw.setdefault("backoff", Backoff(initial=0.01, maximum=0.02))
    return ModelClient(proxy.url, MODEL, run_id=run, **kw)


def settled(proxy: ProxyHandle, fake: FakeModelServer, run: str = "r") -> Tally:
    """The run's counts once every call the server saw has settled (a lost one settles in the background)."""
    deadline = time.monotonic() + 10

    def seen() -> int:
        spent = proxy.ledger.spent(run)
        return spent.calls + spent.unreached

    while seen() < len(fake.chat_requests) or proxy.ledger.in_flight(run):
        assert time.monotonic() < deadline, "a call never settled"
        time.sleep(0.01)
    return proxy.ledger.spent(run)


# -- 1. a lost call is settled at the provider's bill, else at no more than the per-call ceiling ------

LOST = {
    "stream-broken": ({"text": "one two three four five six", "die_after": 2}, {"stream": True}),
    "plain-broken": ({"text": "one two three four five six", "die_after": 1}, {"stream": False}),
    "hung-up": ({"text": "w " * 40, "chunk_delay": 0.05}, {"stream": True, "timeout": 0.5}),
}


@pytest.mark.parametrize("fault", sorted(LOST))
def test_a_lost_call_is_settled_at_the_servers_bill(fault: str) -> None:
    reply, kw = LOST[fault]
    with rig([reply, "whole"]) as (fake, proxy), client_of(proxy, **kw) as client:
        assert client.chat(GO, instance="i").text == "whole"  # the retry
        spent = settled(proxy, fake)
    assert len(fake.bill) == spent.calls == 2
    assert (spent.upstream_errors, spent.worst_case_calls, spent.usage_unknown_calls) == (1, 0, 0)
    assert spent.cost == pytest.approx(fake.billed())  # to the cent: the provider's own word
    lost = fake.bill[0]
    assert spent.completion_tokens == lost["tokens_completion"] + fake.bill[1]["tokens_completion"]


@pytest.mark.parametrize("fault", sorted(LOST))
def test_without_the_endpoint_a_lost_call_costs_at_most_the_per_call_ceiling(fault: str) -> None:
    reply, kw = LOST[fault]
    ceiling = 300
    limits = ReplyLimits(max_tokens_ceiling=ceiling)
    with (
        rig([reply, "whole"], generations=False, limits=limits) as (fake, proxy),
        client_of(proxy, **kw) as client,
    ):
        assert client.chat(GO, instance="i").text == "whole"
        spent = settled(proxy, fake)
    first, second = fake.chat_requests
    assert first.body["max_tokens"] == second.body["max_tokens"] == ceiling  # no learner limit: the ceiling
    assert (spent.calls, spent.worst_case_calls) == (2, 1)
    answered = fake.bill[1]["total_cost"]
    charged = spent.cost - answered
    prompt_estimate = -(-len(json.dumps({"messages": first.body["messages"], "tools": None})) // 2)
    assert charged == pytest.approx(PRICE.of(prompt_estimate, ceiling))  # the bounded worst case
    assert fake.bill[0]["total_cost"] <= charged  # never less than the server billed


# -- 1b. a reply the proxy cut (a runaway) is settled as a lost call is ----------------------------------

RUNAWAY = 64 << 10  # bytes of reply text the fake sends, whatever max_tokens says
CUT_AT = 16 << 10  # the proxy's size limit: it cuts the reply there
PATIENT = SettleOptions(tries=10, wait=0.2)  # a loaded machine may answer the first asks late


@pytest.mark.parametrize("stream", [True, False], ids=["streamed", "plain"])
@pytest.mark.parametrize("generations", [True, False], ids=["endpoint", "no-endpoint"])
def test_a_reply_cut_by_the_proxy_is_settled_as_a_lost_call(generations: bool, stream: bool) -> None:
    ceiling = 20_000  # above the reply the proxy relays: its worst case is then the ceiling's
    limits = ReplyLimits(max_reply_bytes=CUT_AT, max_tokens_ceiling=ceiling)
    with (
        rig([{"runaway": RUNAWAY}], generations=generations, limits=limits, settle=PATIENT) as (fake, proxy),
        client_of(proxy, stream=stream) as client,
    ):
        result = client.chat(GO, instance="i")
        spent = settled(proxy, fake)
    assert result.cut == "size"
    assert (spent.calls, spent.cut_replies) == (1, 1)
    billed = fake.bill[0]["total_cost"]
    if generations:
        # The provider's own word, whatever the proxy relayed of the reply.
        assert (spent.worst_case_calls, spent.cost) == (0, pytest.approx(billed))
    else:
        request = fake.chat_requests[0].body
        prompt_estimate = -(-len(json.dumps({"messages": request["messages"], "tools": None})) // 2)
        assert request["max_tokens"] == ceiling
        assert spent.worst_case_calls == 1
        assert spent.cost == pytest.approx(PRICE.of(prompt_estimate, ceiling))  # at most the ceiling


# -- 2. a proxy restarted on its ledger settles the calls it was killed during ------------------------


@pytest.mark.parametrize("generations", [True, False], ids=["endpoint", "no-endpoint"])
def test_a_restarted_ledger_settles_open_calls_from_the_provider(generations: bool, tmp_path: Path) -> None:
    log = tmp_path / "ledger.jsonl"
    with FakeModelServer(["a reply of six words here"], generations=generations, price=RATES) as fake:
        answered = httpx.post(f"{fake.url}/chat/completions", json={"model": MODEL, "messages": GO}).json()
        first = Ledger({MODEL: PRICE}, 1.0, log)
        call_id = first.begin_call("r", "i", MODEL, True, worst_cost=0.25)
        first.note_generation(call_id, answered["id"])
        first.close()  # killed: the call's start and its generation are on disk, its end never is
        again = Ledger({MODEL: PRICE}, 1.0, log, settler=Settler(fake.url, None, FAST))
    (lines,) = [json.loads(line) for line in log.read_text().splitlines() if '"event": "call"' in line]
    spent = again.spent("r")
    if generations:
        assert spent.cost == pytest.approx(fake.billed()) and lines["cost_source"] == "generation"
        assert spent.prompt_tokens == answered["usage"]["prompt_tokens"]
    else:
        assert (spent.cost, spent.worst_case_calls, lines["cost_source"]) == (0.25, 1, "worst_case")
    assert again.in_flight("r") == 0 and again.budget_left("r") == pytest.approx(1.0 - spent.cost)


# -- 3. a connection that fails before any byte costs nothing -------------------------------------------


@pytest.mark.parametrize("stream", [True, False])
def test_a_connection_reset_before_any_byte_is_no_call(stream: bool) -> None:
    with rig([{"reset": True}, {"reset": True}, "fine"]) as (fake, proxy):
        with client_of(proxy, stream=stream) as client:
            result = client.chat(GO, instance="i")
        spent = settled(proxy, fake)
    assert (result.text, result.attempts) == ("fine", 3)
    assert len(fake.chat_requests) == 3 and len(fake.bill) == 1
    assert (spent.calls, spent.unreached, spent.upstream_errors, spent.worst_case_calls) == (1, 2, 0, 0)
    assert spent.cost == pytest.approx(fake.billed())
    assert client.usage().unreached == 2  # the client counts no call either


# -- 4. sixteen users share one cap ----------------------------------------------------------------------

USERS, CALLS = 16, 10
WORDS = 200  # each reply: 200 completion tokens, about 0.4 USD


def _users(proxy: ProxyHandle, run: str) -> tuple[int, list[int]]:
    """Each of USERS threads makes CALLS calls, stopping at its first refusal; calls served, and statuses."""
    served, refusals = [0], []
    lock = threading.Lock()

    def user(n: int) -> None:
        # Retries for the resets of a server under load (each an unreached attempt, no call); a 402
        # is never retried.
        with client_of(proxy, run=run, max_retries=4) as client:
            for _ in range(CALLS):
                try:
                    client.chat(GO, instance=f"u{n}")
                except ModelCallError as error:
                    with lock:
                        refusals.append(error.status or 0)
                    return
                with lock:
                    served[0] += 1

    threads = [threading.Thread(target=user, args=(n,)) for n in range(USERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return served[0], refusals


def _shared(cap: float | None) -> tuple[FakeModelServer, Tally, int, list[int]]:
    limits = ReplyLimits(max_tokens_ceiling=1024)  # each call is held at about 2 USD until it settles
    with rig(lambda body: {"text": "w " * WORDS, "delay": 0.05}, spend_cap=cap, limits=limits) as (
        fake,
        proxy,
    ):
        served, refusals = _users(proxy, "shared")
        return fake, settled(proxy, fake, "shared"), served, refusals


@pytest.mark.slow  # 2 x 160 calls through the proxy: ~17 CPU-s, in the slow step
def test_sixteen_users_under_a_cap_above_their_bill_are_all_served() -> None:
    fake, free, served, refusals = _shared(None)
    assert (served, refusals) == (USERS * CALLS, [])
    bill = fake.billed()
    assert free.cost == pytest.approx(bill)
    # Far less than the 160 calls' worst cases held at once (about 330 USD): they wait, not fail.
    fake, capped, served, refusals = _shared(bill * 1.01)
    assert (served, refusals) == (USERS * CALLS, [])
    assert capped.cost == pytest.approx(fake.billed())
    assert capped.cost == pytest.approx(bill)


@pytest.mark.slow  # 2 x 160 calls through the proxy: ~17 CPU-s, in the slow step
def test_sixteen_users_under_a_cap_below_their_bill_spend_it_before_stopping() -> None:
    fake, free, _, _ = _shared(None)
    cap = free.cost / 2
    fake, capped, served, refusals = _shared(cap)
    assert USERS * CALLS // 2 - USERS <= served < USERS * CALLS
    assert refusals and set(refusals) == {402}  # refused for the cap, and for nothing else
    assert capped.cost == pytest.approx(fake.billed())
    assert 0.95 * cap <= capped.cost <= cap


# -- 5. prompts estimated from the provider's own counts ------------------------------------------------


@given(st.lists(st.tuples(st.integers(1, 10**6), st.integers(1, 10**5)), min_size=1, max_size=20))
def test_the_gauge_keeps_the_fewest_bytes_a_token_seen(calls: list[tuple[int, int]]) -> None:
    gauge = PromptGauge()
    assert gauge.rate(MODEL) == PROMPT_BYTES_PER_TOKEN
    for size, tokens in calls:
        gauge.learn(MODEL, size, tokens)
    assert gauge.rate(MODEL) == min(size / tokens for size, tokens in calls)
    assert gauge.rate("vendor/other") == PROMPT_BYTES_PER_TOKEN


def test_a_prompt_is_estimated_at_the_models_reported_bytes_a_token(tmp_path: Path) -> None:
    tools = [{"type": "function", "function": {"name": "t", "parameters": {"x": "y " * 2000}}}]
    body = {"model": MODEL, "messages": GO, "tools": tools, "max_tokens": 10}
    with rig(["one", "two"], log_path=tmp_path / "ledger.jsonl") as (fake, proxy):
        for _ in range(2):
            httpx.post(f"{proxy.url}/chat/completions", json=body).raise_for_status()
        settled(proxy, fake, "default")
    starts = [json.loads(line) for line in (tmp_path / "ledger.jsonl").read_text().splitlines()]
    first, second = [line["worst_cost"] for line in starts if line["event"] == "start"]
    size = len(json.dumps({"messages": GO, "tools": tools}))
    reported = fake.bill[0]["tokens_prompt"]  # the fake counts the messages' words only
    assert first == pytest.approx(PRICE.of(-(-size // 2), 10))
    assert second == pytest.approx(PRICE.of(-(-size // (size / reported)), 10))
    assert second < first / 50  # the schema-heavy prompt was over-estimated about a hundredfold at first


def test_a_prompt_counted_with_the_models_tokenizer_is_not_estimated(tmp_path: Path) -> None:
    """Where the proxy holds the model's tokenizer (beside ``serve``), its count is the prompt's cost."""
    long_words = [{"role": "user", "content": "abcdefghijklmnopqrstuvwxyz " * 200}]
    body = {"model": MODEL, "messages": long_words, "max_tokens": 10}
    counted = prompt_tokens(body)  # the fake server's own count: 200 words
    estimated = -(-len(json.dumps({"messages": long_words, "tools": None})) // 2)
    cap = PRICE.of(counted, 300)  # pays for the counted prompt and a reply, not for the estimate
    assert PRICE.of(estimated, 0) > cap
    for counters, status in (({}, 402), ({MODEL: prompt_tokens}, 200)):
        with rig(["fine"], spend_cap=cap, prompt_counters=counters, log_path=tmp_path / f"{status}") as (
            fake,
            proxy,
        ):
            reply = httpx.post(f"{proxy.url}/chat/completions", json=body)
            assert reply.status_code == status
            assert proxy.ledger.prompt_count(MODEL, body) == (counted if counters else None)
    starts = [json.loads(line) for line in (tmp_path / "200").read_text().splitlines()]
    (start,) = [line for line in starts if line["event"] == "start"]
    assert start["worst_cost"] == pytest.approx(PRICE.of(counted, 10))
    assert fake.bill[0]["tokens_prompt"] == counted


def test_a_counter_that_cannot_take_the_request_leaves_the_estimate() -> None:
    def refuses(body: Any) -> int:
        raise ValueError("the chat template refuses this message")

    gauge = PromptGauge({MODEL: refuses})
    assert gauge.count(MODEL, {"messages": GO}) is None
    assert gauge.count("vendor/other", {"messages": GO}) is None
