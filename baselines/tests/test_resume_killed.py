"""A model learner's run SIGKILLed mid-round under a spend cap resumes and finishes (issue 38, item 6).

The run plays in a child process that is killed while a call is in flight; the proxy is kept, or
restarted on its ledger. The killed call is settled (at the fake server's bill, from its generation
record, or without that endpoint at its worst case, bounded by the per-call ceiling), so the resumed
run is not refused: it finishes with the records of a run never killed, timings aside, and its
spend stays within the cap. The learner names no run id: the run's name at the proxy comes from the
run directory's ``run-id``, so the killed call and the resumed run's calls are one run's.
"""

from __future__ import annotations

import json
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

from continual_arc.play.aliases import RUN_ID_FILE
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.rundir import read_records
from continual_arc.runner import RunOptions, run
from continual_arc.stream.schedule import build_schedule
from continual_arc_baselines.fake_server import FakeModelServer, RecordedRequest
from continual_arc_baselines.proxy import (
    Price,
    ProxyConfig,
    ProxyHandle,
    ReplyLimits,
    SettleOptions,
    serve_proxy,
)
from continual_arc_baselines.systems.bare import BareModelLearner

RATES = (1000.0, 2000.0)  # USD per million prompt and completion tokens, billed by the fake server
CEILING = 512  # reply tokens a call may have: what a lost call costs at most without the endpoint
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


def slow(body: dict[str, Any]) -> dict[str, Any]:
    """The toy model's reply, streamed slowly enough for a kill to land mid-call."""
    return {"text": toy_model(body), "chunk_delay": 0.05}


def timeless(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]


def proxy_on(fake: FakeModelServer, stack: ExitStack, cap: float | None, log: Path | None) -> ProxyHandle:
    config = ProxyConfig(
        fake.url,
        (MODEL,),
        spend_cap=cap,
        log_path=log,
        prices={MODEL: Price(*RATES)},
        limits=ReplyLimits(max_tokens_ceiling=CEILING, min_reply_tokens=64),
        settle=SettleOptions(tries=3, wait=0.1),
    )
    return stack.enter_context(serve_proxy(config))


def learner_kwargs(proxy: ProxyHandle) -> dict[str, Any]:
    return {"model": MODEL, "base_url": proxy.url, "max_retries": 2}


def worst_case(request: RecordedRequest) -> float:
    """A call's bounded worst case: its prompt at 2 bytes a token, and the ceiling's reply tokens."""
    prompt = json.dumps({"messages": request.body["messages"], "tools": None}, ensure_ascii=False)
    return Price(*RATES).of(-(-len(prompt.encode()) // 2), CEILING)


def settled(proxy: ProxyHandle) -> None:
    deadline = time.monotonic() + 10
    while any(proxy.ledger.in_flight(r) for r in proxy.ledger.runs()) and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.mark.slow
@pytest.mark.parametrize("generations", [True, False], ids=["endpoint", "no-endpoint"])
@pytest.mark.parametrize("restarted", [False, True], ids=["proxy-kept", "proxy-restarted"])
def test_a_run_killed_mid_round_under_a_cap_resumes_and_finishes_as_a_straight_run(
    restarted: bool, generations: bool, tmp_path: Path
) -> None:
    with FakeModelServer(slow, price=RATES) as fake, ExitStack() as stack:
        straight = run(
            BareModelLearner(**learner_kwargs(proxy_on(fake, stack, None, None))), STREAM, tmp_path / "s"
        )
        bill = fake.billed()
    # Room for the killed round's calls, not for a killed call charged the whole budget left.
    cap = 2 * bill
    cut = tmp_path / "cut"
    cut.mkdir()
    shutil.copy(tmp_path / "s" / "alias-salt", cut)
    log = tmp_path / "ledger.jsonl"
    with FakeModelServer(slow, price=RATES, generations=generations) as fake, ExitStack() as stack:
        proxy = proxy_on(fake, stack, cap, log)
        code = CHILD.format(tests=str(HERE), kwargs=learner_kwargs(proxy), out=str(cut))
        child = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
        deadline = time.monotonic() + 120
        while len(read_records(cut) if (cut / "records.jsonl").exists() else []) < 2:
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.02)
        replies = len(fake.text_sent)
        # The next round's first reply is streaming: its first word is out, so its generation (the
        # id that opens every chunk) has reached the proxy before the kill, however loaded the machine.
        while len(fake.text_sent) == replies or fake.text_sent[-1] == 0:
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.01)
        time.sleep(0.05)
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        at_kill = len(read_records(cut))
        if restarted:
            proxy.close()  # the ledger is read back by a new proxy, which settles the open call
            proxy = proxy_on(fake, stack, cap, log)
        result = run(BareModelLearner(**learner_kwargs(proxy)), STREAM, cut, RunOptions(resume=True))
        settled(proxy)
        runs, spent, billed = proxy.ledger.runs(), proxy.ledger.totals(), fake.billed()
        worst = max(map(worst_case, fake.chat_requests))
    assert 2 <= at_kill < len(straight.records)
    assert result.stopped is None
    # Kept or restarted, the proxy counts the killed call (the learner hung up on it) against the
    # run, never in the resumed instance's record, however late it settles.
    assert timeless(result.records) == timeless(straight.records)
    # One run at the proxy, named after the run directory: the killed call counts against its cap.
    assert runs == [f"bare-{(cut / RUN_ID_FILE).read_text().strip()}"]
    assert bill < billed and spent.cost <= cap
    if generations:
        assert spent.worst_case_calls == 0  # the killed call settled at the server's bill
        assert spent.cost == pytest.approx(billed)
    else:
        assert spent.worst_case_calls == 1  # the killed call, at its bounded worst case
        assert billed <= spent.cost + 1e-12 and spent.cost - billed <= worst
