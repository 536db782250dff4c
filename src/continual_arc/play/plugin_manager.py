"""The plug-in runtime: composing plug-ins in order and checking every response they give.

[`PluginManager`][continual_arc.play.plugin_manager.PluginManager] is what the runner drives: it calls each
hook of each plug-in in order, hands each plug-in the previous one's transformed value, refuses any response
that would touch the score ([`PluginError`][continual_arc.play.plugins.PluginError]), and collects auxiliary
episodes, metadata, metrics and events. The round ([`continual_arc.play.session`][continual_arc.play.session])
and the episode ([`continual_arc.play.episode`][continual_arc.play.episode]) call it; nothing else does.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar, cast

from ..core.environment import AnyEnvironment, InstanceResult
from ..core.records import JSONValue, PluginBlock, PluginCounts, PluginEntry, Record, is_primary
from .plugins import (
    Addon,
    AuxiliaryEpisode,
    Episode,
    LegacyAddonPlugin,
    Plugin,
    PluginError,
    PluginResponse,
    RunInfo,
    check_plugin,
    plugin_name,
)

__all__ = ["PendingEpisode", "PluginManager", "PluginTotals", "PluginTrace", "plugin_totals"]

T = TypeVar("T")
"""What a transforming hook is handed and hands back: an observation, an action, a feedback."""

Check = Callable[[str, T, object], T]
"""A check of a plug-in's replacement for ``given``: the replacement, accepted, or PluginError."""


# -- checks on responses ------------------------------------------------------------------------


def _check_observation(where: str, given: T, value: object) -> T:
    """An observation of the kind the plug-in was handed (a subclass may add fields)."""
    if not isinstance(value, type(given)):
        raise PluginError(f"{where} returned a {type(value).__name__}, not a {type(given).__name__}")
    return value


def _action_check(env: AnyEnvironment) -> Check[T]:
    """The check of an action a plug-in returns: one the instance's environment accepts."""

    def check(where: str, given: T, value: object) -> T:
        if not env.accepts(value):
            raise PluginError(f"{where} returned a {type(value).__name__}, not {env.action_names}")
        return cast(T, value)  # one of the environment's actions, as ``given`` is

    return check


def _check_feedback(where: str, given: T, value: object) -> T:
    """The environment's feedback, perhaps annotated: the same class or a subclass, no field changed."""
    if not isinstance(value, type(given)):
        raise PluginError(
            f"{where} returned a {type(value).__name__} for a {type(given).__name__}: "
            f"the environment's feedback may be annotated, never replaced"
        )
    changed = dataclasses.fields(given) if dataclasses.is_dataclass(given) else ()  # every feedback is one
    for f in changed:
        if getattr(value, f.name) != getattr(given, f.name):
            raise PluginError(
                f"{where} changed the feedback's {f.name} ({getattr(given, f.name)!r} to "
                f"{getattr(value, f.name)!r}): the verdict and the costs are the environment's"
            )
    return value


_TRANSFORMS = frozenset({"on_observation", "on_action", "on_feedback"})
"""The hooks whose response may carry a value, checked by the caller (each its own way)."""
_RUN_HOOKS = ("on_run_start", "on_run_end")


def _json_ready(where: str, value: object) -> JSONValue:
    """A deep copy of ``value`` through JSON, so that the plug-in cannot change it afterwards."""
    try:
        copy: JSONValue = json.loads(json.dumps(value, sort_keys=True))
        return copy
    except (TypeError, ValueError) as err:
        raise PluginError(f"{where}: metadata and events must be JSON-ready ({err})") from None


def _check_response(where: str, hook: str, response: PluginResponse) -> None:
    if response.value is not None and hook not in _TRANSFORMS:
        raise PluginError(
            f"{where} returned a value: only on_observation, on_action and on_feedback may transform one"
        )
    if response.enqueue and hook == "on_run_end":
        raise PluginError(f"{where} enqueued episodes after the run ended")
    if response.stop_after_episode and hook in _RUN_HOOKS:
        raise PluginError(f"{where} asked to stop after the episode, outside an episode")
    if not isinstance(response.metadata, Mapping) or not isinstance(response.metrics, Mapping):
        raise PluginError(f"{where}: metadata and metrics must be mappings")
    if not all(isinstance(e, AuxiliaryEpisode) for e in response.enqueue):
        raise PluginError(f"{where}: enqueue takes AuxiliaryEpisode requests")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in response.metrics.values()):
        raise PluginError(f"{where}: metrics must be numbers")
    if not all(isinstance(e, str | Mapping) for e in response.events):
        raise PluginError(f"{where}: events must be strings or JSON-ready objects")


