"""What installed packages declare to the core through entry points: learners by role, and run options.

The core names no learner package. A package of learners (the baselines are one) declares:

* in [`DEFAULT_LEARNERS`][continual_arc.play.declared.DEFAULT_LEARNERS], the learner the protocol plays when
  none is named, by track name or by a track's kind (``grid``, ``game``), as ``module:Class``; the track's
  name wins over its kind;
* in [`REFERENCE_LEARNERS`][continual_arc.play.declared.REFERENCE_LEARNERS], learners a check refers to by
  role (``bare``: the bare model that a submission's ``-bare`` runs must play; ``floor-<track>`` or
  ``floor-<kind>``: the track's stateless floor, played beside every model-free result,
  [`track_floor_learner`][continual_arc.play.declared.track_floor_learner]);
* in [`RUN_OPTIONS`][continual_arc.play.declared.RUN_OPTIONS], a
  [`RunOption`][continual_arc.play.declared.RunOption]: a command-line switch of ``run`` and ``protocol`` that
  only its learners read, carried to the processes a run starts through environment variables.

A learner's path is read from the entry point's value without importing anything.
"""

from __future__ import annotations

import argparse
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .learner import LearnerSpecError

if TYPE_CHECKING:
    from ..tracks.track import Track

__all__ = [
    "DEFAULT_LEARNERS",
    "REFERENCE_LEARNERS",
    "RUN_OPTIONS",
    "RunOption",
    "reference_learner",
    "run_option_env",
    "run_options",
    "track_default_learner",
    "track_floor_learner",
]

DEFAULT_LEARNERS = "continual_arc.default_learners"
"""The entry-point group of default learners, by track name or kind."""

REFERENCE_LEARNERS = "continual_arc.reference_learners"
"""The entry-point group of learners a check refers to by role."""

RUN_OPTIONS = "continual_arc.cli_options"
"""The entry-point group of [`RunOption`][continual_arc.play.declared.RunOption] objects."""


@runtime_checkable
class RunOption(Protocol):
    """A command-line switch of ``run`` and ``protocol`` that a learner package declares.

    Attributes:
        env: the environment variables it sets, which every process the run starts must inherit
            (``verify`` passes them to its confined learner).
    """

    env: tuple[str, ...]

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        """Add the switch to ``parser``."""
        ...

    def apply(self, args: argparse.Namespace) -> None:
        """Act on the parsed ``args`` (set the environment variables) before the run starts."""
        ...


def _declared(group: str) -> dict[str, str]:
    return {entry.name: entry.value for entry in entry_points(group=group)}


def track_default_learner(track: Track) -> str:
    """The ``module:Class`` an installed package declares for ``track`` (by its name, else its kind).

    Raises:
        LearnerSpecError: no installed package declares one.
    """
    declared = _declared(DEFAULT_LEARNERS)
    learner = declared.get(track.name) or declared.get(track.kind)
    if learner is None:
        raise LearnerSpecError(
            f"no learner was named and no installed package declares a default learner for track "
            f"{track.name}: name one (--learner module:Class) or install continual-arc-baselines"
        )
    return learner


def track_floor_learner(track: Track) -> str | None:
    """The ``module:Class`` of ``track``'s stateless floor (its name's role, else its kind's), if declared.

    The floor is the default learner's search keeping nothing between instances, built with no
    arguments; a package declares it as ``floor-<track>`` or ``floor-<kind>`` among
    [`REFERENCE_LEARNERS`][continual_arc.play.declared.REFERENCE_LEARNERS]. ``None``: no installed package
    declares one.
    """
    declared = _declared(REFERENCE_LEARNERS)
    return declared.get(f"floor-{track.name}") or declared.get(f"floor-{track.kind}")


def reference_learner(role: str) -> str | None:
    """The ``module:Class`` an installed package declares for ``role`` (None: none declares it)."""
    return _declared(REFERENCE_LEARNERS).get(role)


def run_options() -> tuple[RunOption, ...]:
    """The run options installed packages declare, in the order of their names.

    Raises:
        LearnerSpecError: an entry point does not name a [`RunOption`][continual_arc.play.declared.RunOption].
    """
    options = []
    for entry in sorted(entry_points(group=RUN_OPTIONS), key=lambda e: e.name):
        option = entry.load()
        if not isinstance(option, RunOption):
            raise LearnerSpecError(f"the run option {entry.name} ({entry.value}) lacks env, add_to or apply")
        options.append(option)
    return tuple(options)


def run_option_env() -> tuple[str, ...]:
    """Every environment variable the installed run options set."""
    return tuple(name for option in run_options() for name in option.env)
