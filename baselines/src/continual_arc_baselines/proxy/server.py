"""Starting the tracking proxy: its configuration, and uvicorn in a background thread or in front."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import uvicorn
from starlette.applications import Starlette

from continual_arc_baselines.asgi import BackgroundServer, bind, uvicorn_config
from continual_arc_baselines.proxy.app import build_app
from continual_arc_baselines.proxy.budget import DEFAULT_LIMITS, PromptCounter, ReplyLimits
from continual_arc_baselines.proxy.ledger import Ledger, Price
from continual_arc_baselines.proxy.settle import DEFAULT_SETTLE, SettleOptions, Settler

__all__ = ["ProxyConfig", "ProxyHandle", "run_proxy", "serve_proxy"]


@dataclass(frozen=True)
class ProxyConfig:
    """How to run the tracking proxy.

    Attributes:
        upstream: the upstream's OpenAI base URL, ``/v1`` included (``https://openrouter.ai/api/v1``,
            ``http://127.0.0.1:8000/v1``); calls go to ``{upstream}/chat/completions``.
        models: the model ids the proxy serves, matched exactly.
        api_key: the upstream's key, added to every forwarded call; the learner never holds it.
        host: the address to listen on (keep it on loopback). port: 0 for a free one.
        log_path: the ledger file: JSON lines of calls and refusals, read back on start (so a
            restarted proxy resumes every run's spend and counts) and appended to; ``None`` for none.
        spend_cap: USD each run may spend; ``None`` for no cap.
        prices: USD per million tokens by model, for upstreams that report no ``usage.cost``.
        timeout: seconds allowed the upstream to connect and for each read.
        unknown_call_cost: USD charged against the spend cap for each call whose cost is unknown;
            ``None`` refuses a capped run's calls once one call's cost is unknown.
        limits: how far one reply may go: its size, the per-call ceiling on ``max_tokens``, and
            the smallest reply worth a call ([ReplyLimits][continual_arc_baselines.proxy.budget.ReplyLimits]).
        settle: how the upstream's generation endpoint is asked what a call whose usage was lost
            was billed ([SettleOptions][continual_arc_baselines.proxy.settle.SettleOptions]; ``tries=0``
            never asks, and charges such calls their worst case).
        prompt_counters: models whose prompts are counted exactly with their own tokenizer instead
            of estimated from their bytes: where the proxy runs in the process that holds the
            weights (the trained learner's ``serve``). A
            [PromptCounter][continual_arc_baselines.proxy.budget.PromptCounter] by model.
    """

    upstream: str
    models: tuple[str, ...]
    api_key: str | None = field(default=None, repr=False)
    host: str = "127.0.0.1"
    port: int = 0
    log_path: Path | None = None
    spend_cap: float | None = None
    prices: Mapping[str, Price] = field(default_factory=dict)
    timeout: float = 600.0
    unknown_call_cost: float | None = None
    limits: ReplyLimits = DEFAULT_LIMITS
    settle: SettleOptions = DEFAULT_SETTLE
    prompt_counters: Mapping[str, PromptCounter] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.models:
            raise ValueError("the proxy needs at least one model to serve")
        if self.spend_cap is not None and self.spend_cap < 0:
            raise ValueError("a spend cap cannot be negative")


class ProxyHandle:
    """A running proxy: its address, its ledger, and how to stop it.

    Attributes:
        url: the OpenAI base URL to give learners, ``http://127.0.0.1:PORT/v1``.
        usage_url: ``http://127.0.0.1:PORT/continual-arc/usage``.
        ledger: the proxy's counts, readable in-process too.
    """

    def __init__(self, server: BackgroundServer, ledger: Ledger) -> None:
        self._server = server
        self.ledger = ledger
        self.url = f"http://{server.host}:{server.port}/v1"
        self.usage_url = f"http://{server.host}:{server.port}/continual-arc/usage"

    def close(self) -> None:
        """Stop serving, wait for the server thread, close the log."""
        self._server.close()
        self.ledger.close()

    def __enter__(self) -> ProxyHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _prepare(config: ProxyConfig) -> tuple[Starlette, Ledger]:
    settler = Settler(config.upstream, config.api_key, config.settle) if config.settle.tries else None
    ledger = Ledger(
        config.prices,
        config.spend_cap,
        config.log_path,
        config.unknown_call_cost,
        settler,
        prompt_counters=config.prompt_counters,
    )
    app = build_app(
        config.upstream,
        config.api_key,
        frozenset(config.models),
        ledger,
        config.timeout,
        config.limits,
        settler,
    )
    return app, ledger


def serve_proxy(config: ProxyConfig) -> ProxyHandle:
    """Start the proxy in a background thread and return once it accepts connections.

    Raises:
        RuntimeError: the server did not start in time.
    """
    app, ledger = _prepare(config)
    try:
        server = BackgroundServer(app, config.host, config.port, name="tracking proxy")
    except BaseException:
        ledger.close()
        raise
    return ProxyHandle(server, ledger)


def run_proxy(config: ProxyConfig, *, announce: bool = True) -> None:
    """Serve the proxy in the calling thread until interrupted (Ctrl-C), as the command line does."""
    app, ledger = _prepare(config)
    sock = bind(config.host, config.port)
    if announce:
        host, port = sock.getsockname()[:2]
        print(f"tracking proxy for {', '.join(config.models)} at http://{host}:{port}/v1", flush=True)
        print(f"usage: http://{host}:{port}/continual-arc/usage", flush=True)
    try:
        uvicorn.Server(uvicorn_config(app)).run(sockets=[sock])
    finally:
        ledger.close()
