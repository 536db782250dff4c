"""The program-library learner: write programs that fit the demonstrations, keep the one that worked.

On each instance it

1. runs the program it keeps for the task, if any, and submits its output (free if right);
2. buys demonstrations until it holds ``initial_demos`` (counting any it kept for the task); a
   learner that learns across tasks (``learn_prior``) searches at two already, and answers then
   when every fitting program agrees and what it learnt vouches for the answer (see
   ``_answers_early``);
3. asks its writer for programs that reproduce every demonstration held, groups them by their
   prediction on the test input, and submits the best group's (the simplest program's);
4. buys another demonstration when the groups disagree or an answer was wrong, and writes again;
5. with no demonstration left to buy, submits the remaining groups' predictions in order (an
   unsolved instance costs the whole budget however it failed, so these guesses are free unless
   one is right), and gives up when none is left.

What it keeps between instances (``keep``) makes the variants: ``programs`` (the library: per
task, the program that answered correctly, run first when the task returns), ``demos`` (the
demo-cache floor: per task, the demonstrations bought, shown to the writer again), ``both``, or
``nothing`` (its own reset). With ``learn_prior`` it also keeps a prior over programs
(`dsl.Prior`): the skeletons of the programs its search wrote that answered right, which
make their steps and runs of steps cheaper in later searches, on any task, met or not.
[`PriorLibraryLearner`][continual_arc_baselines.library.learner.PriorLibraryLearner] keeps programs and the
prior; [`PriorOnlyLearner`][continual_arc_baselines.library.learner.PriorOnlyLearner] keeps only the prior,
which isolates what transfers from what is remembered per task. What an instance teaches is folded in at
``end_round`` only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TypedDict

from typing_extensions import Unpack

from continual_arc.env import (
    Action,
    DemosFeedback,
    Feedback,
    GiveUp,
    LearnerObservation,
    RequestDemos,
    Submit,
    SubmitFeedback,
)
from continual_arc.grids import Grid, Pair, from_json

from ..base import GridBase, read_state, write_state
from ..dsl import Prior
from ..dsl.ops import DEFAULT
from ..dsl.prior import skeleton
from ..grids_only import grid_only
from ..json_types import JSONObject, JSONValue, json_object
from .carry import last_resources
from .dsl_writer import DslWriter
from .memory import EarlyAnswers, LibraryMemory, Notes
from .writer import ProgramWriter, WriteRequest, group_by_prediction

__all__ = [
    "KEEPS",
    "TRUST_DEMOS",
    "LibraryMemory",
    "PriorLibraryLearner",
    "PriorOnlyLearner",
    "ProgramLibraryLearner",
]

KEEPS = ("programs", "demos", "both", "nothing")
"""What the learner may keep between instances."""

TRUST_DEMOS = 2
"""The demonstrations a learner that learns across tasks may answer from (``_answers_early``)."""

MAX_KEPT_DEMOS = 16
"""Demonstrations kept per task by the demo-cache variants (the oldest are dropped)."""

_STATE_FILE = "library.json"


class LibraryKnobs(TypedDict, total=False):
    """The keywords of the program library, as a variant passes them on.

    See [`ProgramLibraryLearner`][continual_arc_baselines.library.learner.ProgramLibraryLearner].
    """

    keep: str
    initial_demos: int
    writer: ProgramWriter | None
    budget: int | None
    learn_prior: bool
    trust: bool
    search_cache: bool
    cache_dir: str | None
    catalogue: str


class ProgramLibraryLearner(GridBase):
    """Keeps one tested program per task and runs it first when the task returns.

    Args:
        keep: ``programs`` (default), ``demos``, ``both`` or ``nothing``.
        initial_demos: demonstrations to hold before the first write.
        writer: the program writer; by default the model-free DSL search.
        budget: the DSL search's budget in primitive applications (default writer only).
        learn_prior: also keep a prior over programs, learnt from the programs that answered
            right (default writer only).
        trust: with ``learn_prior``, answer from `TRUST_DEMOS` demonstrations when every
            fitting program agrees and what was learnt vouches for the answer.
        search_cache: whether the DSL writer serves repeated searches from the search cache
            (changes no result and no record, only the time).
        cache_dir: where that cache lives (default: ``search-cache/`` in the data directory).
        catalogue: the steps the DSL search may take (default writer only): ``wide`` (the
            default, every stored run's) or ``core``, the first families only.
    """

    stateless_when: tuple[tuple[str, object], ...] | None = (("keep", "nothing"), ("learn_prior", False))
    concurrent_users = False

    def __init__(
        self,
        keep: str = "programs",
        initial_demos: int = 3,
        writer: ProgramWriter | None = None,
        budget: int | None = None,
        learn_prior: bool = False,
        trust: bool = True,
        search_cache: bool = True,
        cache_dir: str | None = None,
        catalogue: str = DEFAULT.name,
    ) -> None:
        super().__init__()
        if keep not in KEEPS:
            raise ValueError(f"keep must be one of {', '.join(KEEPS)}, got {keep!r}")
        if writer is None:
            writer = DslWriter(budget=budget, cache=search_cache, cache_dir=cache_dir, catalogue=catalogue)
        if learn_prior and not hasattr(writer, "prior"):
            raise ValueError("learn_prior needs a writer that searches under a prior (the DSL writer)")
        self.keep = keep
        self.learn_prior = learn_prior
        self.trust = trust
        self.stateless = keep == "nothing" and not learn_prior
        self.initial_demos = initial_demos
        self.writer = writer
        self.library = LibraryMemory()
        self.prior = Prior.empty()
        self.early = EarlyAnswers()
        self._open: dict[int, Notes] = {}
        self._done: list[Notes] = []

    # -- the protocol ---------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every kept program and demonstration, and the prior."""
        self.library = LibraryMemory()
        self._set_prior(Prior.empty())
        self.early = EarlyAnswers()

    def act(self, obs: LearnerObservation) -> Action:
        """The next action on the instance (see the module docstring for the policy).

        Raises:
            NotImplementedError: ``obs`` is a game level's: the library searches grid programs only.
        """
        obs = grid_only(obs, self)
        note = self._open.get(obs.step) or self._open_instance(obs)
        if self._keeps("programs") and note.kept_program and not note.tried_kept:
            note.tried_kept = True
            answer = self.writer.run(note.kept_program, obs.input, self._key(obs))
            note.log.append({"kept_program": note.kept_program, "ran": answer is not None})
            if answer is not None:
                note.submitted = note.kept_program
                return Submit(answer)
        held = self._held(note, obs)
        if len(held) < self.initial_demos and obs.demos_used < obs.demo_cap:
            if self._answers_early(note, obs, held):
                best = note.groups.pop(0)
                note.submitted = best[0].text
                note.log.append({"early": best[0].text})
                return Submit(best[0].prediction)
            return RequestDemos()
        if note.want_more and obs.demos_used < obs.demo_cap:
            note.want_more = False
            return RequestDemos()
        if note.searched_with != len(held):
            self._write(note, obs, held)
        if len(note.groups) > 1 and obs.demos_used < obs.demo_cap:
            note.searched_with = -1  # the next demonstration decides between them
            return RequestDemos()
        if note.groups:
            best = note.groups.pop(0)
            note.submitted = best[0].text
            return Submit(best[0].prediction)
        return GiveUp()

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """Note the verdict; an instance's lessons wait for ``end_round``."""
        note = self._open[obs.step]
        if isinstance(feedback, SubmitFeedback) and isinstance(action, Submit):
            grid = from_json(action.grid)
            if feedback.correct:
                note.solved_by = note.submitted
                note.answer = grid
            else:
                note.wrong.append(grid)
                note.kept_failed |= note.submitted is not None and note.submitted == note.kept_program
                note.want_more = True  # a wrong answer: the fits were wrong, see another pair
            note.log.append({"submitted": note.submitted, "correct": feedback.correct})
        elif isinstance(feedback, DemosFeedback):
            note.log.append({"demos_used": feedback.demos_used, "refused": feedback.refused})
        if feedback.done:
            self._close(obs, note)

    def end_round(self) -> None:
        """Fold the round's lessons into the memory, in the order the instances were served."""
        done = sorted(self._done, key=lambda n: n.step)
        for note in done:
            self._learn(note)
        if self.learn_prior:
            # Only programs the search wrote on the instance teach the prior: a kept program that
            # answers again says nothing new about what a search should try.
            found = [n.solved_by for n in done if n.solved_by is not None and n.solved_by in n.written]
            if found:
                self._set_prior(self.prior.learn(found))
            # An early answer's outcome is known when the instance was solved or it was judged.
            known = [n for n in done if n.early is not None and (n.answer is not None or n.early in n.wrong)]
            right = sum(n.early == n.answer for n in known)
            self.early = self.early.add(right, len(known) - right)
        self._done.clear()

    def resources(self) -> Mapping[str, float]:
        """The writer's counters, and what the memory holds."""
        state = json.dumps(self.memory())
        counters = {
            **self.writer.resources(),
            "programs_kept": float(len(self.library.programs)),
            "demos_kept": float(sum(len(v) for v in self.library.demos.values())),
            "state_bytes": float(len(state)),
        }
        if self.learn_prior:
            counters["prior_programs"] = float(sum(self.prior.skeletons.values()))
            counters["early_right"] = float(self.early.right)
            counters["early_wrong"] = float(self.early.wrong)
        return counters

    # -- optional hooks the runner uses ----------------------------------------------------------

    def save_state(self, directory: str | Path) -> None:
        """Write the memory as ``library.json``: programs as DSL text, demonstrations as grids, the prior."""
        write_state(
            directory,
            _STATE_FILE,
            {"format": 1, "keep": self.keep, "writer": self.writer.name, **self.memory()},
        )

    def load_state(self, directory: str | Path) -> None:
        """Read the memory written by `save_state`."""
        data = read_state(directory, _STATE_FILE)
        self.library = LibraryMemory.from_json(data)
        self._set_prior(
            Prior.from_json(json_object(data["prior"], "the prior")) if self.learn_prior else Prior.empty()
        )
        self.early = EarlyAnswers.from_json(data["early"]) if self.learn_prior else EarlyAnswers()

    def resume_from(self, records: Sequence[Mapping[str, JSONValue]]) -> None:
        """Continue a resumed run: the writer's counters from the last committed record.

        What the memory holds is back from ``load_state``; the writer's work (searches, model
        calls) is counted nowhere else, so without this a resumed run's cumulative ``resources``
        would start again from zero.
        """
        if records:
            self.writer.resume(last_resources(records))

    def memory(self) -> JSONObject:
        """What it keeps, as JSON (the runner writes it to ``memory.json`` at the end of a run)."""
        kept = self.library.to_json()
        if self.learn_prior:
            kept["prior"] = self.prior.to_json()
            kept["early"] = self.early.to_json()
        return kept

    def search_cache_stats(self) -> dict[str, int]:
        """The DSL writer's searches and how many the search cache served (empty for other writers)."""
        stats = getattr(self.writer, "cache_stats", None)
        return dict(stats()) if callable(stats) else {}

    # -- the policy's parts ----------------------------------------------------------------------

    def _answers_early(self, note: Notes, obs: LearnerObservation, held: list[Pair]) -> bool:
        """Whether to answer from `TRUST_DEMOS` demonstrations rather than buy more.

        Only a learner that learns across tasks searches this early. When every program that fits
        the two demonstrations predicts one grid, that grid is noted (its outcome, once known,
        teaches `EarlyAnswers`), and it is submitted when what was learnt vouches for it:
        the simplest program's skeleton answered right before, or unanimous early answers have
        proved right often enough. A reset, which has learnt nothing, never answers early.
        """
        if not (self.learn_prior and self.trust) or len(held) != TRUST_DEMOS or note.wrong:
            return False
        if note.searched_with != len(held):
            self._write(note, obs, held)
        if len(note.groups) != 1:
            return False
        best = note.groups[0][0]
        note.early = best.prediction
        return self.early.trusted() or " | ".join(skeleton(best.text)) in self.prior.skeletons

    def _set_prior(self, prior: Prior) -> None:
        self.prior = prior
        if self.learn_prior:
            self.writer.prior = prior  # type: ignore[attr-defined]

    def _keeps(self, what: str) -> bool:
        return self.keep in (what, "both")

    def _key(self, obs: LearnerObservation) -> str:
        return f"{obs.task_id}/{obs.step}/{obs.user}"

    def _open_instance(self, obs: LearnerObservation) -> Notes:
        kept = list(self.library.demos.get(obs.task_id, [])) if self._keeps("demos") else []
        program = self.library.programs.get(obs.task_id) if self._keeps("programs") else None
        note = Notes(obs.step, obs.task_id, kept, program)
        note.log.append({"step": obs.step, "kept_demos": len(kept), "kept_program": program is not None})
        self._open[obs.step] = note
        return note

    def _held(self, note: Notes, obs: LearnerObservation) -> list[Pair]:
        """The kept demonstrations, then the bought ones, each input once."""
        seen: set[Grid] = set()
        held = []
        for pair in [*note.kept, *obs.demos]:
            if pair[0] not in seen and pair[0] != obs.input:
                seen.add(pair[0])
                held.append(pair)
        return held

    def _write(self, note: Notes, obs: LearnerObservation, held: list[Pair]) -> None:
        request = WriteRequest(tuple(held), obs.input, self._key(obs), tuple(note.wrong))
        result = self.writer.write(request)
        note.groups = group_by_prediction(result.programs, note.wrong)
        note.searched_with = len(held)
        note.written.update(p.text for p in result.programs)
        served = getattr(self.writer, "last_served", None)
        note.log.append(
            {
                "wrote_with": len(held),
                "programs": [p.text for p in result.programs[:8]],
                "groups": len(note.groups),
                "work": result.work,
                **({"note": result.note} if result.note else {}),
                **({"search_cache": "hit" if served else "miss"} if served is not None else {}),
            }
        )

    def _close(self, obs: LearnerObservation, note: Notes) -> None:
        del self._open[obs.step]
        if self._keeps("demos"):
            note.kept = self._held(note, obs)
        self._done.append(note)
        self._logs[obs.user] = {"events": note.log, "solved_by": note.solved_by}

    def _learn(self, note: Notes) -> None:
        if self._keeps("programs"):
            if note.solved_by is not None:
                self.library.programs[note.alias] = note.solved_by
            elif note.kept_failed:
                self.library.programs.pop(note.alias, None)
        if self._keeps("demos") and note.kept:
            self.library.demos[note.alias] = note.kept[-MAX_KEPT_DEMOS:]


class PriorLibraryLearner(ProgramLibraryLearner):
    """The program library that also learns a prior over programs across tasks.

    It keeps one program per task, as the library does, and the prior learnt from every program
    its search wrote that answered right, so that it also searches better on tasks it never met.
    Keywords as [`ProgramLibraryLearner`][continual_arc_baselines.library.learner.ProgramLibraryLearner], but
    ``keep`` is ``programs`` and ``learn_prior`` is on.
    """

    stateless_when: tuple[tuple[str, object], ...] | None = None

    def __init__(self, **kwargs: Unpack[LibraryKnobs]) -> None:
        kwargs.setdefault("keep", "programs")
        kwargs["learn_prior"] = True
        super().__init__(**kwargs)


class PriorOnlyLearner(ProgramLibraryLearner):
    """A learner that keeps only the prior over programs: no program, no demonstration per task.

    What it saves over its reset is what transfers across tasks, apart from what a per-task memory
    would remember. Keywords as
    [`ProgramLibraryLearner`][continual_arc_baselines.library.learner.ProgramLibraryLearner], with ``keep``
    ``nothing`` and ``learn_prior`` on.
    """

    stateless_when: tuple[tuple[str, object], ...] | None = None

    def __init__(self, **kwargs: Unpack[LibraryKnobs]) -> None:
        kwargs["keep"] = "nothing"
        kwargs["learn_prior"] = True
        super().__init__(**kwargs)
