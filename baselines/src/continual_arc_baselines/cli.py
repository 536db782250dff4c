"""The ``continual-arc-baselines`` (alias ``arc-baselines``) command line.

Subcommands: ``proxy`` (the tracking proxy), ``fake-server`` (scripted replies for offline
tries), ``run`` (the bare model over a schedule), ``harness`` (install an agent harness) and
``serve`` (open weights as an endpoint). Each is one ``add_<name>_parser(subparsers)``
function that declares its options and sets ``func`` to a thin handler over a public function;
`SUBCOMMANDS` lists them in help order. To add a subcommand, write its ``add_..._parser`` and
append it to `SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeAlias

# The proxy's defaults show in its parser's help, built whatever the command: its package loads anyway.
from continual_arc_baselines.harness.packages import HARNESSES
from continual_arc_baselines.proxy import (
    DEFAULT_CALL_CEILING,
    Price,
    ProxyConfig,
    ReplyLimits,
    SettleOptions,
    run_proxy,
)

__all__ = [
    "BARE_LEARNER",
    "SUBCOMMANDS",
    "add_fake_server_parser",
    "add_harness_parser",
    "add_proxy_parser",
    "add_run_parser",
    "add_serve_parser",
    "bare_kwargs",
    "build_parser",
    "main",
]

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``add_subparsers`` returns (a class argparse keeps private, but names in its stubs)."""


class _Serving(Protocol):
    """A server that serves until interrupted and can then be closed."""

    def serve_forever(self) -> None:
        """Serve requests until interrupted."""

    def close(self) -> None:
        """Stop serving and release the address."""


def _proxy(args: argparse.Namespace) -> int:
    api_key = None
    if args.api_key_env:
        api_key = os.environ.get(args.api_key_env)
        if not api_key:
            print(f"error: the environment variable {args.api_key_env} is not set", file=sys.stderr)
            return 2
    try:
        prices = dict(Price.parse(spec) for spec in args.price)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    unknown = sorted(set(prices) - set(args.model))
    if unknown:
        print(f"error: --price for a model not served: {', '.join(unknown)}", file=sys.stderr)
        return 2
    config = ProxyConfig(
        upstream=args.upstream,
        models=tuple(args.model),
        api_key=api_key,
        host=args.host,
        port=args.port,
        log_path=args.log,
        spend_cap=args.spend_cap,
        prices=prices,
        timeout=args.timeout,
        unknown_call_cost=args.unknown_call_cost,
        limits=ReplyLimits(args.max_reply_bytes, args.max_tokens_ceiling, args.min_reply_tokens),
        settle=SettleOptions(tries=args.settle_tries),
    )
    run_proxy(config)
    return 0


def add_proxy_parser(subparsers: Subparsers) -> None:
    """Declare ``proxy``: the tracking proxy in front of one OpenAI-compatible upstream."""
    p = subparsers.add_parser(
        "proxy",
        help="run the tracking proxy in front of an OpenAI-compatible endpoint",
        description="Forward chat completions for the named models to the upstream, adding its API key; "
        "refuse everything else; count calls, tokens and cost per run and instance.",
    )
    p.add_argument("--upstream", required=True, help="the upstream's OpenAI base URL, /v1 included")
    p.add_argument(
        "--api-key-env", metavar="NAME", help="environment variable holding the upstream's API key"
    )
    p.add_argument(
        "--model", action="append", required=True, metavar="ID", help="a model to serve (repeatable)"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument(
        "--port", type=int, default=8787, help="port to listen on (default: 8787; 0 for a free one)"
    )
    p.add_argument(
        "--log",
        type=Path,
        metavar="FILE",
        help="the ledger: one JSON line per call and refusal, read back on start (a restart resumes)",
    )
    p.add_argument("--spend-cap", type=float, metavar="USD", help="USD each run may spend; then HTTP 402")
    p.add_argument(
        "--price",
        action="append",
        default=[],
        metavar="MODEL=IN_PER_M,OUT_PER_M",
        help="USD per million input and output tokens, for upstreams that report no cost (repeatable)",
    )
    p.add_argument(
        "--timeout", type=float, default=600.0, help="seconds for the upstream to connect and per read"
    )
    _add_proxy_limits(p)
    p.set_defaults(func=_proxy)


def _add_proxy_limits(p: argparse.ArgumentParser) -> None:
    """Declare ``proxy``'s limits on a call: its cost when unknown, its reply, its settling."""
    p.add_argument(
        "--unknown-call-cost",
        type=float,
        metavar="USD",
        help="charge each call of unknown cost this much against the spend cap (default: refuse the run)",
    )
    p.add_argument(
        "--max-reply-bytes",
        type=int,
        default=4 << 20,
        metavar="N",
        help="cut a reply whose text passes this many bytes (default: 4 MiB)",
    )
    p.add_argument(
        "--max-tokens-ceiling",
        type=int,
        default=DEFAULT_CALL_CEILING,
        metavar="N",
        help="the per-call ceiling: max_tokens is never sent above it, and a call whose usage is lost "
        f"and cannot be settled is charged at most this many reply tokens (default: {DEFAULT_CALL_CEILING})",
    )
    p.add_argument(
        "--settle-tries",
        type=int,
        default=SettleOptions.tries,
        metavar="N",
        help="times the upstream's generation endpoint (OpenRouter's GET /generation?id=) is asked what "
        f"a call whose usage was lost was billed, 2 s apart; 0 never asks (default: {SettleOptions.tries})",
    )
    p.add_argument(
        "--min-reply-tokens",
        type=int,
        default=256,
        metavar="N",
        help="refuse a call whose run's budget pays for fewer reply tokens (default: 256)",
    )


def _fake_server(args: argparse.Namespace) -> int:
    # Each subcommand's own module is imported when it runs, not at start-up: every other command
    # would otherwise wait for it (the fake server's, the server's, the bare model's take seconds).
    from continual_arc_baselines.fake_server import FakeModelServer

    try:
        script = json.loads(args.script.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"error: cannot read the script {args.script}: {error}", file=sys.stderr)
        return 2
    if not isinstance(script, list):
        print("error: a script is a JSON list of replies (strings or objects)", file=sys.stderr)
        return 2
    server = FakeModelServer(script, model=args.model, host=args.host, port=args.port)
    print(f"fake model server with {len(script)} scripted replies at {server.url}", flush=True)
    return _serve_until_interrupted(server)


def _serve_until_interrupted(server: _Serving) -> int:
    """Serve until Ctrl-C, then close the server (a stop by the user is a clean exit)."""
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def add_fake_server_parser(subparsers: Subparsers) -> None:
    """Declare ``fake-server``: a scripted OpenAI-compatible server for trying learners offline."""
    p = subparsers.add_parser(
        "fake-server",
        help="serve scripted replies as an OpenAI-compatible endpoint (offline testing)",
        description="Answer chat completions from a JSON list of replies, in order; then HTTP 500.",
    )
    p.add_argument("--script", type=Path, required=True, metavar="FILE.json", help="a JSON list of replies")
    p.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default: 8000; 0 for a free one)"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--model", default="fake-model", help="model name used when a request names none")
    p.set_defaults(func=_fake_server)


