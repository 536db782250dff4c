from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.model import (
    Backoff,
    ModelCallError,
    ModelClient,
    Usage,
    instance_mark,
)

FAST = Backoff(initial=0.01, maximum=0.05, jitter=0.5, seed=1)
HI = [{"role": "user", "content": "hi there"}]


def _client(fake: FakeModelServer, **kw: Any) -> ModelClient:
    kw.setdefault("backoff", FAST)
    return ModelClient(fake.url, "test-model", **kw)


def test_retries_429_and_5xx_then_succeeds() -> None:
    script = [{"status": 429}, {"status": 500}, {"status": 503}, "finally"]
    with FakeModelServer(script) as fake, _client(fake, max_retries=3) as client:
        result = client.chat(HI, instance="i")
        assert result.text == "finally"
        assert result.attempts == 4
        assert len(fake.requests) == 4
        assert client.usage("i").attempts == 4


def test_the_retry_limit_is_respected_and_named_in_the_error() -> None:
    with FakeModelServer([{"status": 500}] * 10) as fake, _client(fake, max_retries=2) as client:
        with pytest.raises(ModelCallError) as caught:
            client.chat(HI, instance="i")
        assert len(fake.requests) == 3
    error = caught.value
    assert (error.kind, error.attempts, error.limit, error.status) == ("retries_exhausted", 3, 3, 500)
    assert "3 of at most 3 attempts" in str(error)
    assert "last status 500" in str(error)
    assert client.usage("i") == Usage(failures=1, attempts=3)


def test_a_400_fails_at_once() -> None:
    with FakeModelServer([{"status": 400, "error": "bad request"}, "never"]) as fake, _client(fake) as client:
        with pytest.raises(ModelCallError) as caught:
            client.chat(HI, instance="i")
        assert len(fake.requests) == 1
    assert (caught.value.kind, caught.value.attempts, caught.value.status) == ("not_retryable", 1, 400)


def test_a_streamed_reply_has_its_usage_counted() -> None:
    script = ["five words in this reply", {"text": "two words", "reasoning_tokens": 3, "cost": 0.5}]
    with FakeModelServer(script) as fake, _client(fake) as client:
        first = client.chat(HI, instance="a")
        second = client.chat(HI, instance="b")
        body = fake.requests[0].body
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    # The prompt is the mark line (two words) and "hi there".
    assert (first.prompt_tokens, first.completion_tokens, first.reasoning_tokens) == (4, 5, 0)
    assert first.usage_known and first.cost is None
    assert (second.completion_tokens, second.reasoning_tokens, second.cost) == (5, 3, 0.5)
    total = client.usage()
    assert (total.calls, total.prompt_tokens, total.completion_tokens, total.reasoning_tokens) == (
        2,
        8,
        10,
        3,
    )
    assert total.cost == 0.5 and total.cost_unknown_calls == 1
    assert client.usage("a").completion_tokens == 5


def test_a_stream_without_usage_is_counted_as_unknown() -> None:
    with FakeModelServer([{"text": "no usage here", "usage": None}]) as fake, _client(fake) as client:
        result = client.chat(HI, instance="i")
    assert result.text == "no usage here"
    assert not result.usage_known
    assert result.prompt_tokens is None and result.completion_tokens is None
    assert client.usage("i").usage_unknown_calls == 1


def test_non_streaming_mode_counts_usage_too() -> None:
    with FakeModelServer(["one two three"]) as fake, _client(fake, stream=False) as client:
        result = client.chat(HI, instance="i")
        assert "stream" not in fake.requests[0].body
    assert (result.text, result.completion_tokens, result.usage_known) == ("one two three", 3, True)


def test_the_instance_mark_and_headers_reach_the_server() -> None:
    messages = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "solve"}]
    with FakeModelServer(["a", "b", "c"]) as fake, _client(fake, run_id="run 7") as client:
        client.chat(messages, instance="task/1")
        client.chat(messages, instance="task/2")
        client.chat([{"role": "user", "content": [{"type": "text", "text": "parts"}]}], instance="task/1")
        seen = fake.requests
    assert messages[0]["content"] == "be brief"  # the caller's messages are not changed
    first, second, third = (r.body["messages"] for r in seen)
    assert first[0]["content"] == f"{instance_mark('task/1', 'run 7')}\nbe brief"
    assert first[1]["content"] == "solve"
    assert second[0]["content"].splitlines()[0] == instance_mark("task/2", "run 7")
    assert instance_mark("task/1", "run 7") != instance_mark("task/2", "run 7")
    assert instance_mark("task/1", "run 7") != instance_mark("task/1", "run 8")
    assert third[0]["content"][0] == {"type": "text", "text": instance_mark("task/1", "run 7")}
    assert [r.headers["x-continual-arc-instance"] for r in seen] == ["task/1", "task/2", "task/1"]
    assert seen[0].headers["x-continual-arc-run"] == "run%207"


def test_reasoning_effort_is_passed_only_when_set() -> None:
    with FakeModelServer(["a", "b"]) as fake:
        with _client(fake, reasoning_effort="high") as client:
            client.chat(HI, instance="i")
        with _client(fake) as client:
            client.chat(HI, instance="i")
        bodies = [r.body for r in fake.requests]
    assert bodies[0]["reasoning_effort"] == "high"
    assert "reasoning_effort" not in bodies[1]


