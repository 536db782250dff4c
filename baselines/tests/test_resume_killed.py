"""A model learner's run SIGKILLed mid-round under a spend cap resumes and finishes (issue 38, item 6).

The run plays in a child process that is killed while a call is in flight; the proxy is kept, or
restarted on its ledger. The killed call is settled (at the fake server's bill, from its generation
record), so the resumed run is not refused: it finishes with the records of a run never killed,
timings aside, and its spend stays within the cap.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from test_learners import MODEL, TOY, toy_model

from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.rundir import read_records
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, SettleOptions, serve_proxy
from continual_arc_baselines.systems.bare import BareModelLearner

COST = 0.25
HERE = Path(__file__).parent
STREAM = build_schedule(TOY, 0, epilogue=False)
CHILD = """
import sys
sys.path.insert(0, {tests!r})
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc_baselines.systems.bare import BareModelLearner
from test_learners import TOY
run(BareModelLearner(**{kwargs!r}), build_schedule(TOY, 0, epilogue=False), {out!r})
"""


def slow_priced(body: dict[str, Any]) -> dict[str, Any]:
    """The toy model's reply, billed COST, streamed slowly enough for a kill to land mid-call."""
    return {"text": toy_model(body), "cost": COST, "chunk_delay": 0.05}


def timeless(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]


def proxy_on(fake: FakeModelServer, stack: ExitStack, cap: float | None, log: Path | None) -> ProxyHandle:
    config = ProxyConfig(
        fake.url, (MODEL,), spend_cap=cap, log_path=log, settle=SettleOptions(tries=3, wait=0.1)
    )
    return stack.enter_context(serve_proxy(config))


def learner_kwargs(proxy: ProxyHandle) -> dict[str, Any]:
    return {"model": MODEL, "base_url": proxy.url, "run_id": "killed", "max_retries": 2}


@pytest.mark.slow
@pytest.mark.parametrize("restarted", [False, True], ids=["proxy-kept", "proxy-restarted"])
def test_a_run_killed_mid_round_under_a_cap_resumes_and_finishes_as_a_straight_run(
    restarted: bool, tmp_path: Path
) -> None:
    with FakeModelServer(slow_priced) as fake, ExitStack() as stack:
        straight = run(
            BareModelLearner(**learner_kwargs(proxy_on(fake, stack, None, None))), STREAM, tmp_path / "s"
        )
        bill = fake.billed()
    cap = bill + 2 * COST  # room for the killed round's calls, not for a run charged its worst cases
    cut = tmp_path / "cut"
    cut.mkdir()
    shutil.copy(tmp_path / "s" / "alias-salt", cut)
    log = tmp_path / "ledger.jsonl"
    with FakeModelServer(slow_priced) as fake, ExitStack() as stack:
        proxy = proxy_on(fake, stack, cap, log)
        code = CHILD.format(tests=str(HERE), kwargs=learner_kwargs(proxy), out=str(cut))
        child = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
        deadline = time.monotonic() + 120
        while len(read_records(cut) if (cut / "records.jsonl").exists() else []) < 2:
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.02)
        sent = len(fake.chat_requests)
        while len(fake.chat_requests) == sent:  # the next round's first call is in flight
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.01)
        time.sleep(0.05)
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        at_kill = len(read_records(cut))
        if restarted:
            proxy.close()  # the ledger is read back by a new proxy
            proxy = proxy_on(fake, stack, cap, log)
        result = run(BareModelLearner(**learner_kwargs(proxy)), STREAM, cut, resume=True)
        deadline = time.monotonic() + 10
        while proxy.ledger.in_flight("killed") and time.monotonic() < deadline:
            time.sleep(0.02)
        spent = proxy.ledger.spent("killed")
        billed = fake.billed()
    assert 2 <= at_kill < len(straight.records)
    assert result.stopped is None
    assert timeless(result.records) == timeless(straight.records)
    assert spent.worst_case_calls == 0  # the killed call settled at the server's bill
    assert spent.cost == pytest.approx(billed) and bill < billed <= cap
