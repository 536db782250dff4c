"""Calls of a round that never committed: in no record, but in the proxy's ledger, and shown.

A model learner plays the toy stream through the tracking proxy under a spend cap; the cap stops
the run in a round whose calls were made (and billed by the fake server) but never committed.
``continual-arc report --ledger`` and ``check --ledger`` show them as spend outside any committed
instance: the fake server's own bill less what the records count.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_learners import MODEL, TOY, toy_model
from test_resume_caps import COST, billed, priced

from continual_arc.cli import main
from continual_arc.measure.report import run_resources
from continual_arc.play.rundir import read_records
from continual_arc.runner import run
from continual_arc.stream.schedule import build_schedule
from continual_arc.stream.users import with_users
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.learners import StatelessFloor
from continual_arc_baselines.proxy import ProxyConfig, serve_proxy

CAP = 1.25  # five calls at COST: two rounds of two users commit, the third round's second call is refused
TWO = with_users(TOY, 2)


def test_a_round_stopped_by_the_cap_is_spend_outside_any_committed_instance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger, out = tmp_path / "ledger.jsonl", tmp_path / "run"
    with FakeModelServer(priced(toy_model)) as fake:
        config = ProxyConfig(upstream=fake.url, models=(MODEL,), spend_cap=CAP, log_path=ledger)
        with serve_proxy(config) as proxy:
            learner = StatelessFloor(model=MODEL, base_url=proxy.url, max_retries=0)
            stopped = run(learner, build_schedule(TWO, 0, epilogue=False), out).stopped
            assert stopped is not None and "spend cap" in stopped["message"]
        served, bill = len(fake.chat_requests), billed(fake)
    counted = run_resources(read_records(out), False)
    assert served > counted["calls"] > 0  # some calls are in no record: the stopped round's
    assert main(["report", str(out), "--ledger", str(ledger)]) == 0
    said = capsys.readouterr().out
    outside_calls, outside_cost = served - counted["calls"], bill - counted["cost"]
    assert f"{outside_calls:g} call(s), {outside_cost:.4f} USD" in said
    assert f"the ledger holds {served} call(s), {bill:.4f} USD" in said
    assert outside_cost == pytest.approx(COST * outside_calls)
