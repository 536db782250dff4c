"""Each instance's calls, tokens and cost, as the tracking proxy counted them.

A harness's calls never pass through our client, so the proxy's counts are the only ones: the
learner reads the instance's counts before its harness starts and after it has stopped, and keeps
the difference (exact when a resumed round plays an instance again under the same key).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from ..library.counts import COUNT_KEYS, add_counts
from ..library.model_session import ProxyCountsError, usage_url

__all__ = ["ProxyCounts"]

_RENAMED = {"failed_calls": "upstream_errors", "refused_calls": "refused"}


def _from_proxy(tally: Mapping[str, Any]) -> dict[str, float]:
    return {key: float(tally.get(_RENAMED.get(key, key)) or 0.0) for key in COUNT_KEYS}


class ProxyCounts:
    """One learner's counts at the proxy, per instance key.

    Args:
        base_url: the proxy's OpenAI base. run_id: the run's name there.
    """

    def __init__(self, base_url: str, run_id: str) -> None:
        self.url = usage_url(base_url)
        self.run_id = run_id
        self._http = httpx.Client(timeout=30.0)
        self._base: dict[str, dict[str, float]] = {}
        self._total = dict.fromkeys(COUNT_KEYS, 0.0)

    def read(self, instance: str) -> dict[str, float]:
        """The proxy's counts of ``instance`` now.

        Raises:
            ProxyCountsError: the proxy could not be read (the run stops: nothing can be counted).
        """
        try:
            reply = self._http.get(self.url, params={"run": self.run_id, "instance": instance})
            reply.raise_for_status()
            return _from_proxy(reply.json())
        except (httpx.HTTPError, ValueError) as error:
            raise ProxyCountsError(
                f"cannot read the tracking proxy's counts at {self.url} ({type(error).__name__}: {error}); "
                "a harness is counted only by the proxy: start it there"
            ) from error

    def begin(self, instance: str) -> None:
        """Note the instance's counts before its harness starts."""
        self._base[instance] = self.read(instance)

    def settle(self, instance: str) -> dict[str, float]:
        """The instance's counts since :meth:`begin`, added to the totals (zeros if never begun)."""
        base = self._base.pop(instance, None)
        if base is None:
            return dict.fromkeys(COUNT_KEYS, 0.0)
        now = self.read(instance)
        counts = {key: round(now[key] - base[key], 12) for key in COUNT_KEYS}
        self._total = add_counts(self._total, counts)
        return counts

    def totals(self) -> dict[str, float]:
        """The counts of every settled instance, summed."""
        return dict(self._total)

    def close(self) -> None:
        """Release the HTTP connections."""
        self._http.close()
