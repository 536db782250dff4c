"""A model learner's resumed run: its spend cap and cumulative counts go on from its records."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from test_learners import LEARNERS, MODEL, TOY, Rig, toy_model

from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.rundir import read_records
from continual_arc.runner import LearnerError, RunOptions, run
from continual_arc.stream.schedule import build_schedule
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.learners import StatelessFloor
from continual_arc_baselines.library.model_session import COUNT_KEYS, ProxyCountsError
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, serve_proxy
from continual_arc_baselines.systems.bare import BareModelLearner

COST = 0.25  # USD per call, exact in binary: the cap is reached by a whole number of calls
CAP = 1.0
STREAM = build_schedule(TOY, 0, epilogue=False)


def priced(body: dict[str, Any]) -> dict[str, Any]:
    """The toy model's reply, billed ``COST`` by the upstream."""
    return {"text": toy_model(body), "cost": COST}


def billed(fake: FakeModelServer) -> float:
    """What the upstream itself reported spending: the truth the proxy and the records are held to."""
    return sum(float(usage.get("cost", 0.0)) for usage in fake.usage_reported)


def capped(fake: FakeModelServer, stack: ExitStack, cap: float | None = CAP) -> ProxyHandle:
    config = ProxyConfig(upstream=fake.url, models=(MODEL,), spend_cap=cap)
    return stack.enter_context(serve_proxy(config))


def kwargs(proxy: ProxyHandle, **extra: Any) -> dict[str, Any]:
    return {"model": MODEL, "base_url": proxy.url, "max_retries": 0, **extra}


def timeless(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]


def cumulative_counts_hold(records: list[dict[str, Any]]) -> None:
    """Each record's cumulative counts are the sum of the instances' own so far (one user a round)."""
    for n, record in enumerate(records, start=1):
        want = {k: pytest.approx(sum(r["instance_resources"][k] for r in records[:n])) for k in COUNT_KEYS}
        assert {k: record["resources"][k] for k in COUNT_KEYS} == want, f"record {n - 1}"


@pytest.fixture
def fake() -> Iterator[FakeModelServer]:
    with FakeModelServer(priced) as server:
        yield server


@pytest.fixture
def uncapped(fake: FakeModelServer) -> Iterator[Rig]:
    with ExitStack() as stack:
        yield Rig(fake, capped(fake, stack, cap=None))


@pytest.mark.parametrize("cls", [BareModelLearner, StatelessFloor], ids=lambda c: c.__name__)
@pytest.mark.parametrize("proxy_kept", [False, True], ids=["proxy-restarted", "proxy-kept-run-named"])
def test_a_resumed_run_never_spends_more_than_its_cap(
    cls: Any, proxy_kept: bool, fake: FakeModelServer, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    named = {"run_id": "capped"} if proxy_kept else {}
    with ExitStack() as stack:
        proxy = capped(fake, stack)
        run(cls(**kwargs(proxy, **named)), STREAM.first_rounds(3), out)
        before = billed(fake)
        assert 0 < before < CAP
        if not proxy_kept:  # a new proxy knows nothing of the run: only the records do
            proxy = capped(fake, stack)
        stopped = run(cls(**kwargs(proxy, **named)), STREAM, out, RunOptions(resume=True)).stopped
        assert stopped is not None and "spend cap" in stopped["message"]
    # The upstream billed the cap, whole: not more (the cap restarted), not less (counted twice).
    assert billed(fake) == pytest.approx(CAP)
    records = read_records(out)
    assert len(records) > 3
    cumulative_counts_hold(records)
    assert records[-1]["resources"]["cost"] <= CAP


@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
def test_a_resumed_run_without_a_cap_plays_as_a_straight_run(cls: Any, uncapped: Rig, tmp_path: Path) -> None:
    straight = run(cls(**uncapped.kwargs()), STREAM, tmp_path / "straight").records
    (tmp_path / "cut").mkdir()
    shutil.copy(tmp_path / "straight" / "alias-salt", tmp_path / "cut")  # the same task names
    run(cls(**uncapped.kwargs()), STREAM.first_rounds(3), tmp_path / "cut")
    resumed = run(cls(**uncapped.kwargs()), STREAM, tmp_path / "cut", RunOptions(resume=True)).records
    assert resumed[3]["resources"]["calls"] > resumed[3]["instance_resources"]["calls"]  # not from 0
    timeless = [
        [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in rs] for rs in (resumed, straight)
    ]
    assert timeless[0] == timeless[1]
    cumulative_counts_hold(resumed)


def test_a_proxy_that_cannot_take_the_carried_spend_stops_the_resume(
    fake: FakeModelServer, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    with ExitStack() as stack:
        proxy = capped(fake, stack)
        run(BareModelLearner(**kwargs(proxy)), STREAM.first_rounds(2), out)
    # The proxy is gone: resuming would start the spend cap again, so it is refused at once.
    with pytest.raises(LearnerError, match="resume_from") as caught:
        run(BareModelLearner(**kwargs(proxy)), STREAM, out, RunOptions(resume=True))
    assert isinstance(caught.value.__cause__, ProxyCountsError)
    assert "spend cap would start again" in str(caught.value.__cause__)