def test_the_time_limit_stops_a_slow_reply() -> None:
    with FakeModelServer([{"text": "late", "delay": 5.0}] * 3) as fake:
        with _client(fake, timeout=0.5, max_retries=1) as client:
            started = time.monotonic()
            with pytest.raises(ModelCallError) as caught:
                client.chat(HI, instance="i")
            elapsed = time.monotonic() - started
        assert len(fake.requests) == 2  # time-outs are retried
    assert caught.value.kind == "retries_exhausted"
    assert caught.value.status is None
    assert elapsed < 4.0


def test_the_time_limit_stops_a_stream_that_trickles_in() -> None:
    reply = {"text": "one two three four five six seven eight", "chunk_delay": 0.3}
    with (
        FakeModelServer([reply]) as fake,
        _client(fake, timeout=0.8, max_retries=0) as client,
        pytest.raises(ModelCallError) as caught,
    ):
        client.chat(HI, instance="i")
    assert "longer than 0.8 s" in caught.value.detail


def test_the_backoff_schedule_is_exponential_capped_and_seeded() -> None:
    fixed = Backoff(initial=1.0, maximum=5.0, multiplier=2.0, jitter=0.0)
    assert [fixed.delay(n, 0.9) for n in range(1, 6)] == [1.0, 2.0, 4.0, 5.0, 5.0]
    jittered = Backoff(initial=1.0, maximum=5.0, jitter=0.5)
    assert jittered.delay(2, 0.5) == 1.5
    assert jittered.delay(1, 0.0, retry_after=3.0) == 3.0
    assert jittered.delay(1, 0.0, retry_after=99.0) == 99.0  # honoured past the backoff's maximum


def test_counts_are_thread_safe() -> None:
    with FakeModelServer(lambda request: "one two") as fake, _client(fake) as client:

        def work(instance: str) -> None:
            for _ in range(5):
                client.chat(HI, instance=instance)

        threads = [threading.Thread(target=work, args=(f"i{n}",)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(fake.requests) == 30
    assert client.usage().calls == 30
    assert client.usage().completion_tokens == 60
    assert all(client.usage(f"i{n}").calls == 5 for n in range(6))


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        ModelClient("http://127.0.0.1:9/v1", "m", max_retries=-1)
    with FakeModelServer([]) as fake, _client(fake) as client, pytest.raises(ValueError):
        client.chat([], instance="i")


def test_a_retry_after_is_honoured_past_the_backoffs_maximum() -> None:
    script = [{"status": 429, "headers": {"Retry-After": "1"}}, "after the wait"]
    with FakeModelServer(script) as fake, _client(fake) as client:
        started = time.monotonic()
        assert client.chat(HI, instance="i").text == "after the wait"
        assert time.monotonic() - started >= 1.0  # the backoff alone would wait 0.05 s at most
        assert len(fake.requests) == 2


def test_a_retry_after_past_the_deadline_fails_at_once() -> None:
    script = [{"status": 429, "headers": {"Retry-After": "120"}}, "never asked"]
    with FakeModelServer(script) as fake, _client(fake) as client:
        with pytest.raises(ModelCallError) as caught:
            client.chat(HI, instance="i", deadline=time.monotonic() + 5.0)
        assert len(fake.requests) == 1
    assert (caught.value.kind, caught.value.status) == ("out_of_time", 429)
    assert "wait 120 s" in caught.value.detail


@pytest.mark.parametrize("stream", [True, False])
def test_a_malformed_reply_is_retried_and_counted_with_its_usage_unknown(stream: bool) -> None:
    with FakeModelServer([{"malformed": True}, "two words"]) as fake, _client(fake, stream=stream) as client:
        result = client.chat(HI, instance="i")
        assert (result.text, result.attempts, result.lost_attempts) == ("two words", 2, 1)
        usage = client.usage("i")
        assert usage.attempts == len(fake.chat_requests) == 2
        assert usage.usage_unknown_calls == 1  # the server reported no usage for the malformed reply
        assert usage.prompt_tokens == fake.reported("prompt_tokens")
        assert usage.completion_tokens == fake.reported("completion_tokens") == 2


def test_a_time_out_is_counted_as_an_attempt_with_its_usage_unknown() -> None:
    with FakeModelServer([{"hang": 2.0}, "in time"]) as fake, _client(fake, timeout=0.3) as client:
        assert client.chat(HI, instance="i").text == "in time"
        usage = client.usage("i")
    assert (usage.calls, usage.attempts, usage.usage_unknown_calls) == (1, 2, 1)
    assert usage.completion_tokens == fake.reported("completion_tokens") == 2


def test_max_attempts_and_the_deadline_bound_a_call() -> None:
    with FakeModelServer([{"status": 500}] * 5) as fake, _client(fake, max_retries=4) as client:
        with pytest.raises(ModelCallError) as caught:
            client.chat(HI, instance="i", max_attempts=2)
        assert len(fake.requests) == 2 and caught.value.limit == 2
    with FakeModelServer([{"hang": 3.0}] * 3) as fake, _client(fake, timeout=10.0) as client:
        started = time.monotonic()
        with pytest.raises(ModelCallError) as caught:
            client.chat(HI, instance="i", deadline=started + 0.5)
        assert time.monotonic() - started < 1.5
    assert caught.value.kind == "out_of_time" and caught.value.usage_unknown >= 1
    assert client.usage("i").usage_unknown_calls == caught.value.usage_unknown
