"""The tracking proxy holds the spend cap during a call, charges an interrupted call its worst case,
and records the model that answered (issue 27, items 1, 4 and 5).

The truths counted against are the fake server's own: the requests it received (with the
``max_tokens`` the proxy sent it), the text it wrote, the usage it reported.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_learners import MODEL as TOY_MODEL
from test_learners import TOY, toy_model

from continual_arc.core.files import read_json
from continual_arc.measure.report import format_run, run_report
from continual_arc.play.rundir import read_records
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc_baselines.fake_server import FakeModelServer, Script
from continual_arc_baselines.learners import StatelessFloor
from continual_arc_baselines.model import Backoff, ModelClient
from continual_arc_baselines.proxy import (
    CUT_HEADER,
    Price,
    ProxyConfig,
    ProxyHandle,
    ReplyLimits,
    SettleOptions,
    Tally,
    serve_proxy,
)
from continual_arc_baselines.proxy.budget import prompt_tokens

MODEL = "vendor/model-a"
GO = [{"role": "user", "content": "go on"}]
RUNAWAY = 20_000_000  # bytes of text, as in the 20 MB reply
PRICE = Price(0.0, 100.0)  # 1e-4 USD per reply token: a 1 USD cap pays for 10,000 of them


@contextmanager
def rig(script: Script, **config: Any) -> Iterator[tuple[FakeModelServer, ProxyHandle]]:
    # No generation endpoint: a call whose usage is lost is charged its worst case once the proxy
    # has asked in vain (test_settle.py covers the settlement from the provider's record).
    config.setdefault("settle", SettleOptions(tries=2, wait=0.01))
    with (
        FakeModelServer(script, generations=False) as fake,
        serve_proxy(ProxyConfig(fake.url, (MODEL,), **config)) as proxy,
    ):
        yield fake, proxy


def settled(proxy: ProxyHandle, fake: FakeModelServer, run: str = "r") -> Tally:
    """The run's counts once every request the server saw is settled (lost ones settle in the background)."""
    deadline = time.monotonic() + 10
    while proxy.ledger.spent(run).calls < len(fake.chat_requests) and time.monotonic() < deadline:
        time.sleep(0.01)
    return proxy.ledger.spent(run)


def client_of(proxy: ProxyHandle, **kw: Any) -> ModelClient:
    kw.setdefault("backoff", Backoff(initial=0.01, maximum=0.02))
    return ModelClient(proxy.url, MODEL, run_id="r", **kw)


# -- 1. one long reply cannot spend past the cap -----------------------------------------------------


def test_a_streamed_runaway_reply_is_cut_at_the_cap(tmp_path: Path) -> None:
    config = {"spend_cap": 1.0, "prices": {MODEL: PRICE}, "log_path": tmp_path / "ledger.jsonl"}
    config["limits"] = ReplyLimits(max_tokens_ceiling=32768)  # the budget binds before the ceiling
    with rig([{"runaway": RUNAWAY}], **config) as (fake, proxy), client_of(proxy) as client:
        result = client.chat(GO, instance="i")
        run_r = {"X-Continual-ARC-Run": "r"}
        refused = httpx.post(
            f"{proxy.url}/chat/completions", json={"model": MODEL, "messages": GO}, headers=run_r
        )
        spent = settled(proxy, fake)  # a cut reply is settled as a lost one: the provider is asked first
    (sent,) = fake.chat_requests
    held_to = sent.body["max_tokens"]  # what the proxy told the upstream it may write
    assert 9_000 < held_to <= 10_000  # the cap's 1 USD at 1e-4 USD a token, less the prompt
    assert (result.finish_reason, result.cut) == ("length", "spend_cap")
    assert len(result.text) <= 4 * held_to < fake.text_sent[0] < RUNAWAY  # cut, not read to its end
    # Charged its worst case (the upstream's usage never came), which the cap covers.
    assert spent.cost == pytest.approx(PRICE.of(prompt_tokens(sent.body), held_to)) and spent.cost <= 1.0
    assert (spent.cut_replies, spent.worst_case_calls, spent.calls) == (1, 1, 1)
    assert refused.status_code == 402 and len(fake.chat_requests) == 1  # nothing left for another call


def test_a_plain_runaway_reply_is_cut_at_the_size_limit() -> None:
    limits = ReplyLimits(max_reply_bytes=1 << 20)
    with rig([{"runaway": RUNAWAY}, "after"], limits=limits) as (fake, proxy):
        reply = httpx.post(f"{proxy.url}/chat/completions", json={"model": MODEL, "messages": GO})
        with client_of(proxy, stream=False) as client:
            assert client.chat(GO, instance="j").text == "after"
        # A cut reply is settled in the background, as a lost one. Without a price nothing is
        # reserved for it, so the wait is for its count to arrive, not for a reservation to end.
        deadline = time.monotonic() + 10
        while not proxy.ledger.totals("default").calls and time.monotonic() < deadline:
            time.sleep(0.01)
        tally = proxy.ledger.totals("default")
    assert reply.status_code == 200 and reply.headers[CUT_HEADER] == "size"
    body = reply.json()
    assert body["choices"][0]["finish_reason"] == "length" and body["choices"][0]["message"]["content"] == ""
    assert body["continual_arc"]["cut"] == "size"
    assert fake.text_sent[0] < RUNAWAY / 2  # the proxy stopped reading long before the end
    assert (tally.calls, tally.cut_replies, tally.usage_unknown_calls) == (1, 1, 1)


