"""How any learner here continues a resumed run's counters and spend cap: one mechanism for all.

The runner hands a resumed learner the records it continues from (its ``resume_from``). The last
record's cumulative ``resources`` are the counters every instance committed so far
(`last_resources`); the learner's totals start from them, and the tracking proxy is told the
run's spend so far (``POST /continual-arc/carry``, `carry_spend`), which its spend cap then
weighs with every later call of the learner's run id. The proxy counts whichever is more, its own
count of the run id or the records', so nothing is counted twice when it kept running.

The model learners (`ModelSession`) and the harness learners
(`ProxyCounts`) both go through here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import httpx

from ..json_types import JSONValue

__all__ = ["ProxyCountsError", "carry_spend", "carry_url", "last_resources", "usage_url"]


class ProxyCountsError(RuntimeError):
    """The tracking proxy's counts could not be read, or it could not be told a resumed run's spend."""


def usage_url(base_url: str) -> str:
    """The proxy's counts endpoint for a proxy whose OpenAI base is ``base_url``."""
    root = base_url.rstrip("/")
    return root.removesuffix("/v1") + "/continual-arc/usage"


def carry_url(base_url: str) -> str:
    """The proxy's endpoint that takes a resumed run's earlier spend (``base_url``: its OpenAI base)."""
    return usage_url(base_url).removesuffix("/usage") + "/carry"


def last_resources(records: Sequence[Mapping[str, JSONValue]]) -> dict[str, float]:
    """The cumulative resources of the last record: every instance of its round has settled by then.

    Every counter the learner reported, its own (a writer's writes) besides the model's
    (`COUNT_KEYS`, which are what is carried to the proxy); none with no record.
    """
    resources = records[-1].get("resources") if records else None
    if not isinstance(resources, dict):
        return {}
    # A record's counters are numbers (the runner wrote them): anything else is no counter.
    return {str(k): float(v) for k, v in resources.items() if isinstance(v, int | float)}


def carry_spend(http: httpx.Client, base_url: str, run_id: str, counts: Mapping[str, float]) -> None:
    """Tell the proxy at ``base_url`` that the run ``run_id`` spent ``counts`` before this process.

    Raises:
        ProxyCountsError: the proxy could not be told (a proxy without ``/continual-arc/carry``,
            or none at ``base_url``): the run would otherwise start its spend cap again.
    """
    url = carry_url(base_url)
    body = {
        "run": run_id,
        "cost": float(counts.get("cost", 0.0)),
        "cost_unknown_calls": int(counts.get("cost_unknown_calls", 0.0)),
    }
    try:
        http.post(url, json=body).raise_for_status()
    except httpx.HTTPError as error:
        raise ProxyCountsError(
            f"cannot tell the tracking proxy at {url} what the resumed run spent before "
            f"({type(error).__name__}: {error}); without it the run's spend cap would start again"
        ) from error
