"""Model learners played by the runner against a faulty upstream, behind the tracking proxy.

The records must count every request the fake server received, and exactly the tokens it reported,
with the usage flagged unknown where it sent none; limits must hold whatever the upstream does.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

from continual_arc.measure.report import run_resources
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.fake_server import FakeModelServer, Reply
from continual_arc_baselines.proxy import ProxyConfig, serve_proxy
from continual_arc_baselines.systems.bare import BareModelLearner

MODEL = "vendor/toy-model"
ANSWER = "```grid\n1\n```"  # a readable grid, wrong on every toy task
FAULTS: list[Reply] = [
    {"hang": 1.5},
    ANSWER,
    {"status": 429, "headers": {"Retry-After": "0.1"}},
    {"malformed": True},
    ANSWER,
    ANSWER,
]


def cycling(replies: list[Reply]) -> Any:
    """A script that answers the replies in turn, over and over."""
    turn = itertools.cycle(replies)
    return lambda request: next(turn)


def play(
    script: Any, tmp_path: Path, rounds: int, **options: Any
) -> tuple[FakeModelServer, list[dict[str, Any]]]:
    with (
        FakeModelServer(script) as fake,
        serve_proxy(ProxyConfig(upstream=fake.url, models=(MODEL,))) as proxy,
    ):
        learner = BareModelLearner(model=MODEL, base_url=proxy.url, demos=1, **options)
        schedule = build_schedule(get_config("toy-smoke"), 0, epilogue=False, rounds=rounds)
        records = run(learner, schedule, tmp_path / "run").records
        learner.session.close()
    return fake, records


def test_the_records_count_every_request_and_token_the_server_saw(tmp_path: Path) -> None:
    fake, records = play(cycling(FAULTS), tmp_path, rounds=3, timeout=0.4, max_calls=6)
    counts = [r["instance_resources"] for r in records]
    sent = fake.chat_requests
    assert sum(c["calls"] for c in counts) == len(sent)
    assert sum(c["prompt_tokens"] for c in counts) == fake.reported("prompt_tokens")
    assert sum(c["completion_tokens"] for c in counts) == fake.reported("completion_tokens")
    # The n-th request got FAULTS[n % 6]: a hang or a malformed reply sent no usage, and only those.
    silent = sum(
        1 for n in range(len(sent)) if isinstance(FAULTS[n % 6], dict) and "status" not in FAULTS[n % 6]
    )
    assert sum(c["usage_unknown_calls"] for c in counts) == silent > 0
    totals = run_resources(records, concurrent_users=False)
    assert totals["calls"] == len(sent) and totals["usage_unknown_calls"] > 0


def test_max_calls_counts_retries(tmp_path: Path) -> None:
    fake, records = play(lambda request: {"status": 503}, tmp_path, rounds=2, max_calls=3, max_retries=4)
    assert [r["instance_resources"]["calls"] for r in records] == [3.0] * len(records)
    assert len(fake.chat_requests) == 3 * len(records)
    assert all("3 of at most 3 attempts" in r["error"]["message"] for r in records)


def test_a_hung_upstream_fails_the_instance_at_its_time_limit(tmp_path: Path) -> None:
    started = time.monotonic()
    fake, records = play(lambda request: {"hang": 20.0}, tmp_path, rounds=1, instance_time_limit=0.6)
    # Far below the hang, with room for a loaded machine: only the instance's limit can end it so soon.
    assert time.monotonic() - started < 10.0
    (record,) = records
    assert "ran out of time" in record["error"]["message"] and not record["solved"]
    counts = record["instance_resources"]
    assert counts["calls"] == len(fake.chat_requests) == counts["usage_unknown_calls"] >= 1