def test_a_learner_reads_a_cut_reply_as_an_answer_and_echoes_little(tmp_path: Path) -> None:
    turns = iter([{"runaway": 300_000}])

    def script(body: dict[str, Any]) -> Any:
        return next(turns, None) or toy_model(body)

    limits = ReplyLimits(max_reply_bytes=200_000)
    with FakeModelServer(script) as fake:
        prices = {TOY_MODEL: Price(1.0, 1.0)}
        config = ProxyConfig(fake.url, (TOY_MODEL,), spend_cap=100.0, prices=prices, limits=limits)
        with serve_proxy(config) as proxy:
            learner = StatelessFloor(model=TOY_MODEL, base_url=proxy.url, max_reply_chars=5_000)
            run(learner, build_schedule(TOY, 0, epilogue=False, rounds=1), tmp_path / "run")
            learner.session.close()
    (record,) = read_records(tmp_path / "run")  # the round was committed
    assert record["instance_resources"]["cut_replies"] == 1
    talk = read_json(tmp_path / "run" / "i" / f"{record['step']}.json")["learner_log"]["messages"][0]
    cut = next(m for m in talk if m.get("cut"))
    assert cut["cut"] == "size" and cut["finish_reason"] == "length"
    # The next prompt carries at most the 5,000 characters the learner kept of the cut reply.
    follow_up = fake.chat_requests[1].body["messages"]
    assert sum(len(str(m["content"])) for m in follow_up) < 20_000


# -- 4. an interrupted call is charged its worst case, and the run goes on ---------------------------


@pytest.mark.parametrize("stream", [True, False])
def test_a_call_cut_off_mid_reply_is_charged_its_worst_case_and_the_run_goes_on(stream: bool) -> None:
    slow = {"text": " ".join(["word"] * 20), "chunk_delay": 0.1, "delay": 0 if stream else 2.0}
    script = [slow, "fine"]
    price = Price(1000.0, 1000.0)
    config = {"spend_cap": 5.0, "prices": {MODEL: price}}
    with rig(script, **config) as (fake, proxy), client_of(proxy, timeout=0.6, stream=stream) as client:
        assert client.chat(GO, instance="i", max_tokens=500).text == "fine"  # the retry is not refused
        spent = settled(proxy, fake)
    first, _ = fake.chat_requests
    worst = price.of(prompt_tokens(first.body), first.body["max_tokens"])
    answered = price.of(*(fake.usage_reported[-1][k] for k in ("prompt_tokens", "completion_tokens")))
    assert first.body["max_tokens"] == 500  # the request's own limit: the budget did not bind
    assert (spent.calls, spent.worst_case_calls, spent.cost_unknown_calls) == (2, 1, 0)
    assert spent.cost == pytest.approx(worst + answered)


def test_an_upstream_dying_mid_stream_is_a_broken_call_retried() -> None:
    script = [{"text": "one two three four", "die_after": 2}, "whole"]
    with rig(script, prices={MODEL: Price(1.0, 1.0)}) as (fake, proxy), client_of(proxy) as client:
        result = client.chat(GO, instance="i")
        tally = settled(proxy, fake)
    assert (result.text, result.attempts, result.lost_attempts) == ("whole", 2, 1)
    assert len(fake.chat_requests) == tally.calls == 2
    assert (tally.upstream_errors, tally.worst_case_calls) == (1, 1)


# -- 5. the model that answered ----------------------------------------------------------------------


def test_a_reply_from_another_model_is_flagged_in_ledger_client_and_report(tmp_path: Path) -> None:
    other = "vendor/other-model"
    with rig([{"text": "x", "answer_model": other}, "y"], log_path=tmp_path / "l.jsonl") as (_, proxy):
        with client_of(proxy) as client:
            wrong, right = client.chat(GO, instance="i"), client.chat(GO, instance="i")
        assert proxy.ledger.tally("r", "i").model_mismatch_calls == 1
    lines = [json.loads(line) for line in (tmp_path / "l.jsonl").read_text().splitlines()]
    calls = [line for line in lines if line["event"] == "call"]
    assert [(c["answered_by"], c["model_mismatch"]) for c in calls] == [(other, True), (MODEL, False)]
    assert (wrong.model, wrong.model_mismatch, right.model_mismatch) == (other, True, False)

    def swapped(body: dict[str, Any]) -> Any:
        return {"text": toy_model(body), "answer_model": other}

    with FakeModelServer(swapped) as fake, serve_proxy(ProxyConfig(fake.url, (TOY_MODEL,))) as proxy:
        learner = StatelessFloor(model=TOY_MODEL, base_url=proxy.url)
        run(learner, build_schedule(TOY, 0, epilogue=False, rounds=1), tmp_path / "run")
        learner.session.close()
    (record,) = read_records(tmp_path / "run")
    assert record["instance_resources"]["model_mismatch_calls"] == len(fake.chat_requests) >= 1
    talk = read_json(tmp_path / "run" / "i" / f"{record['step']}.json")["learner_log"]["messages"][0]
    assert talk[-1]["model"] == other and talk[-1]["model_mismatch"] is True
    meta = read_json(tmp_path / "run" / "meta.json")
    text = format_run(run_report(tmp_path / "run", meta, [record]))
    assert "FLAG: 1 call(s) answered by another model than the one asked for" in text
