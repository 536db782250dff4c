"""``verify --proxy``: a model learner in the sandbox reaches the tracking proxy through the relay.

The learner is built with no arguments, as verification builds it, so it calls its default endpoint:
the address ``verify`` gives it (``CONTINUAL_ARC_PROXY``), the relay inside its network namespace.
Every call of every learner process (the stream's, and one per test and reset instance) must reach
the proxy, be logged there, and be the call its instance's record counts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.files import read_json, read_jsonl
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.stream.users import with_users
from continual_arc.submit.verify import VerifyOptions, verify
from continual_arc.tracks.registry import get_config
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.proxy import ProxyConfig, serve_proxy

MODEL = "vendor/toy-model"

LEARNER = f'''
from continual_arc_baselines.learners import StatelessFloor


class TinyFloor(StatelessFloor):
    """A model learner with every setting its own: verify gives it no arguments, nor an endpoint."""

    def __init__(self):
        super().__init__(model="{MODEL}", initial_demos=1, max_calls=2, max_retries=0, tries=1)
'''


def _wrong_grid(body: dict[str, Any]) -> str:
    """A model that always answers a one-cell grid (wrong on every toy instance), so each instance calls."""
    return "I think it is:\n```grid\n0\n```"


@pytest.mark.slow
def test_every_call_of_every_learner_process_goes_through_the_proxy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tiny_model_learner.py").write_text(LEARNER)
    tmp_path.chmod(0o755)  # the learner's processes run as nobody when the tests run as root
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # the learner's processes import it from there
    log, out = tmp_path / "proxy-calls.jsonl", tmp_path / "verify"
    with FakeModelServer(_wrong_grid) as fake:
        with serve_proxy(ProxyConfig(upstream=fake.url, models=(MODEL,), log_path=log)) as proxy:
            options = VerifyOptions(
                learner="tiny_model_learner:TinyFloor", config=with_users(get_config("toy-smoke"), 1),
                out=out, seed=3, resamples=200, proxy=proxy.url,
            )  # fmt: skip
            verify(options)
            port = int(proxy.url.rsplit(":", 1)[1].split("/")[0])
        served = len(fake.chat_requests)
    isolation = read_json(out / "verification.json")["isolation"]
    if not all(kind["network_namespace"] for kind in isolation.values()):
        pytest.skip("this kernel refused the learner's processes a network namespace, so no relay ran")
    assert {kind["proxy_port"] for kind in isolation.values()} == {port}
    records = [r for play in PROTOCOL_PLAYS.values() for r in read_jsonl(out / play / "records.jsonl")]
    logged = [entry for entry in read_jsonl(log) if entry["event"] == "call"]
    assert all(r["error"] is None for r in records)
    assert sum(r["instance_resources"]["calls"] for r in records) == len(logged) == served
    assert all(r["instance_resources"]["calls"] >= 1 for r in records)  # no instance played without its calls
