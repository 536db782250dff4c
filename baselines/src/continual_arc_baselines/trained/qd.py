"""QD: the trained learner whose adapters learn to make a teacher's move in every state the student met.

[`QDLearner`][continual_arc_baselines.trained.qd.QDLearner] plays exactly as the
[trained learner][continual_arc_baselines.trained.learner.TrainedLearner] does (the bare model's
prompts, calls and counts, on weights it holds in its own process). What changes is what it learns
from, DAgger-style:

1. at every state the student meets (each time it is about to be asked for an answer on a grid
   instance, or for an action on a game level) the teacher is asked for its move in that state
   ([`ask_move`][continual_arc_baselines.trained.moves.ask_move]), reading the page of playing rules
   first; the student then answers as it would have, so the states are the student's own, never
   the teacher's;
2. each (state, teacher's move) pair is kept, the state as the student's messages and the move as
   the student's reply would write it;
3. in ``end_round`` the adapters train on the pairs: this round's, and the earlier rounds' too
   (``replay``: ``None``, the default, trains on every pair collected so far, DAgger's aggregate
   data set; a number keeps only that many of the most recent earlier pairs, and ``0`` trains on
   the new pairs alone, the online-gradient form of DAgger, whose cost does not grow).

It trains on the teacher's labels **instead of** the trained learner's own round examples (its
demonstrations bought and answers verified right), so that the row measures what the teacher passes
on and nothing else; ``own_examples=True`` adds them beside the teacher's.

The teacher is the one client every taught learner uses, [Teacher][continual_arc_baselines.teacher.Teacher]:
reached through a tracking proxy (``teacher_base_url``, by default the proxy on its default port)
under the student's run id with ``-teacher`` appended, so the proxy counts and caps it apart from the
student. Its calls, tokens and cost are training compute, kept in one place only:
``teacher_resources()`` (every record's ``teacher_resources``), which ``report`` shows once, as the
teacher's line; ``training_resources()`` holds the adapters' own (device-seconds, tokens trained).
A refusal of the teacher (its spend cap or ``teacher_budget_usd`` reached, a model the proxy does not
serve) stops the run at the end of the round, as the student's own does.

``save_state`` writes the adapters and optimizer (as the trained learner does), the pairs collected
(``pairs.jsonl``) and the labels counted (``qd.json``), so a resumed run continues the same data set;
the teacher's counters continue from the resumed run's records (``resume_from``), as every taught
learner's do. ``reset()`` returns to the base weights and forgets the pairs (the teacher's counts
stay: compute spent is spent).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from continual_arc.env import Action, LearnerObservation

from ..game_play import GamePlayer, game_level
from ..json_types import JSONObject, JSONValue
from ..library.model_session import ModelSession, ModelSettings, default_base_url
from ..prompts import Message
from ..systems.bare import BareModelLearner
from ..teacher import Teacher, TeacherSettings
from .learner import TrainedLearner, round_examples
from .lora import Example
from .moves import Kind, State, ask_move

__all__ = ["Pair", "QDLearner"]

_PAIRS, _LABELS = "pairs.jsonl", "qd.json"


@dataclass(frozen=True)
class Pair:
    """A state the student met and the teacher's move in it (the student's reply to learn).

    Attributes:
        kind: ``grid`` or ``game``. instance: the instance's key.
        messages: the student's messages at the state. move: the teacher's move, as the student
            writes a reply.
    """

    kind: Kind
    instance: str
    messages: tuple[Message, ...]
    move: str

    def example(self) -> Example:
        """The pair as a training example."""
        return Example(self.messages, self.move)

    def to_json(self) -> dict[str, object]:
        """The pair as one JSON object (a line of ``pairs.jsonl``)."""
        return {
            "kind": self.kind,
            "instance": self.instance,
            "messages": [dict(m) for m in self.messages],
            "move": self.move,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Pair:
        """Read what `to_json` wrote.

        Raises:
            ValueError: ``data`` is not a pair as `to_json` writes one.
        """
        listed = data.get("messages")
        if not isinstance(listed, list) or not all(isinstance(m, Mapping) for m in listed):
            raise ValueError(f"a pair's messages must be a list of messages, got {listed!r}")
        messages = tuple({"role": str(m["role"]), "content": str(m["content"])} for m in listed)
        kind: Kind = "game" if data["kind"] == "game" else "grid"
        return cls(kind, str(data["instance"]), messages, str(data["move"]))


class _AskingSession(ModelSession):
    """The student's session, which has the teacher label each state before the student answers it."""

    def __init__(self, settings: ModelSettings, learner: QDLearner) -> None:
        super().__init__(settings, "qd")
        self._learner = learner

    def chat(self, messages: Sequence[Mapping[str, str]], instance: str) -> str | None:
        """Ask the teacher for its move in this state, then the student (see `ModelSession.chat`)."""
        if self.fatal is None and self.calls_left(instance) > 0:  # a state the student does meet
            self._learner.label(messages, instance)
        return super().chat(messages, instance)


