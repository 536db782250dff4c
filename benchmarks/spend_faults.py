"""What the tracking proxy charges for each fault, against what the fake server billed (issue 38).

Each fault is played through a proxy in front of the fake server, once with OpenRouter's
generation endpoint and once without, with a priced model and no learner ``max_tokens`` (the
default); the proxy's spend for the run is set beside the server's bill. Prints a Markdown table.

    .venv/bin/python baselines/scripts/spend-faults.py
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.model import Backoff, ModelCallError, ModelClient
from continual_arc_baselines.proxy import Price, ProxyConfig, SettleOptions, serve_proxy

MODEL = "vendor/model-a"
RATES = (1000.0, 2000.0)  # USD per million tokens: a dear model, so that worst cases show
GO = [{"role": "user", "content": "go on"}]
TEXT = "w " * 300

FAULTS: dict[str, tuple[list[Any], dict[str, Any]]] = {
    "answered": ([TEXT], {}),
    "stream broken mid-reply": ([{"text": TEXT, "die_after": 20}, TEXT], {}),
    "plain body cut mid-reply": ([{"text": TEXT, "die_after": 1}, TEXT], {"stream": False}),
    "learner hung up mid-reply": ([{"text": TEXT, "chunk_delay": 0.01}, TEXT], {"timeout": 0.5}),
    "malformed reply": ([{"malformed": True}, TEXT], {"stream": False}),
    "connection reset before any byte": ([{"reset": True}, TEXT], {}),
    "upstream silent past the time-out": ([{"hang": 1.5}, TEXT], {"timeout": 0.5}),
}


def play(script: list[Any], generations: bool, kw: dict[str, Any]) -> tuple[float, float, int, int]:
    """The proxy's spend, the server's bill, the calls counted and the attempts unreached."""
    settle = SettleOptions(tries=3, wait=0.1)
    with FakeModelServer(script, generations=generations, price=RATES) as fake:
        config = ProxyConfig(fake.url, (MODEL,), prices={MODEL: Price(*RATES)}, settle=settle)
        with serve_proxy(config) as proxy:
            backoff = Backoff(initial=0.01, maximum=0.02)
            client = ModelClient(proxy.url, MODEL, run_id="r", backoff=backoff, max_retries=2, **kw)
            with client, contextlib.suppress(ModelCallError):  # a call out of retries costs all the same
                client.chat(GO, instance="i")
            deadline = time.monotonic() + 15
            while proxy.ledger.in_flight("r") and time.monotonic() < deadline:
                time.sleep(0.02)
            spent = proxy.ledger.spent("r")
            return spent.cost, fake.billed(), spent.calls, spent.unreached


def main() -> None:
    """Print the table."""
    print("| fault | endpoint | proxy charged (USD) | server billed (USD) | calls | unreached |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, (script, kw) in FAULTS.items():
        for generations in (True, False):
            charged, billed, calls, unreached = play(script, generations, kw)
            where = "yes" if generations else "no"
            print(f"| {name} | {where} | {charged:.4f} | {billed:.4f} | {calls} | {unreached} |")


if __name__ == "__main__":
    main()
