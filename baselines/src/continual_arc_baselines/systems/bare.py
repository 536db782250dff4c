"""The bare model: a model answering each instance on its own, keeping nothing and testing nothing.

On each instance [`BareModelLearner`][continual_arc_baselines.systems.bare.BareModelLearner]

1. buys ``demos`` demonstrations (3 by default; fewer if the instance offers fewer);
2. opens one conversation with the model (`bare_messages`:
   the rules, the demonstrations, the test input) and submits the grid it answers;
3. after a wrong answer, gives the verdict as the next message of the same conversation
   (`bare_verdict`) and submits the next answer, until one
   is right or the attempt cap ends the instance; a reply with no readable grid is told so and
   asked again;
4. gives up once the instance's ``max_calls`` are spent.

A game level (arc3) it plays through `GamePlayer`, as the
floors and the model library do: ``demos`` demonstrations, then one call per action.

It is the reference every result is shown beside: what the model does with the instance alone.

**How it differs from the stateless floor**
([`StatelessFloor`][continual_arc_baselines.learners.StatelessFloor]). Both keep nothing between instances,
and neither can test an answer against the demonstrations (an answer is a grid, not a program). The floor is
the program library's policy with a direct-answer writer: after a wrong answer it buys one more demonstration,
while the instance has any, and asks the model afresh in a new prompt listing every demonstration held and
every answer judged wrong; it never submits an answer already judged wrong; and after a wrong answer with no
demonstration left to buy, it gives up. The bare model buys its demonstrations once, at the start,
and never another; keeps one conversation, in which each verdict arrives as a reply; submits
whatever grid the model answers, a repeated wrong one included; and goes on answering up to the
attempt cap.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from continual_arc.env import (
    Action,
    Feedback,
    GiveUp,
    LearnerObservation,
    RequestDemos,
    Submit,
    SubmitFeedback,
)

from .. import prompts
from ..base import GridBase
from ..game_play import GamePlayer, game_level
from ..json_types import JSONObject, grid_json
from ..library.model_session import ModelSession, ModelSettings
from ..library.session_reports import SessionReports

__all__ = ["BareModelLearner"]


@dataclass
class _Talk:
    """One instance's conversation with the model."""

    key: str
    messages: list[dict[str, str]] = field(default_factory=list)
    answers: list[JSONObject] = field(default_factory=list)


class BareModelLearner(SessionReports, GridBase):
    """The model answering each instance on its own (see the module docstring).

    Args:
        model: the model id, as the endpoint names it.
        demos: demonstrations to buy before the first answer.
        **options: any field of `ModelSettings`
            (``effort``, ``base_url``, ``api_key_env``, ``run_id``, ``proxy_counts``, ``timeout``,
            ``max_retries``, ``max_tokens``, ``temperature``, ``stream``, ``max_calls``,
            ``instance_time_limit``; the
            program and ``tries`` settings are not used).

    Raises:
        TypeError: an unknown keyword.
        ValueError: a setting out of range, or ``api_key_env`` naming an unset variable.
    """

    stateless = True
    concurrent_users = False

    # Any: the options are ModelSettings' fields, checked by it at once (see ModelLibraryLearner).
    def __init__(self, model: str, demos: int = 3, **options: Any) -> None:
        if demos < 0:
            raise ValueError(f"demos must be at least 0, got {demos}")
        super().__init__()
        self.settings = ModelSettings(model=model, **options)
        self.session = ModelSession(self.settings, "bare")
        self.demos = demos
        self._talks: dict[int, _Talk] = {}  # open instances, by step
        self._keys: dict[int, str] = {}
        self.games = GamePlayer(self.session, demos)

    def begin_round(self) -> None:
        """Start a round: the last round's logs, transcripts and counts are stored by now."""
        super().begin_round()
        self.session.begin_round()
        self._keys.clear()

    def act(self, obs: LearnerObservation) -> Action:
        """Buy the demonstrations, then submit the model's next answer."""
        key = f"{obs.task_id}/{obs.step}/{obs.user}"
        self._keys[obs.user] = key
        if (level := game_level(obs)) is not None:
            # The protocol types actions as a grid's; a game level's environment takes GameAction.
            return self.games.act(level, key)  # type: ignore[return-value]
        talk = self._talks.setdefault(obs.step, _Talk(key))
        if not talk.messages and obs.demos_used < min(self.demos, obs.demo_cap):
            return RequestDemos()
        if not talk.messages:
            talk.messages = prompts.bare_messages(obs.demos, obs.input, obs.attempt_cap)
        while (reply := self.session.chat(talk.messages, key)) is not None:
            talk.messages.append({"role": "assistant", "content": reply})
            grid = prompts.parse_grid(reply)
            if grid is not None:
                talk.answers.append({"grid": grid_json(grid)})
                return Submit(grid)
            talk.answers.append({"grid": None})
            talk.messages.append({"role": "user", "content": prompts.answer_unreadable()})
        return GiveUp()

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """Give a wrong answer's verdict to the model; close the instance when it ends."""
        if (level := game_level(obs)) is not None:
            log = self.games.observe(level, action, feedback)
            if log is not None:
                self._logs[obs.user] = log
            return
        talk = self._talks.get(obs.step)
        if talk is None:
            return
        if isinstance(feedback, SubmitFeedback) and talk.answers:
            talk.answers[-1]["correct"] = feedback.correct
            if not feedback.correct and not feedback.done:
                left = obs.attempt_cap - feedback.attempts_used
                verdict = prompts.bare_verdict(feedback.invalid, left)
                talk.messages.append({"role": "user", "content": verdict})
        if feedback.done:
            del self._talks[obs.step]
            self._logs[obs.user] = {"demos": obs.demos_used, "answers": list(talk.answers)}

    def end_round(self) -> None:
        """Settle each instance's counts (nothing is kept), and stop on a refusal.

        Raises:
            ModelRefusedError: the endpoint refused a call outright this round: the run stops.
            ProxyCountsError: the proxy's counts could not be read.
        """
        self._talks.clear()  # an instance a fault left open is over too
        self.games.close_all()
        self.session.end_round(self._keys.values())

    def resources(self) -> Mapping[str, float]:
        """The cumulative calls, tokens and cost of every instance played."""
        return self.session.totals()

    def instance_log(self, user: int) -> JSONObject | None:
        """The instance's answers, messages and counts, for its trajectory."""
        return self._session_log(user, self._logs.get(user, {}))
