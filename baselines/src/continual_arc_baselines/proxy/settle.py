"""Asking the provider what a call whose usage was lost really cost.

A call can end without its usage: the upstream timed out, the stream broke, the learner (or the
whole run) hung up, or the proxy itself was killed. A provider that keeps a record of each
generation can still say what it billed: OpenRouter serves ``GET {base}/generation?id=GEN`` (the
id is the reply's own ``id``, ``gen-...``), with the generation's native token counts, its
``total_cost`` and whether it was ``cancelled``, a few seconds after the call. The
``Settler`` asks it, a few times, and turns the answer into a usage object; when the upstream
has no such endpoint, or never knows the id, the ledger falls back to the call's bounded worst case.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import httpx
from openai.types.completion_usage import CompletionTokensDetails
from pydantic import BaseModel, ConfigDict, ValidationError

from continual_arc_baselines.json_types import JSONValue
from continual_arc_baselines.proxy.tally import ReportedUsage

__all__ = ["SETTLED_BY", "GenerationRecord", "SettleOptions", "Settler", "usage_of_generation"]

SETTLED_BY = "generation"
"""The ``cost_source`` of a call settled from the provider's generation record."""


@dataclass(frozen=True)
class SettleOptions:
    """How the proxy asks the provider for a lost call's bill.

    Attributes:
        tries: times the generation is asked for before the worst case is charged (a provider
            records a generation a few seconds after it ends: until then it answers 404).
        wait: seconds between two tries.
    """

    tries: int = 5
    wait: float = 2.0

    def __post_init__(self) -> None:
        if self.tries < 0 or self.wait < 0:
            raise ValueError("settlement tries and wait cannot be negative")


DEFAULT_SETTLE = SettleOptions()
"""How a proxy asks for a lost call's bill unless told otherwise: five times, two seconds apart."""


class GenerationRecord(BaseModel):
    """What the provider's record of one generation says it billed (OpenRouter's ``/generation``).

    Native counts are the model's own tokenizer's; the others, the provider's normalised ones.
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    total_cost: float | None = None
    native_tokens_prompt: int | None = None
    native_tokens_completion: int | None = None
    native_tokens_reasoning: int | None = None
    tokens_prompt: int | None = None
    tokens_completion: int | None = None

    def usage(self) -> ReportedUsage | None:
        """A usage object (native counts first, ``cost`` the ``total_cost``); ``None`` with no cost."""
        if self.total_cost is None:
            return None
        prompt = self.native_tokens_prompt if self.native_tokens_prompt is not None else self.tokens_prompt
        completion = (
            self.native_tokens_completion
            if self.native_tokens_completion is not None
            else self.tokens_completion
        )
        prompt, completion = prompt or 0, completion or 0
        return ReportedUsage(
            prompt_tokens=prompt,
            completion_tokens=completion,
            total_tokens=prompt + completion,
            completion_tokens_details=CompletionTokensDetails(
                reasoning_tokens=self.native_tokens_reasoning or 0
            ),
            cost=self.total_cost,
        )


def usage_of_generation(found: JSONValue) -> ReportedUsage | None:
    """The usage of a generation, from the provider's record of it (its ``data``, or the record bare).

    ``None`` when the record names no cost, or is no such record: it settles nothing.
    """
    data = found.get("data") if isinstance(found, dict) and isinstance(found.get("data"), dict) else found
    try:
        return GenerationRecord.model_validate(data).usage()
    except ValidationError:
        return None


class Settler:
    """Asks the upstream's generation endpoint for the bill of a generation.

    Args:
        upstream: the upstream's OpenAI base URL; the endpoint is ``{upstream}/generation``.
        api_key: the upstream's key, or ``None``.
        options: how often to ask.
    """

    def __init__(self, upstream: str, api_key: str | None, options: SettleOptions) -> None:
        self.url = upstream.rstrip("/") + "/generation"
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.options = options

    def _read(self, reply: httpx.Response) -> ReportedUsage | None:
        if reply.status_code != 200:
            return None
        try:
            found: JSONValue = reply.json()
        except ValueError:
            return None
        return usage_of_generation(found)

    async def ask(self, client: httpx.AsyncClient, generation: str) -> ReportedUsage | None:
        """The generation's usage and cost, or ``None`` once every try found nothing."""
        for n in range(self.options.tries):
            if n:
                await asyncio.sleep(self.options.wait)
            try:
                reply = await client.get(self.url, params={"id": generation}, headers=self.headers)
            except httpx.HTTPError:
                continue
            usage = self._read(reply)
            if usage is not None:
                return usage
        return None

    def ask_now(self, generation: str, timeout: float = 30.0) -> ReportedUsage | None:
        """The same, blocking: for the calls a restarted proxy finds open in its ledger."""
        with httpx.Client(timeout=timeout) as client:
            for n in range(self.options.tries):
                if n:
                    time.sleep(self.options.wait)
                try:
                    reply = client.get(self.url, params={"id": generation}, headers=self.headers)
                except httpx.HTTPError:
                    continue
                usage = self._read(reply)
                if usage is not None:
                    return usage
        return None
