"""The proxy's wire parsed once: usage, the provider's generation record, the proxy's own replies.

A reply's ``usage`` becomes a ``ReportedUsage`` (``openai``'s ``CompletionUsage``) where it
arrives; one that is there but does not parse is refused in one sentence, and the call is counted
as one whose usage was lost, never as a call of zero tokens.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from continual_arc_baselines.asgi import BackgroundServer
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, SettleOptions, serve_proxy
from continual_arc_baselines.proxy.relay import SseUsageReader, cut_chunk, cut_reply
from continual_arc_baselines.proxy.settle import usage_of_generation
from continual_arc_baselines.proxy.tally import Price, ReportedUsage, cost_of, parse_usage, reasoning_of

MODEL = "vendor/model-a"
GO = {"model": MODEL, "messages": [{"role": "user", "content": "go on"}]}


def test_a_usage_parses_into_the_openai_model_with_the_upstreams_cost() -> None:
    wire = {
        "prompt_tokens": 12,
        "completion_tokens": 30,
        "total_tokens": 42,
        "completion_tokens_details": {"reasoning_tokens": 7},
        "cost": 0.25,
        "is_byok": False,
    }
    usage = parse_usage(wire)
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, reasoning_of(usage)) == (12, 30, 7)
    assert cost_of(usage, Price(1.0, 1.0)) == (0.25, "upstream")
    assert usage.model_extra == {"is_byok": False}  # kept, unread


def test_a_usage_without_a_cost_is_priced_and_a_count_left_out_is_zero() -> None:
    usage = parse_usage({"prompt_tokens": 1_000_000})
    assert usage is not None and (usage.completion_tokens, reasoning_of(usage), usage.cost) == (0, 0, None)
    assert cost_of(usage, Price(2.0, 8.0)) == (2.0, "price")
    assert cost_of(usage, None) == (None, "unknown")
    assert parse_usage(None) is None


@pytest.mark.parametrize(
    ("wire", "where"),
    [
        ({"prompt_tokens": "many"}, "prompt_tokens"),
        ({"prompt_tokens": 3, "completion_tokens": 2.5}, "completion_tokens"),
        ({"cost": "free"}, "cost"),
        ([1, 2], "usage"),
    ],
)
def test_a_usage_that_does_not_parse_is_refused_in_one_sentence(wire: object, where: str) -> None:
    with pytest.raises(ValueError, match=r"usage does not parse") as refused:
        parse_usage(wire)  # type: ignore[arg-type]
    sentence = str(refused.value)
    assert f"(at {where})" in sentence and "\n" not in sentence


@given(
    st.integers(0, 10**9),
    st.integers(0, 10**9),
    st.integers(0, 10**6),
    st.one_of(st.none(), st.floats(0, 1e3, allow_nan=False)),
)
def test_a_usage_written_as_json_reads_back_the_same(
    prompt: int, completion: int, reasoning: int, cost: float | None
) -> None:
    wire = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "completion_tokens_details": {"reasoning_tokens": reasoning},
        **({} if cost is None else {"cost": cost}),
    }
    usage = parse_usage(json.loads(json.dumps(wire)))
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, reasoning_of(usage), usage.cost) == (
        prompt,
        completion,
        reasoning,
        cost,
    )


def test_a_generation_record_settles_at_its_native_counts_and_total_cost() -> None:
    record = {
        "data": {
            "id": "gen-1",
            "total_cost": 0.5,
            "tokens_prompt": 10,
            "tokens_completion": 20,
            "native_tokens_prompt": 11,
            "native_tokens_completion": None,
            "native_tokens_reasoning": 4,
            "cancelled": True,
        }
    }
    usage = usage_of_generation(record)
    assert usage == ReportedUsage.model_validate(
        {
            "prompt_tokens": 11,  # native first
            "completion_tokens": 20,  # no native count: the normalised one
            "total_tokens": 31,
            "completion_tokens_details": {"reasoning_tokens": 4},
            "cost": 0.5,
        }
    )
    assert usage_of_generation(record["data"]) == usage  # a record served bare
    assert usage_of_generation({"data": {"tokens_prompt": 10}}) is None  # no cost: settles nothing
    assert usage_of_generation({"data": {"total_cost": "a lot"}}) is None
    assert usage_of_generation([record]) is None


def test_a_streamed_usage_that_does_not_parse_is_the_streams_error() -> None:
    reader = SseUsageReader()
    good = {"id": "gen-9", "model": MODEL, "choices": [{"index": 0, "delta": {"content": "four"}}]}
    bad = {"id": "gen-9", "model": MODEL, "choices": [], "usage": {"prompt_tokens": "many"}}
    reader.feed(b"data: " + json.dumps(good).encode() + b"\n\ndata: " + json.dumps(bad).encode() + b"\n\n")
    assert (reader.usage, reader.generation, reader.model, reader.text_bytes) == (None, "gen-9", MODEL, 4)
    assert reader.error == "the upstream's usage does not parse (at prompt_tokens)"


def test_the_proxys_cut_replies_are_openai_replies_with_the_mark() -> None:
    reply = ChatCompletion.model_validate(cut_reply(MODEL, "size", "too long").model_dump(mode="json"))
    assert (reply.choices[0].finish_reason, reply.choices[0].message.content, reply.model) == (
        "length",
        "",
        MODEL,
    )
    assert reply.model_extra == {"continual_arc": {"cut": "size", "detail": "too long"}}
    events = [
        line[6:] for line in cut_chunk(MODEL, "spend_cap", "cap").split(b"\n") if line.startswith(b"data: ")
    ]
    assert events[1] == b"[DONE]"
    chunk = ChatCompletionChunk.model_validate_json(events[0])
    assert (chunk.choices[0].finish_reason, chunk.model_extra) == (
        "length",
        {"continual_arc": {"cut": "spend_cap", "detail": "cap"}},
    )


# -- through the proxy ---------------------------------------------------------------------------


def _replying(body: bytes, media: str) -> Starlette:
    async def chat(request: Request) -> Response:
        await request.body()
        return Response(body, media_type=media)

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


@contextmanager
def _proxy_before(body: bytes, media: str) -> Iterator[ProxyHandle]:
    upstream = BackgroundServer(_replying(body, media), name="scripted upstream")
    config = ProxyConfig(
        f"http://127.0.0.1:{upstream.port}/v1",
        (MODEL,),
        prices={MODEL: Price(1.0, 1.0)},
        settle=SettleOptions(tries=0),
    )
    try:
        with serve_proxy(config) as proxy:
            yield proxy
    finally:
        upstream.close()


_BAD_USAGE = {"id": "gen-7", "object": "chat.completion", "model": MODEL, "usage": {"prompt_tokens": "many"}}


def test_a_plain_reply_whose_usage_does_not_parse_is_a_502_with_its_sentence() -> None:
    with _proxy_before(json.dumps({**_BAD_USAGE, "choices": []}).encode(), "application/json") as proxy:
        reply = httpx.post(f"{proxy.url}/chat/completions", json=GO, timeout=30)
        tally = proxy.ledger.tally("default", "unassigned")
    assert reply.status_code == 502
    assert reply.json()["error"]["message"] == "the upstream's usage does not parse (at prompt_tokens)"
    # Counted as a call whose usage was lost, at its worst case: never as one of zero tokens.
    assert (tally.calls, tally.upstream_errors, tally.usage_unknown_calls, tally.worst_case_calls) == (
        1,
        1,
        1,
        1,
    )
    assert tally.prompt_tokens == 0 and tally.cost > 0


def test_a_streamed_reply_whose_usage_does_not_parse_is_counted_with_its_usage_lost() -> None:
    chunk = {**_BAD_USAGE, "object": "chat.completion.chunk", "choices": []}
    events = b"data: " + json.dumps(chunk).encode() + b"\n\ndata: [DONE]\n\n"
    with _proxy_before(events, "text/event-stream") as proxy:
        reply = httpx.post(f"{proxy.url}/chat/completions", json={**GO, "stream": True}, timeout=30)
        tally = proxy.ledger.tally("default", "unassigned")
    assert reply.status_code == 200  # relayed as it came: the stream was under way
    assert (tally.calls, tally.upstream_errors, tally.usage_unknown_calls, tally.worst_case_calls) == (
        1,
        1,
        1,
        1,
    )
