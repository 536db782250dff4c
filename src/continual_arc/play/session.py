"""One call to [`run`][continual_arc.play.runner.run]: its state, and the round played top to bottom.

[`RunSession.play_round`][continual_arc.play.session.RunSession.play_round] is the whole of a round:
``reset()`` if the round's slots ask for it, ``begin_round()``, every slot served (one action at a time in
turn, or a thread per user for a concurrent learner), the auxiliary episodes plug-ins asked for,
``end_round()``, then the round committed. Each instance is an
[`EpisodePlay`][continual_arc.play.episode.EpisodePlay], opened through the track's environment, so nothing
here knows whether it serves grids or games.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..core.environment import AnyEnvironment
from ..core.errors import SpendCapReached
from ..core.records import Record
from ..stream.schedule import Schedule
from ..stream.slots import Slot
from .aliases import Aliases, read_or_create_salt
from .auxiliary import AuxiliaryLedger
from .commit import Committer
from .episode import AnyEpisode, EpisodePlay, guarded
from .instance_record import instance_record
from .learner import AnyLearner, SavesState, TeacherPlaysFirst, saves_state
from .options import ProgressTally, RunOptions
from .plugin_manager import PluginManager, PluginTrace
from .plugins import MAX_EPISODES_PER_ROUND, Episode, PluginError
from .rundir import RunDirError
from .uncharged import UnchargedCopy

__all__ = ["RunSession", "saves_state"]


class RunSession:
    """The state of one call to ``run``: the learner, the schedule, the run directory and what was played.

    Args:
        learner: the learner.
        schedule: the schedule played.
        out: the run directory.
        hooks: the plug-ins, composed.
        options: how to run (the time limit, fail-fast and the names the learner sees are read here).
    """

    def __init__(
        self,
        learner: AnyLearner,
        schedule: Schedule,
        out: Path,
        hooks: PluginManager,
        options: RunOptions,
    ) -> None:
        self.learner, self.schedule, self.out, self.hooks = learner, schedule, out, hooks
        self.time_limit, self.fail_fast = options.instance_time_limit, options.fail_fast
        self.track = schedule.track  # resolved once, where the schedule was built or read
        if dict(schedule.meta["sources"]) != self.track.sources:
            raise RunDirError(
                f"the schedule names the sources {dict(schedule.meta['sources'])}, but track "
                f"{self.track.name} serves {self.track.sources}"
            )
        self.settings = schedule.config.env
        self.aliases = Aliases(read_or_create_salt(out), options.alias_style)
        self.aliases.check_unique(sorted({s.task_id for s in schedule.slots}))
        self.saves_state = saves_state(learner)
        self.records: list[Record] = []
        self.tally = ProgressTally()  # what progress reports count, kept up round by round
        self.run_trace = PluginTrace()
        self.auxiliary = AuxiliaryLedger(schedule)
        self.width = max((len(g) for g in schedule.round_slots()), default=1)
        self.committer = Committer(
            out, learner if isinstance(learner, SavesState) and self.saves_state else None
        )

    def play_round(self, slots: Sequence[Slot], pool: ThreadPoolExecutor | None) -> None:
        """Play one round of the schedule and commit it."""
        began = time.monotonic()
        if len({slot.reset_before for slot in slots}) > 1:
            raise RunDirError(f"round {slots[0].round} marks some slots reset_before and not others")
        if slots[0].reset_before:
            guarded(self.learner, "reset")
        guarded(self.learner, "begin_round")
        played = [self._open(Episode.of_slot(slot, self.aliases.alias(slot.task_id))) for slot in slots]
        if isinstance(self.learner, TeacherPlaysFirst):  # an experiment: the teacher plays each copy first
            for play in played:
                self._teacher_first(play, self.learner)
        if pool is not None:
            self._serve_concurrently(played, pool)
        else:
            self._serve_serially(played)
        extra = self._play_auxiliary(slots[0].round)
        guarded(self.learner, "end_round")
        finished = [instance_record(play, self.learner) for play in played + extra]
        records = [record for record, _ in finished]
        elapsed = round(time.monotonic() - began, 6)
        for record in records:
            record["round_time"] = elapsed  # instances overlap: the run's time is the sum over rounds
            if extra:  # lets a resumed run tell a whole round from one cut after its primary records
                record["round_addons"] = len(extra)
        self.committer.commit(slots[0].round, records, [trajectory for _, trajectory in finished])
        self.records.extend(records)

    def _environment(self, episode: Episode) -> AnyEnvironment:
        exposure = episode.slot.user_exposure_index if episode.slot is not None else 0
        env: AnyEnvironment = self.track.open(
            episode.phase, episode.task_id, episode.seed, self.settings, exposure
        )
        return env

    def _open(self, episode: Episode) -> AnyEpisode:
        return EpisodePlay(episode, self._environment(episode), self.time_limit, self.fail_fast, self.hooks)

    def _teacher_first(self, play: AnyEpisode, learner: TeacherPlaysFirst) -> None:
        """Hand the learner an uncharged copy of the instance (the same task, seed and rules) to play first.

        The instance's record is marked an experiment whatever the learner does with it; a fault
        in the teacher's play is kept with the copy's play and the student plays on. The spend cap
        still stops the run.
        """
        ep = play.episode
        copy: UnchargedCopy[object, object, object] = UnchargedCopy(
            self._environment(ep), ep.alias, ep.step, ep.round, ep.user
        )
        play.uncharged = copy
        try:
            learner.teacher_play(copy)
        except SpendCapReached:
            raise
        except Exception as err:  # the teacher's fault, not the instance's: kept beside its play
            copy.fault = f"{type(err).__name__}: {err}"

    def _serve_serially(self, played: list[AnyEpisode]) -> None:
        """Each instance still open gets its next action before any of them gets a further one."""
        for play in played:
            play.open()
        still_open = list(played)
        while still_open:
            for play in list(still_open):
                play.advance(self.learner)
                if play.env.done:
                    still_open.remove(play)

    def _serve_concurrently(self, played: list[AnyEpisode], pool: ThreadPoolExecutor) -> None:
        futures = [pool.submit(play.play, self.learner) for play in played]
        for future in futures:
            future.result()  # re-raises a fatal fault (fail-fast, the harness's) in this thread

    def _play_auxiliary(self, round_: int) -> list[AnyEpisode]:
        """Play the auxiliary episodes asked for, one at a time, until none is left or a plug-in stops."""
        played: list[AnyEpisode] = []
        while self.hooks.stop_by is None and (request := self.hooks.take_pending()) is not None:
            if self.width > 1:
                raise PluginError(
                    f"plug-in {request.plugin} asked for an auxiliary episode, but this schedule serves "
                    f"{self.width} users a round: auxiliary episodes need a one-user schedule"
                )
            if len(played) >= MAX_EPISODES_PER_ROUND:
                raise PluginError(
                    f"round {round_} asked for more than {MAX_EPISODES_PER_ROUND} auxiliary episodes"
                )
            alias = self.aliases.alias(request.task_id)
            play = self._open(self.auxiliary.next_episode(request, round_, alias))
            play.play(self.learner)
            played.append(play)
        self.hooks.pending.clear()  # a stop drops what is still queued
        return played
