"""What the tracking proxy charges for each fault, against what the fake server billed (issue 38).

Each fault is played through a proxy in front of the fake server (``continual_arc_baselines``),
once with OpenRouter's generation endpoint and once without, with a priced model and no learner
``max_tokens`` (the default, so the proxy's per-call ceiling binds); the proxy's spend for the run
is set beside the server's bill. Then sixteen users make ten calls each under one cap, above and
below what their calls cost. Prints Markdown tables.

    .venv/bin/python benchmarks/spend_faults.py [--record]
"""

from __future__ import annotations

import contextlib
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.model import Backoff, ModelCallError, ModelClient
from continual_arc_baselines.proxy import (
    Price,
    ProxyConfig,
    ProxyHandle,
    ReplyLimits,
    SettleOptions,
    Tally,
    serve_proxy,
)

MODEL = "vendor/model-a"
RATES = (1000.0, 2000.0)  # USD per million tokens: a dear model, so that worst cases show
GO = [{"role": "user", "content": "go on"}]
TEXT = "w " * 300
SETTLE = SettleOptions(tries=3, wait=0.1)
CUT_LIMITS = ReplyLimits(max_reply_bytes=16 << 10)  # a runaway is cut by size at 16 KiB of text

FAULTS: dict[str, tuple[list[Any], dict[str, Any], ReplyLimits]] = {
    "answered": ([TEXT], {}, ReplyLimits()),
    "stream broken mid-reply": ([{"text": TEXT, "die_after": 20}, TEXT], {}, ReplyLimits()),
    "plain body cut mid-reply": ([{"text": TEXT, "die_after": 1}, TEXT], {"stream": False}, ReplyLimits()),
    "learner hung up mid-reply": (
        [{"text": TEXT, "chunk_delay": 0.01}, TEXT],
        {"timeout": 0.5},
        ReplyLimits(),
    ),
    "malformed reply": ([{"malformed": True}, TEXT], {"stream": False}, ReplyLimits()),
    "runaway reply cut by the proxy": ([{"runaway": 64 << 10}], {}, CUT_LIMITS),
    "connection reset before any byte": ([{"reset": True}, TEXT], {}, ReplyLimits()),
    "upstream silent past the time-out": ([{"hang": 1.5}, TEXT], {"timeout": 0.5}, ReplyLimits()),
}


def _settled(proxy: ProxyHandle, fake: FakeModelServer, run: str) -> Tally:
    """The run's counts once every call the server saw has settled (a lost one settles in the background)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        spent = proxy.ledger.spent(run)
        if spent.calls + spent.unreached >= len(fake.chat_requests) and not proxy.ledger.in_flight(run):
            break
        time.sleep(0.02)
    return proxy.ledger.spent(run)


def play(
    script: list[Any], generations: bool, kw: dict[str, Any], limits: ReplyLimits
) -> tuple[Tally, float]:
    """The proxy's counts of one call (with the client's retries) and the server's bill."""
    with FakeModelServer(script, generations=generations, price=RATES) as fake:
        prices = {MODEL: Price(*RATES)}
        with serve_proxy(
            ProxyConfig(fake.url, (MODEL,), prices=prices, settle=SETTLE, limits=limits)
        ) as proxy:
            backoff = Backoff(initial=0.01, maximum=0.02)
            client = ModelClient(proxy.url, MODEL, run_id="r", backoff=backoff, max_retries=2, **kw)
            with client, contextlib.suppress(ModelCallError):  # a call out of retries costs all the same
                client.chat(GO, instance="i")
            return _settled(proxy, fake, "r"), fake.billed()


def _fault(name: str) -> Callable[[bool], tuple[Tally, float]]:
    script, kw, limits = FAULTS[name]
    return lambda generations: play(script, generations, kw, limits)