class QDLearner(TrainedLearner):
    """The trained learner imitating a teacher in the states it met (see the module docstring).

    Args:
        model: the student's name (``org/name@commit`` or ``local/<folder>@sha256:<hex>``).
        teacher: the teacher model, as its endpoint names it (an OpenRouter id ``org/name``, or
            open weights served under ``org/name@commit``).
        weights: the folder of a ``local/`` student.
        demos: demonstrations bought before the first answer.
        teacher_base_url: the teacher's tracking proxy (its OpenAI base); by default
            ``$CONTINUAL_ARC_PROXY``, else the proxy's default port.
        teacher_budget_usd: USD the teacher may spend over the run (``None``: no cap of its own).
        teacher_effort: the teacher's reasoning effort.
        teacher_options: further settings of the teacher's calls
            ([TeacherSettings][continual_arc_baselines.teacher.TeacherSettings]' ``calls``:
            ``max_tokens``, ``max_retries``, ``run_id``, ``max_calls``, ...); its ``max_calls``
            defaults to the student's, one teacher call for each student call.
        replay: earlier pairs trained on beside each round's new ones (``None``: all of them).
        own_examples: train on the trained learner's own round examples too.
        **options: the trained learner's (the adapters' settings, ``serve_port``, ``max_tokens``,
            ``max_calls``, ``base_url``, ...).

    Raises:
        ModelNotFound: the student's weights are not on this machine, or do not match ``model``.
        ValueError: a setting out of range, a teacher that names no published model, or a
            teacher's option that does not exist.
    """

    def __init__(
        self,
        model: str,
        teacher: str,
        weights: str | None = None,
        demos: int = 3,
        teacher_base_url: str | None = None,
        teacher_budget_usd: float | None = None,
        teacher_effort: str | None = None,
        teacher_options: Mapping[str, object] | None = None,
        replay: int | None = None,
        own_examples: bool = False,
        **options: object,
    ) -> None:
        if replay is not None and replay < 0:
            raise ValueError(f"replay must be at least 0 (or null for every pair), got {replay}")
        super().__init__(model, weights, demos, **options)
        calls = {"max_calls": self.settings.max_calls, **(teacher_options or {})}
        # The bare model's session, replaced by one that asks the teacher at every state.
        self.session.close()
        self.session = _AskingSession(self.settings, self)
        self.games = GamePlayer(self.session, demos)
        try:
            settings = TeacherSettings(teacher, teacher_budget_usd, teacher_effort, calls)
            self.teacher = Teacher(settings, self.session.run_id, teacher_base_url or default_base_url())
        except (TypeError, ValueError):
            super().close()  # the student's weights, server and proxy are up by now: let them go
            raise
        self.replay = replay
        self.own_examples = own_examples
        self._kind: Kind = "grid"
        self._pairs: list[Pair] = []  # every earlier round's, the data set trained on
        self._round: list[Pair] = []  # this round's, trained on at its end
        self._moves: dict[str, list[str]] = {}  # this round's moves by instance, for its log
        self.labels = 0  # the teacher's replies that gave a move, over the learner's life
        self.unreadable = 0  # its replies in which no move could be read

    def label(self, messages: Sequence[Mapping[str, str]], instance: str) -> None:
        """Ask the teacher for its move in the state ``messages`` show, and keep the pair if it gave one."""
        shown = tuple({"role": m["role"], "content": m["content"]} for m in messages)
        state = State(self._kind, shown, instance)
        reply, move = ask_move(self.teacher, state)
        if reply is not None and move is None:
            self.unreadable += 1
        if move is not None:
            self.labels += 1
            self._round.append(Pair(state.kind, instance, state.messages, move))
            self._moves.setdefault(instance, []).append(move)

    def join_run(self, run_id: str) -> None:
        """The student's run name after the run directory's id, and the teacher's after the student's."""
        super().join_run(run_id)
        self.teacher.join_run(self.session.run_id)

    def begin_round(self) -> None:
        """Start a round with no pair yet."""
        super().begin_round()
        self._round.clear()
        self._moves.clear()

    def act(self, obs: LearnerObservation) -> Action:
        """The bare model's action, the teacher asked first at each state the student is asked in."""
        self._kind = "game" if game_level(obs) is not None else "grid"
        return super().act(obs)

    def end_round(self) -> None:
        """Settle the student's and the teacher's counts, then train on the pairs (see the module docstring).

        Raises:
            ModelRefusedError: the student's or the teacher's endpoint refused a call outright.
            TeacherBudgetReached: the teacher has spent ``teacher_budget_usd``.
            ProxyCountsError: a proxy's counts could not be read.
        """
        BareModelLearner.end_round(self)  # the student's counts; its training is this class's own
        self.teacher.end_round()
        kept = len(self._pairs) if self.replay is None else min(self.replay, len(self._pairs))
        earlier = self._pairs[len(self._pairs) - kept :]
        examples = [p.example() for p in (*earlier, *self._round)]
        if self.own_examples:
            examples += round_examples(self._taught)
        if examples:
            self.adapter.train(examples)
        self._pairs.extend(self._round)
        self._round.clear()
        self._taught.clear()

    def reset(self) -> None:
        """Back to the base weights, with a fresh optimizer and no pair (the teacher's counts stay)."""
        super().reset()
        self._pairs.clear()
        self._round.clear()

    def save_state(self, directory: Path) -> None:
        """Write the adapters, the optimizer, the pairs collected and the labels counted."""
        super().save_state(directory)
        lines = [json.dumps(p.to_json(), sort_keys=True) + "\n" for p in self._pairs]
        (Path(directory) / _PAIRS).write_text("".join(lines), encoding="utf-8")
        labels = {"teacher": self.teacher.model, "labels": self.labels, "unreadable": self.unreadable}
        (Path(directory) / _LABELS).write_text(json.dumps(labels, sort_keys=True), encoding="utf-8")

    def load_state(self, directory: Path) -> None:
        """Read what `save_state` wrote."""
        super().load_state(directory)
        lines = (Path(directory) / _PAIRS).read_text(encoding="utf-8").splitlines()
        self._pairs = [Pair.from_json(json.loads(line)) for line in lines if line]
        saved = json.loads((Path(directory) / _LABELS).read_text(encoding="utf-8"))
        self.labels, self.unreadable = int(saved["labels"]), int(saved["unreadable"])

    def resume_from(self, records: Sequence[Mapping[str, JSONValue]]) -> None:
        """Continue the student's and the teacher's counts, each proxy told what its run spent before.

        Raises:
            ProxyCountsError: a proxy could not be told the run's spend so far.
        """
        super().resume_from(records)
        self.teacher.resume(records)

    def teacher_resources(self) -> Mapping[str, float]:
        """The teacher's counters ([Teacher.resources][continual_arc_baselines.teacher.Teacher.resources]).

        ``uncharged_plays`` is always 0: QD's teacher only labels states the student met.
        """
        return self.teacher.resources()

    def instance_log(self, user: int) -> JSONObject | None:
        """The bare model's log of the instance, with the teacher's moves in its states."""
        log = super().instance_log(user)
        key = self._keys.get(user)
        if log is not None:
            log["teacher"] = {
                "model": self.teacher.model,
                "moves": list[JSONValue](self._moves.get(key, [])) if key is not None else [],
            }
        return log

    def memory(self) -> dict[str, object]:
        """The trained learner's view, with the teacher, the pairs kept and the labels counted."""
        return {
            **super().memory(),
            "teacher": self.teacher.model,
            "pairs": len(self._pairs),
            "labels": self.labels,
            "unreadable_labels": self.unreadable,
        }

    def close(self) -> None:
        """Stop the student's proxy and server, and release the teacher's connections."""
        super().close()
        self.teacher.close()
