"""Plug-ins: interventions that hook every step of a run and may add episodes, never touch the score.

A plug-in implements [`Plugin`][continual_arc.play.plugins.Plugin] (or subclasses
[`BasePlugin`][continual_arc.play.plugins.BasePlugin] and overrides what it needs). The runner calls, in this
order::

    on_run_start(run)
      per episode:  on_episode_start(episode)
                    per action:  on_observation -> learner.act -> on_action
                                 -> the environment's step -> on_feedback -> learner.observe
                    on_episode_end(episode, result)
    on_run_end(run)

Every hook may return a [`PluginResponse`][continual_arc.play.plugins.PluginResponse] (or ``None``). Its
``value`` replaces what the hook was handed, and the next plug-in, then the learner or the environment, sees
the replacement: the observation the learner acts on, the action the environment applies, the feedback the
learner observes. The environment keeps the score: it applies the final action and judges it on its own
data, a feedback may be annotated (a subclass with fields of its own) but none of its fields may
change, and the charge of an instance is never handed to a plug-in to change. A response that breaks
these rules raises [`PluginError`][continual_arc.play.plugins.PluginError], which stops the run (see
``docs/DESIGN.md``).

A response may also enqueue [`AuxiliaryEpisode`][continual_arc.play.plugins.AuxiliaryEpisode] s, attach
``metadata`` to the instance's record and trajectory, emit ``metrics`` and ``events``, or ask the run to stop
after the current episode. `PluginManager` composes several plug-ins in order and adapts the older
episode-completion add-ons ([`Addon`][continual_arc.play.plugins.Addon]) on the way in; its runtime is
[`continual_arc.play.plugin_manager`][continual_arc.play.plugin_manager], and two examples are in
[`continual_arc.play.plugin_examples`][continual_arc.play.plugin_examples].
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

from ..core.actions import Action, Feedback, LearnerObservation
from ..core.environment import InstanceResult
from ..core.errors import ContinualArcError, HarnessFault
from ..core.records import EpisodeType, Record
from ..stream.schedule import Schedule
from ..stream.slots import Slot
from .learner import LearnerSpecError, load_object

__all__ = [
    "HOOKS",
    "MAX_EPISODES_PER_ROUND",
    "Addon",
    "AuxiliaryEpisode",
    "BaseAddon",
    "BasePlugin",
    "Episode",
    "LegacyAddonPlugin",
    "Plugin",
    "PluginError",
    "PluginResponse",
    "PluginSpecError",
    "RunInfo",
    "check_plugin",
    "load_plugin",
    "plugin_name",
]

HOOKS = (
    "on_run_start",
    "on_episode_start",
    "on_observation",
    "on_action",
    "on_feedback",
    "on_episode_end",
    "on_run_end",
)
"""The hooks of [`Plugin`][continual_arc.play.plugins.Plugin], in the order a run calls them."""

MAX_EPISODES_PER_ROUND = 100
"""The most auxiliary episodes one round may play: a plug-in that keeps enqueueing is a bug."""


class PluginError(HarnessFault, RuntimeError):
    """A plug-in that raised, or whose response broke the rules; it stops the run."""


class PluginSpecError(ContinualArcError, ValueError):
    """A ``module:Class`` path or object that does not make a plug-in."""


@dataclass(frozen=True)
class Episode:
    """An instance being played, as plug-ins see it (real ids included: plug-ins belong to the harness).

    Attributes:
        step: the slot's step, or ``-n`` for the run's ``n``-th auxiliary episode.
        round: the round it is played in.
        user: whose instance it is (0 for an auxiliary episode).
        phase: the phase whose source served it.
        task_id: the real task id.
        seed: the instance seed.
        alias: the task's name as the learner sees it.
        episode_type: ``primary`` (a slot of the schedule) or ``addon`` (asked for by a plug-in).
        slot: the schedule's slot (``None`` for an auxiliary episode).
        plugin: the plug-in that asked for it (auxiliary episodes only).
        reason: why it asked (auxiliary episodes only).
        addon_index: ``n``, counted over the run from 1 (auxiliary episodes only).
    """

    step: int
    round: int
    user: int
    phase: str
    task_id: str
    seed: int
    alias: str
    episode_type: str = EpisodeType.PRIMARY
    slot: Slot | None = None
    plugin: str | None = None
    reason: str | None = None
    addon_index: int | None = None

    @classmethod
    def of_slot(cls, slot: Slot, alias: str) -> Episode:
        """The primary episode that plays ``slot``."""
        return cls(slot.step, slot.round, slot.user, slot.phase, slot.task_id, slot.seed, alias, slot=slot)

    def to_json(self) -> dict[str, object]:
        """The fields its record and trajectory open with: the slot's, or an auxiliary episode's own.

        An auxiliary episode has no exposure metadata (``null``): exposures and gaps are the
        schedule's, and it is not in the schedule.
        """
        if self.slot is not None:
            return dict(self.slot.to_json())
        return {
            "step": self.step,
            "round": self.round,
            "user": self.user,
            "phase": self.phase,
            "task_id": self.task_id,
            "seed": self.seed,
            "reset_before": False,
            "exposure_index": None,
            "gap": None,
            "user_exposure_index": None,
            "user_gap": None,
            "plugin": self.plugin,
            "reason": self.reason,
            "addon_index": self.addon_index,
        }


@dataclass(frozen=True)
class AuxiliaryEpisode:
    """A request for one more episode: a fresh instance of a task, played in the current round.

    Attributes:
        task_id: the real id of a task the schedule serves (``Episode.task_id``).
        reason: why, recorded with the episode.
        phase: whose source serves it; default the phase of the episode the hook was called for
            (or the task's first phase in the schedule, from a run-level hook).
    """

    task_id: str
    reason: str = ""
    phase: str | None = None


@dataclass(frozen=True)
class RunInfo:
    """The run, as the run-level hooks see it.

    Attributes:
        out_dir: the run directory.
        schedule: the schedule played.
        start_round: the first round this call plays (0 unless the run was resumed).
        records: copies of the records committed so far (at the end: all of them); a plug-in that
            keeps state across rounds rebuilds it from these, so that a resumed run matches.
        stopped_by: at the end, the plug-in that stopped the run early, if one did.
    """

    out_dir: Path
    schedule: Schedule
    start_round: int
    records: tuple[Record, ...] = ()
    stopped_by: str | None = None


@dataclass(frozen=True)
class PluginResponse:
    """What a hook returns (every field optional).

    Attributes:
        value: the replacement of the hook's last argument (observation, action or feedback only).
        enqueue: auxiliary episodes to play after the round's slots.
        metadata: JSON-ready diagnostics, merged into the record's ``plugins`` block and kept whole
            in the trajectory.
        metrics: numbers, summed per instance in the record and over the run in ``plugins.json``.
        events: strings or JSON-ready objects, kept in the trajectory and counted in the record.
        stop_after_episode: end the run once the current round is committed.
    """

    value: object = None
    enqueue: Sequence[AuxiliaryEpisode] = ()
    metadata: Mapping[str, object] = field(default_factory=dict)
    metrics: Mapping[str, float] = field(default_factory=dict)
    events: Sequence[str | Mapping[str, object]] = ()
    stop_after_episode: bool = False


@runtime_checkable
class Plugin(Protocol):
    """The hooks a plug-in implements; each returns a `PluginResponse` or ``None``."""

    def on_run_start(self, run: RunInfo) -> PluginResponse | None:
        """The run (or a resumed part of it) starts; no value, no stop."""
        ...

    def on_episode_start(self, episode: Episode) -> PluginResponse | None:
        """An instance opens, before the learner's first action; no value."""
        ...

    def on_observation(self, episode: Episode, obs: LearnerObservation) -> PluginResponse | None:
        """The learner is about to act on ``obs``; a value replaces the observation it sees."""
        ...

    def on_action(self, episode: Episode, obs: LearnerObservation, action: Action) -> PluginResponse | None:
        """The learner chose ``action``; a value replaces the action the environment applies."""
        ...

    def on_feedback(
        self, episode: Episode, obs: LearnerObservation, action: Action, feedback: Feedback
    ) -> PluginResponse | None:
        """The environment answered; a value (the same fields, perhaps more) is what the learner observes."""
        ...

    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse | None:
        """The instance ended as ``result`` says; no value (its charge is the environment's)."""
        ...

    def on_run_end(self, run: RunInfo) -> PluginResponse | None:
        """Every round played is committed; metadata, metrics and events only."""
        ...


class BasePlugin:
    """A convenient base: every hook does nothing. Override the ones you need."""

    def on_run_start(self, run: RunInfo) -> PluginResponse | None:
        """Nothing by default."""
        return None

    def on_episode_start(self, episode: Episode) -> PluginResponse | None:
        """Nothing by default."""
        return None

    def on_observation(self, episode: Episode, obs: LearnerObservation) -> PluginResponse | None:
        """Nothing by default."""
        return None

    def on_action(self, episode: Episode, obs: LearnerObservation, action: Action) -> PluginResponse | None:
        """Nothing by default."""
        return None

    def on_feedback(
        self, episode: Episode, obs: LearnerObservation, action: Action, feedback: Feedback
    ) -> PluginResponse | None:
        """Nothing by default."""
        return None

    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse | None:
        """Nothing by default."""
        return None

    def on_run_end(self, run: RunInfo) -> PluginResponse | None:
        """Nothing by default."""
        return None


@runtime_checkable
class Addon(Protocol):
    """The older add-on: called when an episode completes, it may ask for more episodes."""

    def on_episode_complete(
        self, episode: Episode, result: InstanceResult
    ) -> Iterable[AuxiliaryEpisode | str] | None:
        """The episode ended; return episodes to enqueue (requests, or bare task ids), or ``None``."""
        ...


class BaseAddon:
    """A convenient base for an older add-on: asks for nothing."""

    def on_episode_complete(
        self, episode: Episode, result: InstanceResult
    ) -> Iterable[AuxiliaryEpisode | str] | None:
        """Nothing by default."""
        return None


class LegacyAddonPlugin(BasePlugin):
    """An `Addon` seen as a plug-in: its ``on_episode_complete`` becomes ``on_episode_end``.

    Args:
        addon: the add-on.
    """

    def __init__(self, addon: Addon) -> None:
        self.addon = addon

    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse | None:
        """Enqueue what the add-on asks for."""
        asked = self.addon.on_episode_complete(episode, result)
        if not asked:
            return None
        return PluginResponse(
            enqueue=tuple(AuxiliaryEpisode(a, "addon") if isinstance(a, str) else a for a in asked)
        )


def plugin_name(plugin: object) -> str:
    """A plug-in's import path, ``module:Class`` (what ``meta.json`` and the records name it by)."""
    target = plugin.addon if isinstance(plugin, LegacyAddonPlugin) else plugin
    cls = type(target)
    return f"{cls.__module__}:{cls.__qualname__}"


def check_plugin(obj: object, label: str | None = None) -> None:
    """Check that ``obj`` implements `Plugin`, or the older `Addon`.

    Raises:
        PluginSpecError: naming the hooks it lacks.
    """
    missing = [hook for hook in HOOKS if not callable(getattr(obj, hook, None))]
    if missing and not callable(getattr(obj, "on_episode_complete", None)):
        raise PluginSpecError(
            f"{label or plugin_name(obj)} is not a plug-in: it lacks {', '.join(missing)} "
            f"(subclass continual_arc.addons.BasePlugin for no-op defaults)"
        )


def load_plugin(path: str, kwargs: Mapping[str, object] | None = None) -> Plugin | Addon:
    """Build the plug-in ``module:Class`` with ``kwargs`` and check that it is one.

    Raises:
        PluginSpecError: the path is malformed, cannot be imported or refuses the arguments, or
            the object implements neither [`Plugin`][continual_arc.play.plugins.Plugin] nor
            [`Addon`][continual_arc.play.plugins.Addon].
    """
    try:
        plugin = load_object(path, kwargs, what="plug-in")
    except LearnerSpecError as err:
        raise PluginSpecError(str(err)) from None
    check_plugin(plugin, path)
    assert isinstance(plugin, Plugin | Addon)  # every hook of one or the other: checked just above
    return plugin
