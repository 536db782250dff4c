"""A learner's teacher model: the one client that calls it, counts it apart, and holds it to its own cap.

Every learner here that is taught goes through [Teacher][continual_arc_baselines.teacher.Teacher]:
the harness learners, whose teacher plays an instance first (the rows QT, QTE and QETE), and the
trained learner QD, whose teacher labels the states the student met. A taught learner takes three
keywords besides its own (`TEACHER_KEYWORDS`): ``teacher`` (the model, an OpenRouter id
``org/name`` or open weights ``org/name@commit``), ``teacher_budget_usd`` (USD the teacher may spend
over the run; ``None`` for no cap of its own) and ``teacher_effort`` (its reasoning effort).
[Teacher.from_kwargs][continual_arc_baselines.teacher.Teacher.from_kwargs] takes them out of the
learner's keywords and gives a [Teacher][continual_arc_baselines.teacher.Teacher], or ``None`` when
no teacher is named::

    class MyLearner(BaseLearner):
        def __init__(self, model: str, **kwargs: object) -> None:
            self.teacher = Teacher.from_kwargs(kwargs, student_run_id="my-run")
            ...

        def join_run(self, run_id: str) -> None:
            if self.teacher is not None:
                self.teacher.join_run(f"my-{run_id}")  # the student's run id: the teacher's follows it

        def act(self, obs):
            if self.teacher is not None:
                move = self.teacher.chat(messages, instance=f"{obs.task_id}/{obs.step}")  # a label
            ...

        def end_round(self) -> None:
            if self.teacher is not None:
                self.teacher.end_round()  # settles the round's calls; raises at its cap

        def teacher_resources(self) -> Mapping[str, float]:  # what the runner records
            return self.teacher.resources() if self.teacher else {}

        def resume_from(self, records) -> None:
            if self.teacher is not None:
                self.teacher.resume(records)

The teacher is reached through the same tracking proxy as the student (or one of its own), under a
run name of its own (the student's run id with ``-teacher`` appended), so the proxy counts its
calls, tokens and cost apart from the student's; start the proxy with both models (``--model
STUDENT --model TEACHER``) and it admits exactly those two. Its counters
([TEACHER_COUNTERS][continual_arc.core.teacher.TEACHER_COUNTERS], from
[resources][continual_arc_baselines.teacher.Teacher.resources]) are the one account of what the
teacher cost: the runner keeps them in every record as ``teacher_resources``, ``report`` shows them
beside the score as training compute, and they are never in it. They start at zero in every process
and continue only through [resume][continual_arc_baselines.teacher.Teacher.resume], from the records
of the run resumed: a play started from another play's saved state (a protocol's held-out test) counts
its own teacher calls, never the earlier play's again.

A teacher may also drive a harness itself (the rows QT, QTE and QETE): the harness is given
[base_url_for][continual_arc_baselines.teacher.Teacher.base_url_for] ``(key)`` as its endpoint, the play
is bracketed by [begin][continual_arc_baselines.teacher.Teacher.begin] and
[settle][continual_arc_baselines.teacher.Teacher.settle], and
[played_uncharged][continual_arc_baselines.teacher.Teacher.played_uncharged] counts an instance the
teacher played with nothing charged, which makes the run an experiment.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import httpx

from continual_arc.learner import TEACHER_COUNTERS, SpendCapReached, check_teacher_name

from .keywords import KeywordError, settings_from
from .library.carry import ProxyCountsError, carry_spend, usage_url
from .library.counts import add_counts, from_proxy, minus, zero
from .library.model_session import DEFAULT_BASE_URL, ModelSession, ModelSettings, default_base_url
from .proxy.app import marked_base_url

__all__ = ["TEACHER_KEYWORDS", "Teacher", "TeacherBudgetReached", "TeacherSettings"]

TEACHER_KEYWORDS = ("teacher", "teacher_budget_usd", "teacher_effort")
"""The learner keywords a [Teacher][continual_arc_baselines.teacher.Teacher] is built from."""


class TeacherBudgetReached(SpendCapReached):
    """The teacher has spent its own budget (``teacher_budget_usd``): the run stops at the round under way."""


def _budget_ok(budget: object) -> bool:
    return budget is None or (
        isinstance(budget, int | float)
        and not isinstance(budget, bool)
        and math.isfinite(budget)
        and budget >= 0
    )


@dataclass(frozen=True)
class TeacherSettings:
    """Which teacher, what it may spend, and how its calls are made.

    Attributes:
        model: the teacher model, an OpenRouter id ``org/name`` or open weights ``org/name@commit``.
        budget_usd: USD the teacher may spend over the whole run (its own cap, apart from the
            student's); ``None`` for none besides the proxy's per-run cap.
        effort: the reasoning effort sent with its calls; ``None`` for none.
        calls: further settings of its calls, by name: fields of ``ModelSettings`` other than the
            model, its effort and its endpoint (``max_calls``, ``max_retries``, ``max_tokens``, ...);
            a ``run_id`` given here is the teacher's run name at the proxy, whatever the student's.

    Raises:
        ValueError: a model name that is not a published model's, a negative budget, or a setting
            of the calls that does not exist or is of another type (a
            [KeywordError][continual_arc_baselines.keywords.KeywordError]) or out of range.
    """

    model: str
    budget_usd: float | None = None
    effort: str | None = None
    calls: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_teacher_name(self.model)
        if not _budget_ok(self.budget_usd):
            raise ValueError(
                f"teacher_budget_usd must be a number of USD, 0 or more, got {self.budget_usd!r}"
            )
        named = self.calls.get("run_id")
        if named is not None and not (isinstance(named, str) and named):
            raise KeywordError(f"teacher_options run_id must name the teacher's run, got {named!r}")
        self.call_settings(DEFAULT_BASE_URL, "teacher")  # every other setting checked now, not at a call

    def call_settings(self, base_url: str, run_id: str) -> ModelSettings:
        """The settings of the teacher's calls to the endpoint ``base_url``, under the run name ``run_id``.

        Raises:
            KeywordError: a setting of ``calls`` that does not exist or is of another type.
            ValueError: a setting out of range.
        """
        given = {key: value for key, value in self.calls.items() if key != "run_id"}
        fixed = {"model": self.model, "effort": self.effort, "base_url": base_url, "run_id": run_id}
        return settings_from(ModelSettings, given, "teacher_options", **fixed)


class Teacher:
    """A learner's teacher model behind the tracking proxy (see the module docstring for its use).

    Args:
        settings: the teacher, its budget and its calls' settings.
        student_run_id: the student's run id at the proxy; the teacher's is it with ``-teacher``
            (unless ``settings.calls`` names one).
        base_url: the tracking proxy's OpenAI base (by default the student's default endpoint).

    Raises:
        ValueError: a setting of the calls out of range, or an ``api_key_env`` that is not set.

    Not thread-safe, like the learners that hold it.
    """

    def __init__(self, settings: TeacherSettings, student_run_id: str, base_url: str | None = None) -> None:
        self.settings = settings
        self.model = settings.model
        self.base_url = base_url or default_base_url()
        named = settings.calls.get("run_id")
        self._named = named is not None
        self.run_id = str(named) if named is not None else f"{student_run_id}-teacher"
        self.session = ModelSession(settings.call_settings(self.base_url, self.run_id), label="teacher")
        self._http = httpx.Client(timeout=30.0)
        self._open: dict[str, dict[str, float]] = {}
        self._harness = zero()
        self._carried = zero()
        self._uncharged = 0

    @classmethod
    def from_kwargs(
        cls, kwargs: dict[str, object], student_run_id: str, base_url: str | None = None
    ) -> Teacher | None:
        """The teacher ``kwargs`` name, taking `TEACHER_KEYWORDS` out of them; ``None`` if none is named.

        Args:
            kwargs: the learner's keywords; the teacher's are removed (the rest are the learner's own).
            student_run_id: the student's run id at the proxy.
            base_url: the tracking proxy's OpenAI base.

        Raises:
            ValueError: a teacher that names no published model, a bad budget or effort, or a budget
                or effort given without a teacher.
        """
        model = kwargs.pop("teacher", None)
        budget = kwargs.pop("teacher_budget_usd", None)
        effort = kwargs.pop("teacher_effort", None)
        if model is None:
            if budget is not None or effort is not None:
                raise ValueError(
                    "teacher_budget_usd and teacher_effort need a teacher: name it with teacher="
                )
            return None
        name = check_teacher_name(model)  # raises, saying what a teacher's name looks like
        if budget is not None and not (isinstance(budget, int | float) and _budget_ok(budget)):
            raise ValueError(f"teacher_budget_usd must be a number of USD, 0 or more, got {budget!r}")
        if effort is not None and not isinstance(effort, str):
            raise ValueError(f"teacher_effort must be a reasoning effort such as 'high', got {effort!r}")
        settings = TeacherSettings(name, None if budget is None else float(budget), effort)
        return cls(settings, student_run_id, base_url)

    # -- calls -----------------------------------------------------------------------------------

    def chat(self, messages: Sequence[Mapping[str, str]], instance: str) -> str | None:
        """Ask the teacher once, counted under ``instance``: its reply, ``None`` once its calls there are out.

        Raises:
            TeacherBudgetReached: the teacher has spent ``budget_usd``.
            ModelRefusedError: the proxy or the endpoint refused the call outright.
            ModelCallError: the call failed after the client's retries.
        """
        self.check_budget()
        return self.session.chat(messages, self._key(instance))

    def base_url_for(self, instance: str) -> str:
        """The OpenAI base a harness the teacher drives is given: the proxy, marked with the teacher's run."""
        return marked_base_url(self.base_url, self.run_id, self._key(instance))

    def begin(self, instance: str) -> None:
        """Note the proxy's counts of ``instance`` before the teacher's harness starts on it.

        Raises:
            TeacherBudgetReached: the teacher has spent ``budget_usd``.
            ProxyCountsError: the proxy could not be read.
        """
        self.check_budget()
        self._open[instance] = self._read(self._key(instance))

    def settle(self, instance: str) -> dict[str, float]:
        """The teacher's counts on ``instance`` since `begin`, added to its totals (zeros if never begun).

        Raises:
            ProxyCountsError: the proxy could not be read.
        """
        base = self._open.pop(instance, None)
        if base is None:
            return zero()
        counts = minus(self._read(self._key(instance)), base)
        self._harness = add_counts(self._harness, counts)
        return counts

    def played_uncharged(self) -> None:
        """Count one instance the teacher played itself with nothing charged (the run is an experiment)."""
        self._uncharged += 1

    # -- the run ---------------------------------------------------------------------------------

    def join_run(self, student_run_id: str) -> None:
        """Take the student's run name with ``-teacher`` appended, unless the teacher names its own.

        Called before any call of the run (the learner's ``join_run``), so that a resumed run's
        teacher spends under the same run name, against the same cap, as before it was stopped.
        """
        if self._named:
            return
        self.run_id = f"{student_run_id}-teacher"
        # What ModelSession.join_run does for a session that names no run of its own.
        self.session.run_id = self.run_id
        self.session.client.run_id = self.run_id

    def end_round(self) -> None:
        """Settle the round's calls made through `chat`, then stop the run if the teacher's budget is spent.

        Raises:
            TeacherBudgetReached: the teacher has spent ``budget_usd``.
            ModelRefusedError: a call of the teacher was refused outright this round.
            ProxyCountsError: the proxy's counts could not be read.
        """
        self.session.end_round()
        self.session.begin_round()
        self.check_budget()

    def spent(self) -> float:
        """USD the teacher has spent in the run so far, as the proxy counts its run (calls in flight too).

        Raises:
            ProxyCountsError: the proxy could not be read.
        """
        counted = self.resources()["cost"]
        if self.session.counted_by == "client":
            return counted
        return max(self._read(None)["cost"], counted)

    def check_budget(self) -> None:
        """Stop the run if the teacher has spent its ``budget_usd``.

        Raises:
            TeacherBudgetReached: it has.
            ProxyCountsError: the proxy could not be read.
        """
        cap = self.settings.budget_usd
        if cap is None:
            return
        spent = self.spent()
        if spent >= cap:
            raise TeacherBudgetReached(
                f"the teacher {self.model} has spent {spent:.6f} USD of its budget of {cap:g} USD "
                "(teacher_budget_usd)"
            )

    def resources(self) -> dict[str, float]:
        """Its cumulative counters, for ``teacher_resources``: the one account of what the teacher cost.

        Keyed as [TEACHER_COUNTERS][continual_arc.core.teacher.TEACHER_COUNTERS]; what the calls
        through `chat` and the harness plays between `begin` and `settle` cost, since this process
        started or since the records `resume` continued from.
        """
        counts = add_counts(add_counts(self._carried, self.session.totals()), self._harness)
        shown = {key: float(counts.get(key, 0.0)) for key in TEACHER_COUNTERS}
        shown["uncharged_plays"] = float(self._uncharged) + self._carried.get("uncharged_plays", 0.0)
        return shown

    def resume(self, records: Sequence[Mapping[str, object]]) -> None:
        """Continue a resumed run: the counters from the last committed record's ``teacher_resources``.

        The proxy is told the teacher's spend so far, so that its cap continues too.

        Raises:
            ProxyCountsError: the proxy could not be told.
        """
        last: object = records[-1].get("teacher_resources") if records else None
        carried: dict[str, float] = {}
        if isinstance(last, Mapping):
            carried = {str(k): float(v) for k, v in last.items() if isinstance(v, int | float)}
        plays = carried.get("uncharged_plays", 0.0)
        self._carried = {**add_counts(zero(), carried), "uncharged_plays": plays}
        self._harness, self._uncharged = zero(), 0
        if records and self.session.counted_by == "proxy":
            carry_spend(self._http, self.base_url, self.run_id, self._carried)

    def close(self) -> None:
        """Release the HTTP connections."""
        self.session.close()
        self._http.close()

    # -- inside ----------------------------------------------------------------------------------

    def _key(self, instance: str) -> str:
        return f"teacher/{instance}"

    def _read(self, instance: str | None) -> dict[str, float]:
        url = usage_url(self.base_url)
        params = {"run": self.run_id} if instance is None else {"run": self.run_id, "instance": instance}
        try:
            reply = self._http.get(url, params=params)
            reply.raise_for_status()
            return from_proxy(reply.json())
        except (httpx.HTTPError, ValueError) as error:
            raise ProxyCountsError(
                f"cannot read the tracking proxy's counts of the teacher at {url} "
                f"({type(error).__name__}: {error}); a teacher is reached only through the proxy"
            ) from error
