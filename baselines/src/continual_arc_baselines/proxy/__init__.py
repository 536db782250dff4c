"""The tracking proxy: an OpenAI-compatible front for one upstream that counts every call.

It forwards chat completions for the models it was started with (adding the upstream's key), refuses
everything else ([`REFUSED_FIELDS`][continual_arc_baselines.proxy.policy.REFUSED_FIELDS] and the other rules
in `policy`), counts calls, tokens and cost per run and instance,
logs each call as a JSON line in its ledger file (read back on restart), holds each call to a
per-call ceiling and to what its run's spend cap leaves (``max_tokens``, and a cut of a runaway
reply), settles a call whose usage was lost at the provider's record of it, queues a run's calls
that its budget cannot yet reserve until earlier ones settle, enforces the cap per run,
and serves the counts at ``GET /continual-arc/usage``. Start it with
[`serve_proxy`][continual_arc_baselines.proxy.server.serve_proxy] (tests, in-process) or the command
``continual-arc-baselines proxy``.
"""

from continual_arc_baselines.proxy.app import (
    DEFAULT_INSTANCE,
    DEFAULT_RUN,
    build_app,
    marked_base_url,
    usage_view,
)
from continual_arc_baselines.proxy.budget import DEFAULT_CALL_CEILING, PromptCounter, PromptGauge, ReplyLimits
from continual_arc_baselines.proxy.forward import UNREACHED_HEADER
from continual_arc_baselines.proxy.ledger import CallRecord, Ledger, Price, Tally, cost_of
from continual_arc_baselines.proxy.policy import (
    ALLOWED_CONTENT_PARTS,
    ALLOWED_TOOL_TYPES,
    REFUSED_FIELDS,
    Refusal,
    check_request,
)
from continual_arc_baselines.proxy.relay import CUT_HEADER
from continual_arc_baselines.proxy.server import ProxyConfig, ProxyHandle, run_proxy, serve_proxy
from continual_arc_baselines.proxy.settle import SettleOptions, Settler, usage_of_generation
from continual_arc_baselines.proxy.tally import ReportedUsage, parse_usage

__all__ = [
    "ALLOWED_CONTENT_PARTS",
    "ALLOWED_TOOL_TYPES",
    "CUT_HEADER",
    "DEFAULT_CALL_CEILING",
    "DEFAULT_INSTANCE",
    "DEFAULT_RUN",
    "REFUSED_FIELDS",
    "UNREACHED_HEADER",
    "CallRecord",
    "Ledger",
    "Price",
    "PromptCounter",
    "PromptGauge",
    "ProxyConfig",
    "ProxyHandle",
    "Refusal",
    "ReplyLimits",
    "ReportedUsage",
    "SettleOptions",
    "Settler",
    "Tally",
    "build_app",
    "check_request",
    "cost_of",
    "marked_base_url",
    "parse_usage",
    "run_proxy",
    "serve_proxy",
    "usage_of_generation",
    "usage_view",
]
