"""A learner's teacher model: one object that calls it, counts it apart, and holds it to its own cap.

A learner taught by a stronger model takes three keywords besides its own (`TEACHER_KEYWORDS`):
``teacher`` (the model, an OpenRouter id ``org/name`` or open weights ``org/name@commit``),
``teacher_budget_usd`` (USD the teacher may spend over the run; ``None`` for no cap of its own) and
``teacher_effort`` (its reasoning effort).
[Teacher.from_kwargs][continual_arc_baselines.teacher.Teacher.from_kwargs] takes them out of the
learner's keywords and gives a [Teacher][continual_arc_baselines.teacher.Teacher], or ``None`` when
no teacher is named::

    class MyLearner(BaseLearner):
        def __init__(self, model: str, **kwargs: Any) -> None:
            self.teacher = Teacher.from_kwargs(kwargs, student_run_id="my-run")
            ...

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

The teacher is reached through the same tracking proxy as the student, under a run name of its own
(the student's run id with ``-teacher`` appended), so the proxy counts its calls, tokens and cost
apart from the student's; start the proxy with both models (``--model STUDENT --model TEACHER``) and
it admits exactly those two. Its counters ([TEACHER_COUNTERS][continual_arc.core.teacher.TEACHER_COUNTERS])
are training compute: the runner keeps them in every record as ``teacher_resources``, ``report``
shows them beside the score, and they are never in it.

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
from dataclasses import dataclass
from typing import Any

import httpx

from continual_arc.learner import TEACHER_COUNTERS, SpendCapReached, check_teacher_name

from .library.carry import ProxyCountsError, carry_spend, usage_url
from .library.counts import add_counts, from_proxy, minus, zero
from .library.model_session import ModelSession, ModelSettings, default_base_url
from .proxy.app import marked_base_url

__all__ = ["TEACHER_KEYWORDS", "Teacher", "TeacherBudgetReached", "TeacherSettings"]

TEACHER_KEYWORDS = ("teacher", "teacher_budget_usd", "teacher_effort")
"""The learner keywords a [Teacher][continual_arc_baselines.teacher.Teacher] is built from."""


class TeacherBudgetReached(SpendCapReached):
    """The teacher has spent its own budget (``teacher_budget_usd``): the run stops at the round under way."""


@dataclass(frozen=True)
class TeacherSettings:
    """Which teacher, and what it may spend.

    Attributes:
        model: the teacher model, an OpenRouter id ``org/name`` or open weights ``org/name@commit``.
        budget_usd: USD the teacher may spend over the whole run (its own cap, apart from the
            student's); ``None`` for none besides the proxy's per-run cap.
        effort: the reasoning effort sent with its calls; ``None`` for none.

    Raises:
        ValueError: a model name that is not a published model's, or a negative budget.
    """

    model: str
    budget_usd: float | None = None
    effort: str | None = None

    def __post_init__(self) -> None:
        check_teacher_name(self.model)
        budget = self.budget_usd
        if budget is not None and not (
            isinstance(budget, int | float)
            and not isinstance(budget, bool)
            and math.isfinite(budget)
            and budget >= 0
        ):
            raise ValueError(f"teacher_budget_usd must be a number of USD, 0 or more, got {budget!r}")


class Teacher:
    """A learner's teacher model behind the tracking proxy (see the module docstring for its use).

    Args:
        settings: the teacher and its budget.
        student_run_id: the student's run id at the proxy; the teacher's is it with ``-teacher``.
        base_url: the tracking proxy's OpenAI base (by default the student's default endpoint).
        max_calls: calls the teacher may make on one instance key through `chat`.

    Not thread-safe, like the learners that hold it.
    """

    def __init__(
        self,
        settings: TeacherSettings,
        student_run_id: str,
        base_url: str | None = None,
        max_calls: int = 24,
    ) -> None:
        self.settings = settings
        self.model = settings.model
        self.base_url = base_url or default_base_url()
        self.run_id = f"{student_run_id}-teacher"
        self.session = ModelSession(
            ModelSettings(
                model=settings.model,
                effort=settings.effort,
                base_url=self.base_url,
                run_id=self.run_id,
                max_calls=max_calls,
            ),
            label="teacher",
        )
        self._http = httpx.Client(timeout=30.0)
        self._open: dict[str, dict[str, float]] = {}
        self._harness = zero()
        self._carried = zero()
        self._uncharged = 0

    @classmethod
    def from_kwargs(
        cls, kwargs: dict[str, Any], student_run_id: str, base_url: str | None = None
    ) -> Teacher | None:
        """The teacher ``kwargs`` name, taking `TEACHER_KEYWORDS` out of them; ``None`` if none is named.

        Args:
            kwargs: the learner's keywords; the teacher's are removed (the rest are the learner's own).
            student_run_id: the student's run id at the proxy.
            base_url: the tracking proxy's OpenAI base.

        Raises:
            ValueError: a teacher that names no published model, a bad budget, or a budget or effort
                given without a teacher.
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
        return cls(TeacherSettings(model, budget, effort), student_run_id, base_url)

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

    # -- counts ----------------------------------------------------------------------------------

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
        live = self._read(None)["cost"]
        return max(live, self.resources()["cost"])

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
        """Its cumulative counters, for ``teacher_resources``.

        Keyed as [TEACHER_COUNTERS][continual_arc.core.teacher.TEACHER_COUNTERS].
        """
        counts = add_counts(add_counts(self._carried, self.session.totals()), self._harness)
        shown = {key: float(counts.get(key, 0.0)) for key in TEACHER_COUNTERS}
        shown["uncharged_plays"] = float(self._uncharged) + self._carried.get("uncharged_plays", 0.0)
        return shown

    def resume(self, records: Sequence[Mapping[str, Any]]) -> None:
        """Continue a resumed run: the counters from the last committed record's ``teacher_resources``.

        The proxy is told the teacher's spend so far, so that its cap continues too.

        Raises:
            ProxyCountsError: the proxy could not be told.
        """
        last: Mapping[str, Any] = {}
        if records:
            last = records[-1].get("teacher_resources") or {}
        carried = {str(k): float(v) for k, v in last.items()}
        plays = carried.get("uncharged_plays", 0.0)
        self._carried = {**add_counts(zero(), carried), "uncharged_plays": plays}
        self._harness, self._uncharged = zero(), 0
        if records:
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
