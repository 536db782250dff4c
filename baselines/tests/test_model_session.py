"""A resumed `ModelSession` counts its instances apart from the killed process's calls (issue 38).

The killed process may leave a call in flight on the very instance the resumed one plays again;
a proxy that kept running records it when it ends, which can be after the resumed instance has
read its baseline. Played here without a kill, in one process and on a fixed order: the earlier
session's slow call ends between the resumed session's first call and its settling.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.library.model_session import ModelSession, ModelSettings
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, serve_proxy

MODEL = "vendor/toy-model"
RUN = "bare-kept"
INSTANCE = "r2-u0-t1"
SLOW = "the killed process's call"
SLOW_COST, FAST_COST = 0.5, 0.125  # USD billed per call by the fake server (exact in binary)


def script(body: dict[str, Any]) -> dict[str, Any]:
    """A slow, dearer reply to the earlier session's call; a quick one to the resumed session's."""
    if SLOW in body["messages"][0]["content"]:
        return {"text": "one two three four five six", "chunk_delay": 0.1, "cost": SLOW_COST}
    return {"text": "done", "cost": FAST_COST}


@pytest.fixture
def rig() -> Iterator[tuple[FakeModelServer, ProxyHandle]]:
    with FakeModelServer(script) as fake, ExitStack() as stack:
        yield fake, stack.enter_context(serve_proxy(ProxyConfig(fake.url, (MODEL,))))


def session(proxy: ProxyHandle) -> ModelSession:
    return ModelSession(ModelSettings(model=MODEL, base_url=proxy.url, run_id=RUN, max_retries=0))


def ask(who: ModelSession, text: str) -> None:
    who.chat([{"role": "user", "content": text}], INSTANCE)


@pytest.mark.parametrize("carried", [{}, {"calls": 3.0, "cost": 1.0}], ids=["no-round-committed", "rounds"])
def test_a_late_call_of_the_killed_process_stays_out_of_the_resumed_instance(
    rig: tuple[FakeModelServer, ProxyHandle], carried: dict[str, float]
) -> None:
    fake, proxy = rig
    killed, resumed = session(proxy), session(proxy)
    late = threading.Thread(target=ask, args=(killed, SLOW))
    late.start()
    deadline = time.monotonic() + 10
    while not fake.chat_requests:  # the earlier call is in flight, not yet counted
        assert time.monotonic() < deadline
        time.sleep(0.005)
    resumed.resume(carried)
    ask(resumed, "the resumed process's call")
    late.join()
    assert proxy.ledger.totals(RUN).calls == 2  # the late call is counted by now, for the run
    counts = resumed.settle(INSTANCE)
    assert (counts["calls"], counts["cost"]) == (1, FAST_COST)
    assert resumed.totals()["cost"] == carried.get("cost", 0.0) + FAST_COST
    # Both calls count against the run's spend cap; the late one stays under the killed process's name.
    assert proxy.ledger.totals(RUN).cost == SLOW_COST + FAST_COST
    assert proxy.ledger.instances(RUN)[INSTANCE].cost == SLOW_COST
    killed.close()
    resumed.close()


def test_a_fresh_session_counts_under_the_instance_s_own_name(
    rig: tuple[FakeModelServer, ProxyHandle],
) -> None:
    _, proxy = rig
    fresh = session(proxy)
    ask(fresh, "a call")
    assert fresh.settle(INSTANCE)["calls"] == 1
    assert list(proxy.ledger.instances(RUN)) == [INSTANCE]
    fresh.close()
