"""A model-backed learner's link to its model: settings, calls, transcripts and per-instance counts.

One `ModelSession` serves one learner. It makes the learner's calls through a
[`ModelClient`][continual_arc_baselines.model.client.ModelClient] (each call marked with its instance and sent
to the tracking proxy under the learner's run id), keeps each instance's messages for its trajectory,
and counts each instance's calls, tokens and cost.

**Counts per instance.** The first time an instance calls the model, the session notes that
instance's counts so far; when the round ends, it reads them again and keeps the difference. With
``proxy_counts`` (the default) the counts are the tracking proxy's (``GET
/continual-arc/usage?run=...&instance=...``), which see every call that reached it, retries
included; otherwise they are the client's own. Taking a difference keeps them exact when an
instance is played again under the same key (a resumed round, or one learner played twice).

**Resumed runs.** `ModelSession.resume` (the learners' ``resume_from``, which the runner
calls only when a run is resumed) takes the cumulative counts of the run's last committed record,
so that ``resources()`` continues from them, and tells the proxy what the run spent before
(``POST /continual-arc/carry``), so that its spend cap weighs the whole run, not the part since the
resume. The proxy counts whichever is more, its own count of the run id or the records', so
nothing is counted twice when the proxy kept running and the run id is named.

A resumed session also names its instances apart at the proxy (a random tag after each name,
[`ModelClient.instance_tag`][continual_arc_baselines.model.client.ModelClient]): the killed process
may have left a call in flight on the very instance the resumed one plays again, and a proxy that
kept running records that call (the hang-up, or the provider's bill for it) whenever it settles,
possibly after the resumed instance's first call has read its baseline. Under its own name that
late call stays the killed process's: it counts against the run's spend cap and in the ledger (the
spend outside any committed instance), never in the resumed instance's record.

**Refusals.** A call the endpoint refuses outright (401 a bad key, 402 the proxy's spend cap, 403 a
model the proxy does not serve, 404 a wrong URL) raises `ModelRefusedError`; every later call
of the session raises it again without reaching the endpoint, and the learners re-raise it from
``end_round``, which stops the run with that message. Transient failures (429, 5xx, time-outs) are
retried by the client and, once its retries are spent, fail only the instance.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields

import httpx

from continual_arc.learner import SpendCapReached
from continual_arc.sandbox import PROXY_ENV
from continual_arc_baselines.model import ModelCallError, ModelClient, Usage

from ..json_types import JSONObject, JSONValue
from .carry import ProxyCountsError, carry_spend, carry_url, usage_url
from .counts import COUNT_KEYS, add_counts, from_client, from_proxy, minus, with_unseen, zero
from .replies import kept_reply, reply_entry

__all__ = [
    "COUNT_KEYS",
    "DEFAULT_BASE_URL",
    "ModelRefusedError",
    "ModelSession",
    "ModelSettings",
    "ProxyCountsError",
    "SpendCapRefusedError",
    "carry_url",
    "default_base_url",
    "usage_url",
]

DEFAULT_BASE_URL = "http://127.0.0.1:8787/v1"
"""The tracking proxy's address when started with its default port."""


def default_base_url() -> str:
    """A learner's endpoint when it is not given one: ``$CONTINUAL_ARC_PROXY``, else the proxy's default.

    ``continual-arc verify --proxy URL`` sets that variable to the proxy's address inside the
    learner's sandbox (a relay on ``127.0.0.1`` at the proxy's port), since it builds the learner
    with no arguments.
    """
    return os.environ.get(PROXY_ENV) or DEFAULT_BASE_URL


_CATCH_UP = 10.0  # seconds to wait for the proxy to count the calls the client has made

_FATAL = {
    401: "the endpoint refused the API key",
    402: "the tracking proxy refused the call under its spend cap",
    403: "the endpoint refused the model (the proxy serves only the models it was started with --model)",
    404: "the endpoint has no chat completions at this URL",
}


class ModelRefusedError(RuntimeError):
    """The endpoint refused the learner's calls in a way no retry or later call can change."""


class SpendCapRefusedError(ModelRefusedError, SpendCapReached):
    """The tracking proxy (or the provider, out of credit) refused a call with 402: the run's spend cap.

    A [SpendCapReached][continual_arc.core.errors.SpendCapReached]: the runner stops the run cleanly
    at the round in progress, and ``--resume`` with a raised cap continues it.
    """