# -- composition --------------------------------------------------------------------------------


class PluginTrace:
    """What the plug-ins said about one instance, or about the run.

    Kept whole for the trajectory, summed per plug-in for the record.
    """

    def __init__(self) -> None:
        self.entries: list[PluginEntry] = []

    def add(self, name: str, hook: str, at: int | None, response: PluginResponse) -> None:
        """Keep one response (``at``: the index of the trajectory event it concerns)."""
        r = response
        if r.value is None and not (r.metadata or r.metrics or r.events or r.enqueue or r.stop_after_episode):
            return  # the plug-in said nothing
        where = f"plug-in {name} in {hook}"
        said: PluginEntry = {"plugin": name, "hook": hook}
        if at is not None:
            said["event"] = at
        if response.value is not None:
            said["transformed"] = True
        if response.metadata:
            said["metadata"] = _json_ready(where, dict(response.metadata))
        if response.metrics:
            said["metrics"] = {str(k): float(v) for k, v in response.metrics.items()}
        if response.events:
            events = [e if isinstance(e, str) else dict(e) for e in response.events]
            said["events"] = _json_ready(where, events)
        if response.enqueue:
            said["enqueued"] = [{"task_id": e.task_id, "reason": e.reason} for e in response.enqueue]
        if response.stop_after_episode:
            said["stop_after_episode"] = True
        self.entries.append(said)

    def summary(self) -> dict[str, PluginBlock] | None:
        """Per plug-in: metadata merged in order, metrics summed, events, enqueues and transforms counted."""
        out: dict[str, PluginBlock] = {}
        for entry in self.entries:
            block = out.setdefault(entry["plugin"], {})
            metadata = entry.get("metadata")
            if isinstance(metadata, dict):  # always an object: a mapping's copy (PluginTrace.add)
                block.setdefault("metadata", {}).update(metadata)
            for key, value in entry.get("metrics", {}).items():
                metrics = block.setdefault("metrics", {})
                metrics[key] = metrics.get(key, 0.0) + value
            if "events" in entry:
                events = entry["events"]
                block["events"] = block.get("events", 0) + (len(events) if isinstance(events, list) else 0)
            if "enqueued" in entry:
                block["enqueued"] = block.get("enqueued", 0) + len(entry["enqueued"])
            if entry.get("transformed"):
                block["transforms"] = block.get("transforms", 0) + 1
            if entry.get("stop_after_episode"):
                block["stopped"] = True
        return out or None


@dataclass(frozen=True)
class PendingEpisode:
    """An auxiliary episode waiting to be played: who asked, for what, and from which phase's source."""

    plugin: str
    task_id: str
    reason: str
    phase: str | None


