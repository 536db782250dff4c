"""A proxy killed mid-run and started again on its ledger file resumes the run's spend and counts
(issue 27, item 3): every call the upstream saw is counted once, attempts that met no proxy are no
calls, and the run's spend stays within its cap plus one call's worst case.

The proxy runs as its own process and is killed with SIGKILL while a call streams through it.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.library.counts import from_client
from continual_arc_baselines.model import Backoff, ModelCallError, ModelClient
from continual_arc_baselines.proxy import Price

MODEL = "vendor/model-a"
PRICE = Price(100.0, 100.0)  # 1e-4 USD a token: a call here is about 0.006 USD
CAP = 0.08
REPLY = {"text": "w " * 50, "chunk_delay": 0.02}  # about a second a call, streamed


def start_proxy(upstream: str, port: int, ledger: Path) -> subprocess.Popen[str]:
    code = "from continual_arc_baselines.cli import main; raise SystemExit(main())"
    args = ["proxy", "--upstream", upstream, "--model", MODEL, "--port", str(port), "--log", str(ledger)]
    args += ["--spend-cap", str(CAP), "--price", f"{MODEL}=100,100", "--settle-tries", "1"]
    process = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert "tracking proxy" in process.stdout.readline()
    return process


def lines(ledger: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in ledger.read_text().splitlines() if line.strip()]


def test_a_proxy_restarted_on_its_ledger_resumes_spend_and_counts(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    outcome: list[BaseException] = []
    with FakeModelServer(lambda body: REPLY, generations=False) as fake:
        first = start_proxy(fake.url, port, ledger)
        backoff = Backoff(initial=0.4, maximum=1.0, jitter=0.0)
        client = ModelClient(
            f"http://127.0.0.1:{port}/v1", MODEL, run_id="r", max_retries=10, backoff=backoff
        )

        def play() -> None:
            try:
                while True:
                    # Its own reply limit keeps a call's worst case (charged if it is cut off) small.
                    client.chat([{"role": "user", "content": "go on"}], instance="i", max_tokens=100)
            except ModelCallError as error:  # the cap, at last
                outcome.append(error)

        player = threading.Thread(target=play)
        player.start()
        try:
            # Kill the proxy while its fourth call streams: the upstream has it, its reply not ended.
            deadline = time.monotonic() + 60
            while len(fake.chat_requests) < 4:
                assert time.monotonic() < deadline
                time.sleep(0.02)
            time.sleep(0.2)
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=20)
            time.sleep(1.0)  # the client's retries meet no proxy meanwhile
            second = start_proxy(fake.url, port, ledger)
            player.join(timeout=120)
            usage = httpx.get(f"http://127.0.0.1:{port}/continual-arc/usage", params={"run": "r"}).json()
        finally:
            for process in (first, second):
                if process.poll() is None:
                    process.terminate()
                    process.wait(timeout=20)
    (error,) = outcome
    assert error.status == 402
    counted = client.usage()
    # Every request the upstream received is one call, the interrupted one included.
    assert usage["calls"] == len(fake.chat_requests) >= 6  # and calls went on after the restart
    # The attempts that met no proxy were no calls; every other attempt is a call or a refusal.
    assert counted.unreached >= 1
    assert usage["calls"] + usage["refused"] == counted.attempts - counted.unreached
    assert usage["worst_case_calls"] == 1  # the interrupted call, settled by the new proxy
    # What the upstream served (each reply as it would bill it, the interrupted one in full).
    served = sum(PRICE.of(u["prompt_tokens"], u["completion_tokens"]) for u in fake.served if u)
    worst = max(e["worst_cost"] for e in lines(ledger) if e["event"] == "start")
    assert usage["cost"] <= CAP
    assert served <= CAP + worst


def test_attempts_that_meet_no_proxy_are_no_calls() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    backoff = Backoff(initial=0.01, maximum=0.02)
    with ModelClient(dead, MODEL, run_id="r", max_retries=2, backoff=backoff) as client:
        try:
            client.chat([{"role": "user", "content": "x"}], instance="i")
        except ModelCallError as error:
            assert (error.attempts, error.unreached, error.usage_unknown) == (3, 3, 0)
        counts = from_client(client.usage("i"))
    assert (counts["calls"], counts["failed_calls"], counts["usage_unknown_calls"]) == (0, 0, 0)