def killed_proxy(generations: bool) -> tuple[Tally, float]:
    """A proxy killed mid-call (its ledger left with an open start) and restarted on its ledger."""
    script = [{"text": TEXT, "chunk_delay": 0.02}]
    with (
        tempfile.TemporaryDirectory() as folder,
        FakeModelServer(script, generations=generations, price=RATES) as fake,
    ):
        log = Path(folder) / "ledger.jsonl"
        config = ProxyConfig(fake.url, (MODEL,), prices={MODEL: Price(*RATES)}, settle=SETTLE, log_path=log)
        first = serve_proxy(config)
        client = ModelClient(first.url, MODEL, run_id="r", max_retries=0, timeout=0.3)
        with client, contextlib.suppress(ModelCallError):
            client.chat(GO, instance="i")  # the client gives up mid-reply: the proxy is stopped under it
        _kill(first, log)
        with serve_proxy(config) as again:  # reads the open start back and settles it
            return _settled(again, fake, "r"), fake.billed()


def _kill(proxy: ProxyHandle, log: Path) -> None:
    """Stop the proxy, then leave its ledger as a kill would: the call's end line never written."""
    proxy.close()
    lines = log.read_text().splitlines()
    kept = [line for line in lines if '"event": "call"' not in line and '"event":"call"' not in line]
    log.write_text("".join(line + "\n" for line in kept))


def _users(proxy: ProxyHandle, users: int, calls: int) -> tuple[int, list[int]]:
    """Each of ``users`` threads makes ``calls`` calls, stopping at its first refusal."""
    served, refusals = [0], []
    lock = threading.Lock()

    def user(n: int) -> None:
        with ModelClient(proxy.url, MODEL, run_id="shared", max_retries=4) as client:
            for _ in range(calls):
                try:
                    client.chat(GO, instance=f"u{n}")
                except ModelCallError as error:
                    with lock:
                        refusals.append(error.status or 0)
                    return
                with lock:
                    served[0] += 1

    threads = [threading.Thread(target=user, args=(n,)) for n in range(users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    return served[0], refusals


def _slow_reply(body: dict[str, Any]) -> dict[str, Any]:
    return {"text": "w " * 200, "delay": 0.05}


def shared(cap: float | None, users: int = 16, calls: int = 10) -> tuple[int, list[int], Tally, float]:
    """``users`` x ``calls`` calls of one run under ``cap``: served, refused, the proxy's counts, the bill."""
    limits = ReplyLimits(max_tokens_ceiling=1024)  # each call held at about 2 USD until it settles
    with FakeModelServer(_slow_reply, price=RATES) as fake:
        config = ProxyConfig(fake.url, (MODEL,), prices={MODEL: Price(*RATES)}, spend_cap=cap, limits=limits)
        with serve_proxy(config) as proxy:
            served, refusals = _users(proxy, users, calls)
            return served, refusals, _settled(proxy, fake, "shared"), fake.billed()


def main() -> None:
    """Print the tables."""
    print(
        "Per fault, one call (and the client's retries) through the proxy, with and without the endpoint:\n"
    )
    print(
        "| fault | endpoint | proxy charged (USD) | server billed (USD) | calls | unreached | worst cases |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    rows = [(name, _fault(name)) for name in FAULTS]
    rows.append(("proxy killed mid-call, restarted on its ledger", killed_proxy))
    for name, played in rows:
        for generations in (True, False):
            spent, billed = played(generations)
            where = "yes" if generations else "no"
            print(
                f"| {name} | {where} | {spent.cost:.4f} | {billed:.4f} | {spent.calls} | {spent.unreached} "
                f"| {spent.worst_case_calls} |"
            )
    print("\nSixteen users of one run, ten calls each, under one cap:\n")
    print(
        "| cap (USD) | served | refused (status) | proxy charged (USD) | server billed (USD) | of the cap |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    served, refusals, free, bill = shared(None)
    print(f"| none | {served} | {len(refusals)} | {free.cost:.4f} | {bill:.4f} | - |")
    for cap in (bill * 1.01, bill / 2):
        served, refusals, spent, billed = shared(cap)
        statuses = ", ".join(sorted({str(s) for s in refusals})) or "-"
        print(
            f"| {cap:.4f} | {served} | {len(refusals)} ({statuses}) | {spent.cost:.4f} | {billed:.4f} "
            f"| {spent.cost / cap:.1%} |"
        )


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("spend_faults", main)