class PluginManager:
    """Several plug-ins composed in order: each sees the value the one before it returned.

    Objects that implement only the older [`Addon`][continual_arc.play.plugins.Addon] are wrapped in
    [`LegacyAddonPlugin`][continual_arc.play.plugins.LegacyAddonPlugin]. Calls are serialised by a lock, so a
    concurrent learner's threads never run two hooks at once.

    Args:
        plugins: plug-ins (or older add-ons), in order.

    Raises:
        PluginSpecError: an object is neither.
    """

    def __init__(self, plugins: Iterable[Plugin | Addon] = ()) -> None:
        plugins = list(plugins)
        for plugin in plugins:
            check_plugin(plugin)
        self.names = [plugin_name(p) for p in plugins]
        self.plugins: list[Plugin] = [p if isinstance(p, Plugin) else LegacyAddonPlugin(p) for p in plugins]
        self.pending: list[PendingEpisode] = []
        self.stop_by: str | None = None
        self._lock = threading.RLock()

    def __bool__(self) -> bool:
        return bool(self.plugins)

    def run_start(self, run: RunInfo, trace: PluginTrace) -> None:
        """Call ``on_run_start`` on every plug-in."""
        self._dispatch("on_run_start", (), run, trace, None, None)

    def episode_start(self, episode: Episode, trace: PluginTrace) -> None:
        """Call ``on_episode_start`` on every plug-in."""
        self._dispatch("on_episode_start", (), episode, trace, None, episode)

    def observation(self, episode: Episode, obs: T, trace: PluginTrace, at: int) -> T:
        """The observation the learner sees, after every plug-in's ``on_observation``."""
        return self._dispatch("on_observation", (episode,), obs, trace, at, episode, _check_observation)

    def action(
        self,
        episode: Episode,
        obs: object,
        action: T,
        trace: PluginTrace,
        at: int,
        env: AnyEnvironment,
    ) -> T:
        """The action ``env`` applies, after every plug-in's ``on_action``.

        A replacement that is not one of ``env``'s actions stops the run.
        """
        check: Check[T] = _action_check(env)
        return self._dispatch("on_action", (episode, obs), action, trace, at, episode, check)

    def feedback(
        self, episode: Episode, obs: object, action: object, feedback: T, trace: PluginTrace, at: int
    ) -> T:
        """The feedback the learner observes, after every plug-in's ``on_feedback`` (checked)."""
        lead = (episode, obs, action)
        return self._dispatch("on_feedback", lead, feedback, trace, at, episode, _check_feedback)

    def episode_end(self, episode: Episode, result: InstanceResult, trace: PluginTrace) -> None:
        """Call ``on_episode_end`` on every plug-in."""
        self._dispatch("on_episode_end", (episode,), result, trace, None, episode)

    def run_end(self, run: RunInfo, trace: PluginTrace) -> None:
        """Call ``on_run_end`` on every plug-in."""
        self._dispatch("on_run_end", (), run, trace, None, None)

    def take_pending(self) -> PendingEpisode | None:
        """The next auxiliary episode to play, if any."""
        with self._lock:
            return self.pending.pop(0) if self.pending else None

    def _dispatch(
        self,
        hook: str,
        lead: tuple[object, ...],
        given: T,
        trace: PluginTrace,
        at: int | None,
        episode: Episode | None,
        check: Check[T] | None = None,
    ) -> T:
        """Call ``hook(*lead, value)`` on each plug-in in turn; the value as the last one left it.

        ``given`` is the hook's last argument; only a transforming hook passes ``check``, and each
        plug-in is handed the value the one before it returned.
        """
        value = given
        if not self.plugins:
            return value
        with self._lock:
            for name, plugin in zip(self.names, self.plugins, strict=True):
                where = f"plug-in {name} in {hook}"
                hook_of: Callable[..., object] = getattr(plugin, hook)  # one of HOOKS: check_plugin
                try:
                    response = hook_of(*lead, value)
                except Exception as err:
                    raise PluginError(f"{where} raised {err!r}") from err
                if response is None:
                    continue
                if not isinstance(response, PluginResponse):
                    raise PluginError(f"{where} returned a {type(response).__name__}, not a PluginResponse")
                _check_response(where, hook, response)
                if check is not None and response.value is not None:
                    value = check(where, given, response.value)
                trace.add(name, hook, at, response)
                self._take(name, response, episode)
        return value

    def _take(self, name: str, response: PluginResponse, episode: Episode | None) -> None:
        for request in response.enqueue:
            phase = request.phase or (episode.phase if episode else None)
            self.pending.append(PendingEpisode(name, request.task_id, request.reason, phase))
        if response.stop_after_episode and self.stop_by is None:
            self.stop_by = name


class PluginTotals(PluginCounts, total=False):
    """One plug-in over a run (``plugins.json``): auxiliary episodes, and its counts summed."""

    episodes: int


def plugin_totals(records: Iterable[Record]) -> dict[str, PluginTotals]:
    """Per plug-in over a run's records: auxiliary episodes played, metrics summed, events counted."""
    out: dict[str, PluginTotals] = {}
    for record in records:
        if not is_primary(record):
            block = out.setdefault(str(record.get("plugin")), {})
            block["episodes"] = block.get("episodes", 0) + 1
        for name, said in (record.get("plugins") or {}).items():
            block = out.setdefault(name, {})
            for key, value in said.get("metrics", {}).items():
                metrics = block.setdefault("metrics", {})
                metrics[key] = metrics.get(key, 0.0) + value
            if "events" in said:
                block["events"] = block.get("events", 0) + said["events"]
            if "enqueued" in said:
                block["enqueued"] = block.get("enqueued", 0) + said["enqueued"]
            if "transforms" in said:
                block["transforms"] = block.get("transforms", 0) + said["transforms"]
    return dict(sorted(out.items()))