@dataclass(frozen=True)
class ModelSettings:
    """How a model-backed learner calls its model, and its limits (every field a JSON keyword).

    Attributes:
        model: the model id, exactly as the endpoint names it (``openai/gpt-5-mini``).
        effort: the reasoning effort sent as ``reasoning_effort`` (``low``, ``medium``, ``high``);
            ``None`` sends none.
        base_url: the endpoint's OpenAI base; by default the tracking proxy on its default port.
        api_key_env: the environment variable holding the endpoint's key; ``None`` sends a
            placeholder, which is all the proxy needs (it holds the upstream's key itself).
        run_id: the run's name at the proxy, for its counts, log and spend cap. By default it is
            the learner's label and the run directory's ``run-id`` (`ModelSession.join_run`), the
            same when the run is resumed and another for every other run, so that plays sharing a
            proxy never mix their counts (a learner played outside a run draws one); give each
            play its own if you name them. A resumed learner carries the run's spend so far to
            its run id (`ModelSession.resume`).
        proxy_counts: read each instance's counts from the tracking proxy at ``base_url``
            (``false`` for an endpoint reached directly: the client's own counts are used).
        timeout: seconds allowed for one request. max_retries: retries of a transient failure.
        max_tokens: the reply's token limit, if any. temperature: the sampling temperature, if any.
        stream: stream replies (with their usage); ``false`` for endpoints that cannot.
        tries: model calls a writer may make for one set of demonstrations before it gives up on
            them (each later call is told why the earlier reply was not kept).
        max_calls: requests to the model allowed on one instance, retries included, whatever makes them.
        instance_time_limit: seconds an instance may spend from its first model call: no call or
            retry starts after it, and a call in flight is cut off at it (a hung upstream then
            fails the instance instead of holding the run).
        program_time_limit: seconds a model-written program may take on each grid.
        program_memory_mb: the address space a model-written program may use, in MiB.
        max_reply_chars: characters of a reply the learner reads and echoes back in a later prompt;
            past them the reply is shortened (and marked so in the trajectory), so that a runaway
            reply never floods the next prompt or the trajectory.
    """

    model: str
    effort: str | None = None
    base_url: str = field(default_factory=default_base_url)
    api_key_env: str | None = None
    run_id: str | None = None
    proxy_counts: bool = True
    timeout: float = 600.0
    max_retries: int = 4
    max_tokens: int | None = None
    temperature: float | None = None
    stream: bool = True
    tries: int = 2
    max_calls: int = 24
    instance_time_limit: float = 1800.0
    program_time_limit: float = 5.0
    program_memory_mb: int = 512
    max_reply_chars: int = 100_000

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model:
            raise ValueError("model must name a model, e.g. 'openai/gpt-5-mini'")
        if self.tries < 1 or self.max_calls < 1:
            raise ValueError(f"tries and max_calls must be at least 1, got {self.tries} and {self.max_calls}")
        if self.instance_time_limit <= 0:
            raise ValueError(f"instance_time_limit must be positive, got {self.instance_time_limit}")
        if self.max_reply_chars < 1:
            raise ValueError(f"max_reply_chars must be at least 1, got {self.max_reply_chars}")
        if self.program_time_limit <= 0 or self.program_memory_mb < 64:
            raise ValueError("program_time_limit must be positive and program_memory_mb at least 64")

    def public(self) -> JSONObject:
        """The settings as JSON, as a trajectory shows them (the drawn run id left out)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "run_id"}


def _same_turns(logged: Sequence[Mapping[str, JSONValue]], sent: Sequence[Mapping[str, str]]) -> bool:
    return len(logged) <= len(sent) and all(
        m.get("role") == s.get("role") and m.get("content") == s.get("content")
        for m, s in zip(logged, sent, strict=False)
    )


def _message(message: Mapping[str, str]) -> JSONObject:
    """A copy of a message sent, as the transcript keeps it."""
    return dict(message)


class ModelSession:
    """One learner's calls: made, transcribed and counted per instance. Not thread-safe.

    Args:
        settings: the model and its limits.
        label: a prefix of the run id drawn when the settings name none.

    Raises:
        ValueError: ``api_key_env`` names a variable that is not set.
    """

    def __init__(self, settings: ModelSettings, label: str = "learner") -> None:
        self.settings = settings
        self.label = label
        self.run_id = settings.run_id or f"{label}-{secrets.token_hex(4)}"
        api_key = None
        if settings.api_key_env:
            api_key = os.environ.get(settings.api_key_env)
            if not api_key:
                raise ValueError(f"the environment variable {settings.api_key_env} (api_key_env) is not set")
        self.client = ModelClient(
            settings.base_url,
            settings.model,
            api_key=api_key,
            reasoning_effort=settings.effort,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            run_id=self.run_id,
            stream=settings.stream,
        )
        self.counted_by = "proxy" if settings.proxy_counts else "client"
        self.fatal: ModelRefusedError | ProxyCountsError | None = None
        self._http: httpx.Client | None = None
        # Each open instance's counts before its first call: the proxy's (or client's), and the client's.
        self._base: dict[str, tuple[dict[str, float], Usage]] = {}
        self._calls: dict[str, int] = {}
        self._deadlines: dict[str, float] = {}
        self._transcripts: dict[str, list[list[JSONObject]]] = {}
        self._settled: dict[str, dict[str, float]] = {}
        self._total = zero()

    # -- calls -------------------------------------------------------------------------------------

    def calls_left(self, instance: str) -> int:
        """Requests the instance may still make: under ``max_calls``, and none once out of time."""
        if time.monotonic() >= self._deadlines.get(instance, float("inf")):
            return 0
        return max(0, self.settings.max_calls - self._calls.get(instance, 0))

    def chat(self, messages: Sequence[Mapping[str, str]], instance: str) -> str | None:
        """Send one call for ``instance``; the reply's text, or ``None`` once ``max_calls`` is spent.

        Raises:
            ModelRefusedError: the endpoint refused the call outright (now or earlier).
            ProxyCountsError: the proxy's counts could not be read before the instance's first call.
            ModelCallError: the call failed after the client's retries (the instance fails).
        """
        if self.fatal is not None:
            raise self.fatal
        left = self.calls_left(instance)
        if left == 0:
            return None
        if instance not in self._base:
            self._base[instance] = (self._read_counts(instance), self.client.usage(instance))
            self._deadlines[instance] = time.monotonic() + self.settings.instance_time_limit
        try:
            result = self.client.chat(
                messages,
                instance=instance,
                max_tokens=self.settings.max_tokens,
                temperature=self.settings.temperature,
                max_attempts=left,
                deadline=self._deadlines[instance],
            )
        except ModelCallError as error:
            self._calls[instance] = self._calls.get(instance, 0) + error.attempts
            self._transcribe(instance, messages, {"role": "error", "content": str(error)})
            if error.status in _FATAL:
                kind = SpendCapRefusedError if error.status == 402 else ModelRefusedError
                self.fatal = kind(
                    f"{_FATAL[error.status]}: model {self.settings.model!r} at {self.settings.base_url} "
                    f"answered HTTP {error.status}: {error.detail}"
                )
                raise self.fatal from error
            raise
        self._calls[instance] = self._calls.get(instance, 0) + result.attempts
        text = kept_reply(result.text, self.settings.max_reply_chars)
        self._transcribe(instance, messages, reply_entry(result, text))
        return text

    def _transcribe(self, instance: str, messages: Sequence[Mapping[str, str]], reply: JSONObject) -> None:
        """Log a call, extending the instance's last conversation when the call continues it."""
        talks = self._transcripts.setdefault(instance, [])
        if talks and _same_turns(talks[-1], messages):
            talks[-1].extend(_message(m) for m in messages[len(talks[-1]) :])
        else:
            talks.append([_message(m) for m in messages])
        talks[-1].append(reply)

    # -- counts ------------------------------------------------------------------------------------

    def _read_counts(self, instance: str) -> dict[str, float]:
        if self.counted_by == "client":
            return from_client(self.client.usage(instance))
        url = usage_url(self.settings.base_url)
        try:
            if self._http is None:
                self._http = httpx.Client(timeout=30.0)
            named = self.client.proxy_instance(instance)
            reply = self._http.get(url, params={"run": self.run_id, "instance": named})
            reply.raise_for_status()
            return from_proxy(reply.json())
        except (httpx.HTTPError, ValueError) as error:
            self.fatal = ProxyCountsError(
                f"cannot read the tracking proxy's counts at {url} ({type(error).__name__}: {error}); "
                f"start the proxy there, or pass proxy_counts=false to count on the client"
            )
            raise self.fatal from error

    def settle(self, instance: str) -> dict[str, float]:
        """The counts of ``instance`` since its first call, kept for the round (zeros with no call)."""
        if instance in self._settled:
            return dict(self._settled[instance])
        counts = zero()
        if instance in self._base:
            base, client_base = self._base.pop(instance)
            now = self.client.usage(instance)
            # Attempts that never reached the model are no calls: the proxy never saw them either.
            sent = (now.attempts - now.unreached) - (client_base.attempts - client_base.unreached)
            counts = minus(self._read_counts(instance), base)
            deadline = time.monotonic() + _CATCH_UP
            # The proxy counts a streamed call once it has relayed the last chunk, which can be just
            # after the client has returned: wait until it has seen every request the client sent.
            while counts["calls"] + counts["refused_calls"] < sent and time.monotonic() < deadline:
                time.sleep(0.005)
                counts = minus(self._read_counts(instance), base)
            counts = with_unseen(counts, sent)
            self._total = add_counts(self._total, counts)
        self._settled[instance] = counts
        return dict(counts)

    def join_run(self, run_id: str) -> None:
        """Call under ``{label}-{run_id}``, the run directory's id, unless the settings name a run id.

        Called before any call of the run (the learners' ``join_run``), so that a resumed run,
        whose directory holds the same id, spends against the same cap at the proxy.
        """
        if self.settings.run_id is None:
            self.run_id = f"{self.label}-{run_id}"
            self.client.run_id = self.run_id

    def resume(self, counts: Mapping[str, float]) -> None:
        """Continue a resumed run from ``counts``, the cumulative counters its records end with.

        The totals start from them, and the proxy (with ``proxy_counts``) is told the run's spend
        so far, which its spend cap then weighs with every later call of this session's run id.
        Called on every resumed run, ``counts`` empty when no round had committed: from here on the
        session's calls are counted at the proxy under instance names of its own (a drawn tag), so
        that a call the killed process left in flight, settled late, never counts in this one's
        records.

        Raises:
            ProxyCountsError: the proxy could not be told (a proxy without ``/continual-arc/carry``,
                or none at ``base_url``): the run would otherwise start its spend cap again.
        """
        self.client.instance_tag = f"~resumed-{secrets.token_hex(4)}"
        self._total = add_counts(zero(), counts)
        if self.counted_by == "client" or not counts:
            return  # no proxy, so no cap to tell; or nothing spent in a committed round to carry
        if self._http is None:
            self._http = httpx.Client(timeout=30.0)
        carry_spend(self._http, self.settings.base_url, self.run_id, self._total)

    def totals(self) -> dict[str, float]:
        """The counts of every settled instance, summed (cumulative over the learner's life)."""
        return dict(self._total)

    def transcript(self, instance: str) -> list[JSONValue]:
        """The instance's conversations (each a list): every message sent and every reply, in order."""
        return [[dict(m) for m in talk] for talk in self._transcripts.get(instance, [])]

    # -- rounds ------------------------------------------------------------------------------------

    def begin_round(self) -> None:
        """Drop the last round's transcripts and counts: the runner has stored them."""
        self._transcripts.clear()
        self._settled.clear()
        self._calls.clear()
        self._deadlines.clear()

    def end_round(self, instances: Iterable[str] = ()) -> None:
        """Settle the round's instances (and any left open by a fault); raise a refusal met in the round.

        Raises:
            ModelRefusedError: a call of the session was refused outright.
            ProxyCountsError: the proxy's counts could not be read.
        """
        for instance in [*instances, *self._base]:
            self.settle(instance)
        if self.fatal is not None:
            raise self.fatal

    def close(self) -> None:
        """Release the HTTP connections."""
        self.client.close()
        if self._http is not None:
            self._http.close()