def _serve(args: argparse.Namespace) -> int:
    # Imported when ``serve`` runs, not at start-up (as the fake server's, above).
    from continual_arc_baselines.serve import ModelNotFound, ServeHandle, load_engine, resolve_model
    from continual_arc_baselines.serve.vllm_engine import load_vllm, vllm_usable

    try:
        ref = resolve_model(args.model)
        engine = load_vllm(ref) if vllm_usable() and not args.transformers else load_engine(ref, args.device)
        server = ServeHandle(
            engine,
            host=args.host,
            port=args.port,
            window=args.batch_window_ms / 1000,
            max_batch=args.max_batch,
            default_max_tokens=args.max_tokens,
            log_path=args.log,
        )
    except (ModelNotFound, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"serving {ref.name} at {server.url}", flush=True)
    return _serve_until_interrupted(server)


def add_serve_parser(subparsers: Subparsers) -> None:
    """Declare ``serve``: open weights as an OpenAI-compatible endpoint (the ``[train]`` extra)."""
    p = subparsers.add_parser(
        "serve",
        help="serve local open weights as an OpenAI-compatible endpoint (nothing downloaded)",
        description="Answer chat completions (plain and streamed, with exact usage) from a local "
        "transformers model folder or an org/name@commit in the local Hugging Face cache, batching "
        "concurrent requests; vLLM when it is installed and a GPU is present. Put the tracking proxy "
        "in front of it with --model set to the name it prints.",
    )
    p.add_argument("model", metavar="MODEL", help="a model folder, or org/name@commit already in the cache")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default: 8000; 0 for a free one)"
    )
    p.add_argument(
        "--batch-window-ms", type=float, default=10.0, metavar="MS", help="wait for requests to batch (10)"
    )
    p.add_argument("--max-batch", type=int, default=16, metavar="N", help="requests decoded at once (16)")
    p.add_argument(
        "--max-tokens", type=int, default=1024, metavar="N", help="a reply's limit when a request sets none"
    )
    p.add_argument("--device", metavar="D", help="torch device (default: cuda when present, else cpu)")
    p.add_argument("--transformers", action="store_true", help="use transformers even where vLLM would run")
    p.add_argument("--log", type=Path, metavar="FILE", help="append a JSON line per reply served")
    p.set_defaults(func=_serve)


BARE_LEARNER = "continual_arc_baselines.systems.bare:BareModelLearner"
"""The learner ``run`` plays, as the run's ``meta.json`` names it."""


