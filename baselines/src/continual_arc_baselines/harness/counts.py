"""Each instance's calls, tokens and cost, as the tracking proxy counted them.

A harness's calls never pass through our client, so the proxy's counts are the only ones: the
learner reads the instance's counts before its harness starts and after it has stopped, and keeps
the difference (exact when a resumed round plays an instance again under the same key). A resumed
run's totals and spend cap continue from its records as a model learner's do (`library.carry`).
"""

from __future__ import annotations

from collections.abc import Mapping

import httpx

from continual_arc.learner import SpendCapReached

from ..library.carry import ProxyCountsError, carry_spend, usage_url
from ..library.counts import add_counts, from_proxy, minus, zero

__all__ = ["ProxyCounts"]


class ProxyCounts:
    """One learner's counts at the proxy, per instance key.

    Args:
        base_url: the proxy's OpenAI base. run_id: the run's name there.
    """

    def __init__(self, base_url: str, run_id: str) -> None:
        self.base_url = base_url
        self.url = usage_url(base_url)
        self.run_id = run_id
        self._http = httpx.Client(timeout=30.0)
        self._base: dict[str, dict[str, float]] = {}
        self._total = zero()
        self._cap_refused: float | None = None  # the run's refusals for the cap when this learner began

    def check_cap(self) -> None:
        """Stop the run if the proxy refused one of its calls for the spend cap since this learner began.

        A harness sees the proxy's 402 itself and carries on (or not) in its own way; the learner
        reads the run's refusals before each instance, so that the run stops at the cap instead of
        starting one refused harness after another.

        Raises:
            SpendCapReached: a call of the run was refused for the cap.
            ProxyCountsError: the proxy could not be read.
        """
        try:
            reply = self._http.get(self.url, params={"run": self.run_id})
            reply.raise_for_status()
            refused = float(reply.json().get("cap_refused") or 0.0)
        except (httpx.HTTPError, ValueError, AttributeError) as error:
            raise ProxyCountsError(
                f"cannot read the tracking proxy's counts at {self.url} ({type(error).__name__}: {error})"
            ) from error
        if self._cap_refused is None:
            self._cap_refused = refused
        elif refused > self._cap_refused:
            raise SpendCapReached(
                f"the tracking proxy refused {refused - self._cap_refused:g} call(s) of run "
                f"{self.run_id!r} under its spend cap"
            )

    def read(self, instance: str) -> dict[str, float]:
        """The proxy's counts of ``instance`` now.

        Raises:
            ProxyCountsError: the proxy could not be read (the run stops: nothing can be counted).
        """
        try:
            reply = self._http.get(self.url, params={"run": self.run_id, "instance": instance})
            reply.raise_for_status()
            return from_proxy(reply.json())
        except (httpx.HTTPError, ValueError) as error:
            raise ProxyCountsError(
                f"cannot read the tracking proxy's counts at {self.url} ({type(error).__name__}: {error}); "
                "a harness is counted only by the proxy: start it there"
            ) from error

    def begin(self, instance: str) -> None:
        """Note the instance's counts before its harness starts."""
        self._base[instance] = self.read(instance)

    def settle(self, instance: str) -> dict[str, float]:
        """The instance's counts since `begin`, added to the totals (zeros if never begun)."""
        base = self._base.pop(instance, None)
        if base is None:
            return zero()
        counts = minus(self.read(instance), base)
        self._total = add_counts(self._total, counts)
        return counts

    def resume(self, counts: Mapping[str, float]) -> None:
        """Continue a resumed run from ``counts``, the cumulative counters its records end with.

        The totals start from them and the proxy is told the run's spend so far, which its spend
        cap then weighs with every later call of this run id.

        Raises:
            ProxyCountsError: the proxy could not be told: the run would otherwise start its cap again.
        """
        self._total = add_counts(zero(), counts)
        carry_spend(self._http, self.base_url, self.run_id, self._total)

    def totals(self) -> dict[str, float]:
        """The counts of every settled instance, summed."""
        return dict(self._total)

    def close(self) -> None:
        """Release the HTTP connections."""
        self._http.close()
