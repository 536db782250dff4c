"""The ``continual-arc-baselines`` (alias ``arc-baselines``) command line.

Each subcommand is one ``add_<name>_parser(subparsers)`` function that declares its options and sets
``func`` to a thin handler over a public function; :data:`SUBCOMMANDS` lists them in help order. To
add a subcommand, write its ``add_..._parser`` and append it to :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["SUBCOMMANDS", "add_fake_server_parser", "add_proxy_parser", "build_parser", "main"]

Subparsers = Any  # argparse's _SubParsersAction, which is private


def _proxy(args: argparse.Namespace) -> int:
    from continual_arc_baselines.proxy import Price, ProxyConfig, run_proxy

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
    p.add_argument("--log", type=Path, metavar="FILE", help="append one JSON line per call and refusal here")
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
    p.set_defaults(func=_proxy)


def _fake_server(args: argparse.Namespace) -> int:
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


SUBCOMMANDS: list[Callable[[Subparsers], None]] = [add_proxy_parser, add_fake_server_parser]
"""The subcommands' declaring functions, in help order."""


def build_parser() -> argparse.ArgumentParser:
    """The root parser with every subcommand of :data:`SUBCOMMANDS`."""
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