def bare_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The bare model's keyword arguments from ``run``'s options (only those given)."""
    # Any: each value goes to the keyword of BareModelLearner that types it, and into meta.json.
    kwargs: dict[str, Any] = {"model": args.model}
    names = ("effort", "base_url", "api_key_env", "run_id", "demos", "max_calls", "max_tokens", "timeout")
    for name in names:
        value = getattr(args, name)
        if value is not None:
            kwargs[name] = value
    if args.no_proxy_counts:
        kwargs["proxy_counts"] = False
    return kwargs


def _run(args: argparse.Namespace) -> int:
    # Imported when ``run`` runs, not at start-up: the model client and the core's runner take seconds.
    from continual_arc.runner import LearnerError, LearnerRef, RunDirError, RunOptions, run
    from continual_arc.schedule import Schedule
    from continual_arc_baselines.systems.bare import BareModelLearner

    kwargs = bare_kwargs(args)
    try:
        schedule = Schedule.load(args.schedule)  # ScheduleError is a ValueError
        learner = BareModelLearner(**kwargs)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        options = RunOptions(
            resume=args.resume,
            alias_style=args.alias_style,
            instance_time_limit=args.instance_time_limit,
            fail_fast=args.fail_fast,
            learner=LearnerRef(BARE_LEARNER, kwargs),
        )
        result = run(learner, schedule, args.out, options)
    except (RunDirError, LearnerError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        learner.session.close()
    for phase, row in result.summary["phases"].items():
        errored = f"  errored {row['errored']}" if row["errored"] else ""
        print(
            f"{phase:9} {row['instances']:>5} instances  U {row['budget_used']:6.2f}  "
            f"P {row['share_solved']:6.2f}{errored}"
        )
    print(f"written to {args.out}")
    return 0


def add_run_parser(subparsers: Subparsers) -> None:
    """Declare ``run``: the bare model played over a schedule with the benchmark's runner."""
    p = subparsers.add_parser(
        "run",
        help="play the bare model over a schedule (e.g. a frozen test), one instance at a time",
        description="Play continual_arc_baselines.systems.bare.BareModelLearner over the schedule into "
        "a run directory: the model answering each instance on its own, nothing kept between them.",
    )
    p.add_argument(
        "--schedule", type=Path, required=True, metavar="FILE", help="the schedule (schedule make)"
    )
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="the run directory")
    p.add_argument("--model", required=True, metavar="ID", help="the model id, as the endpoint names it")
    p.add_argument("--effort", metavar="E", help="reasoning effort (low, medium, high)")
    p.add_argument(
        "--base-url", metavar="URL", help="the endpoint's OpenAI base (default: the proxy at 127.0.0.1:8787)"
    )
    p.add_argument("--api-key-env", metavar="NAME", help="environment variable holding the endpoint's key")
    p.add_argument("--run-id", metavar="R", help="the run's name at the proxy (default: drawn afresh)")
    p.add_argument(
        "--no-proxy-counts",
        action="store_true",
        help="count calls on the client (an endpoint reached without the tracking proxy)",
    )
    p.add_argument("--demos", type=int, metavar="N", help="demonstrations bought before answering (3)")
    p.add_argument("--max-calls", type=int, metavar="N", help="model calls allowed per instance (24)")
    p.add_argument("--max-tokens", type=int, metavar="N", help="token limit of each reply")
    p.add_argument("--timeout", type=float, metavar="S", help="seconds allowed for one request (600)")
    p.add_argument("--resume", action="store_true", help="continue the run in --out")
    p.add_argument("--alias-style", default="hash", choices=["hash", "names"], help="task names shown")
    p.add_argument("--instance-time-limit", type=float, metavar="S", help="seconds an instance may take")
    p.add_argument("--fail-fast", action="store_true", help="stop at the first failed instance")
    p.set_defaults(func=_run)


def _harness_install(args: argparse.Namespace) -> int:
    # Imported when ``harness install`` runs, not at start-up (as the fake server's, above).
    from continual_arc_baselines.harness.install import install

    names = list(HARNESSES) if args.name == "all" else [args.name]
    for name in names:
        try:
            home = install(name, args.data)
        except (subprocess.CalledProcessError, RuntimeError, OSError) as error:
            print(f"error: installing {name} failed: {error}", file=sys.stderr)
            return 1
        print(f"{name} {HARNESSES[name].version} installed in {home}")
    return 0


def add_harness_parser(subparsers: Subparsers) -> None:
    """Declare ``harness install NAME``: install an agent harness into an environment of its own."""
    p = subparsers.add_parser("harness", help="manage the agent harnesses the harness learners drive")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    q = actions.add_parser(
        "install",
        help="install a harness (the only step that downloads anything)",
        description="Install the pinned harness into <data>/harnesses/<name>-<version>: a virtual "
        "environment for a PyPI harness, a Node runtime and node_modules for an npm one.",
    )
    q.add_argument("name", choices=[*HARNESSES, "all"], help="the harness, or all of them")
    q.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="the data directory (default: $CONTINUAL_ARC_DATA or ~/.cache/continual-arc)",
    )
    q.set_defaults(func=_harness_install)


SUBCOMMANDS: list[Callable[[Subparsers], None]] = [
    add_proxy_parser,
    add_fake_server_parser,
    add_run_parser,
    add_harness_parser,
    add_serve_parser,
]
"""The subcommands' declaring functions, in help order."""


def build_parser() -> argparse.ArgumentParser:
    """The root parser with every subcommand of `SUBCOMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="continual-arc-baselines", description="The learners of Continual-ARC and their tools."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    return status
