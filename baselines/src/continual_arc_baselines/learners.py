r"""The model-backed learners: the two prompting floors and the model program library.

All three are [`ProgramLibraryLearner`][continual_arc_baselines.library.learner.ProgramLibraryLearner]: the
same policy (buy demonstrations up to ``initial_demos``, write, submit, buy one more after a wrong answer) and
the same memory, with a model writer in place of the DSL search. They differ only in what they keep
between instances and in what the model writes:

============================  ==========  =========================================================
learner                       ``keep``    writer
============================  ==========  =========================================================
[`StatelessFloor`][continual_arc_baselines.learners.StatelessFloor]       nothing     `DirectAnswerWriter`:
the
                                          model answers with the grid
[`DemoCacheFloor`][continual_arc_baselines.learners.DemoCacheFloor]       demos       the same; each task's
demonstrations are kept and shown
                                          again when it returns, never bought twice
[`ModelProgramLibrary`][continual_arc_baselines.learners.ModelProgramLibrary]  programs
`ModelProgramWriter`: the
                                          model writes ``transform(grid)``, kept only if it
                                          reproduces every demonstration; the program that answered
                                          right is kept per task and run first on its return
============================  ==========  =========================================================

Each is built from JSON keywords, so the command line can make one::

    continual-arc run --learner continual_arc_baselines.learners:DemoCacheFloor \
      --learner-kwargs '{"model": "openai/gpt-5-mini", "effort": "low"}' --schedule s.json --out run

The keywords are ``model`` (required), ``initial_demos`` and every field of
`ModelSettings` (``effort``, ``base_url``, ``api_key_env``,
``run_id``, ``proxy_counts``, ``timeout``, ``max_retries``, ``max_tokens``, ``temperature``,
``stream``, ``tries``, ``max_calls``, ``instance_time_limit``, ``program_time_limit``,
``program_memory_mb``).

Besides the protocol each has `instance_resources` (the calls, tokens
and cost of a user's instance that just ended), a cumulative ``resources()``, and an
``instance_log(user)`` holding the instance's messages and those counts for its trajectory, and
``resume_from(records)``, with which a resumed run's counters and spend cap continue from its records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from continual_arc.env import Action, Feedback, LearnerObservation

from .game_play import GamePlayer, game_level
from .json_types import JSONObject, JSONValue
from .library.answer_writer import DirectAnswerWriter
from .library.learner import ProgramLibraryLearner
from .library.model_session import ModelSession, ModelSettings
from .library.model_writer import ModelProgramWriter
from .library.session_reports import SessionReports
from .library.writer import ProgramWriter

__all__ = ["DemoCacheFloor", "ModelLibraryLearner", "ModelProgramLibrary", "StatelessFloor"]


class ModelLibraryLearner(SessionReports, ProgramLibraryLearner):
    """The program-library learner with a model writer; the base of the three learners here.

    Args:
        model: the model id, as the endpoint names it.
        initial_demos: demonstrations to hold before the first call.
        **options: any field of `ModelSettings`.

    Raises:
        TypeError: an unknown keyword.
        ValueError: a setting out of range, or ``api_key_env`` naming an unset variable.
    """

    stateless_when: tuple[tuple[str, object], ...] | None = None
    keeps: ClassVar[str] = "programs"
    label: ClassVar[str] = "model-learner"

    # Any: the options are ModelSettings' fields, checked by it at once; a TypedDict of them for
    # Unpack would be a second declaration of the same sixteen fields, kept in step by hand.
    def __init__(self, model: str, initial_demos: int = 3, **options: Any) -> None:
        self.settings = ModelSettings(model=model, **options)
        self.session = ModelSession(self.settings, self.label)
        super().__init__(keep=self.keeps, initial_demos=initial_demos, writer=self.make_writer())
        self._keys: dict[int, str] = {}
        self.games = GamePlayer(self.session, initial_demos)

    def make_writer(self) -> ProgramWriter:
        """The writer over `session`."""
        return ModelProgramWriter(self.session)

    def begin_round(self) -> None:
        """Start a round: the last round's logs, transcripts and counts are stored by now."""
        super().begin_round()
        self.session.begin_round()
        self._keys.clear()

    def act(self, obs: LearnerObservation) -> Action:
        """The library's policy, or on a game level the model's play; the instance's key is noted."""
        self._keys[obs.user] = self._key(obs)
        if (level := game_level(obs)) is not None:
            # The protocol types actions as a grid's; a game level's environment takes GameAction.
            return self.games.act(level, self._keys[obs.user])  # type: ignore[return-value]
        return super().act(obs)

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """The library's notes, or on a game level the player's (nothing is kept from a level)."""
        if (level := game_level(obs)) is None:
            return super().observe(obs, action, feedback)
        log = self.games.observe(level, action, feedback)
        if log is not None:
            self._logs[obs.user] = log

    def end_round(self) -> None:
        """Fold in the round's lessons, settle each instance's counts, and stop on a refusal.

        Raises:
            ModelRefusedError: the endpoint refused a call outright this round: the run stops.
            ProxyCountsError: the proxy's counts could not be read.
        """
        super().end_round()
        self.games.close_all()
        self.session.end_round(self._keys.values())

    def resume_from(self, records: Sequence[Mapping[str, JSONValue]]) -> None:
        """Continue a resumed run: the model's counts and the writer's from the last committed record.

        Raises:
            ProxyCountsError: the proxy could not be told the run's spend so far.
        """
        SessionReports.resume_from(self, records)
        ProgramLibraryLearner.resume_from(self, records)

    def instance_log(self, user: int) -> JSONObject | None:
        """The library's log of the instance, with its messages and counts."""
        return self._session_log(user, super().instance_log(user) or {})


class StatelessFloor(ModelLibraryLearner):
    """The stateless floor: the model answers each instance afresh from the demonstrations it bought.

    See [`ModelLibraryLearner`][continual_arc_baselines.learners.ModelLibraryLearner] for the arguments.
    """

    stateless_when: tuple[tuple[str, object], ...] | None = ()
    keeps = "nothing"
    label = "stateless-floor"

    def make_writer(self) -> ProgramWriter:
        """The direct-answer writer."""
        return DirectAnswerWriter(self.session)


class DemoCacheFloor(ModelLibraryLearner):
    """The demo-cache floor: keeps each task's demonstrations and shows them again on its return.

    It never pays twice for a demonstration it holds: with ``initial_demos`` kept for a task, a
    returning instance is answered before anything is bought. See
    [`ModelLibraryLearner`][continual_arc_baselines.learners.ModelLibraryLearner] for the arguments.
    """

    keeps = "demos"
    label = "demo-cache-floor"

    def make_writer(self) -> ProgramWriter:
        """The direct-answer writer."""
        return DirectAnswerWriter(self.session)


class ModelProgramLibrary(ModelLibraryLearner):
    """The program library: every answer a model-written program checked free against the demonstrations.

    The program that answered right is kept per task and run first, with no model call, when the
    task returns. See [`ModelLibraryLearner`][continual_arc_baselines.learners.ModelLibraryLearner] for the
    arguments.
    """

    keeps = "programs"
    label = "program-library"
