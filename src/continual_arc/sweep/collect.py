"""Runs read back for pooling: a sweep's protocols, protocol directories, or run directories made by hand.

[`collect`][continual_arc.sweep.collect.collect] takes any mix of

* a sweep's directory (its ``sweep.json`` names each protocol with its row's label),
* protocol directories (what ``continual-arc protocol`` writes), and
* run directories (what ``continual-arc run`` writes), each placed by its ``meta.json``: the stream,
  the reset's stream (``--reset-each``), a test at full width, a test's reset (``--width 1``, or the
  held-out tasks alone, ``--order fresh``),

and groups them into rows: one per learner (import path and arguments) and setting
(configuration and users), each holding one protocol's plays per seed. Only finished plays are
read; a sweep's protocol that is not complete is left out of its row and named as missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import ContinualArcError
from ..core.records import LearnerSpec, Play, Record
from ..core.sweep_listing import SWEEP_FILE, read_sweep_listing
from ..play.learner import learner_label
from ..play.rundir import read_meta, read_records
from ..protocol.plays import PROTOCOL_PLAYS, is_protocol_dir, play_finished
from .table import Row, pooled_row

__all__ = ["CollectError", "Group", "collect", "group_row", "read_plays", "rows", "spec_label"]


class CollectError(ContinualArcError, ValueError):
    """A path that is neither a sweep, a protocol directory nor a run directory, or two runs in one place."""


@dataclass
class Group:
    """The runs of one row: a learner at a setting, each seed's plays by name (a run directory each).

    Attributes:
        label: the row's label.
        config, users: the setting.
        plays: ``{seed: {play: run directory}}``.
        missing: seeds whose protocol is not complete.
    """

    label: str
    config: str
    users: int
    plays: dict[int, dict[str, Path]] = field(default_factory=dict)
    missing: set[int] = field(default_factory=set)


def _finished(run_dir: Path) -> bool:
    return play_finished(run_dir)  # a play stopped at the spend cap is not finished


def _role(schedule: Mapping[str, object]) -> str:
    """Which play of a protocol a run is, from its schedule's meta."""
    test = schedule.get("test")
    if test is None:
        if schedule.get("order") == "fresh":
            return Play.HELD_OUT_RESET
        return Play.STREAM_RESET if schedule.get("reset_each") else Play.STREAM
    return str(test) if schedule.get("width") is None else f"{test}-reset"


def spec_label(learner: LearnerSpec, names: Mapping[str, str] | None = None) -> str:
    """A learner's short name in a table: its class's name, then its arguments (``keep=demos``).

    ``names`` (an import path to a name) puts a name in place of the class's (``library keep=demos``).
    """
    path = str(learner.get("class", "?"))
    return learner_label(path, learner.get("kwargs") or {}, (names or {}).get(path))


class _Groups:
    def __init__(self, names: Mapping[str, str]) -> None:
        self.by_key: dict[tuple[object, ...], Group] = {}
        self.names = names

    def group(self, key: tuple[object, ...], label: str, config: str, users: int) -> Group:
        return self.by_key.setdefault(key, Group(label, config, users))

    def add_run(self, run_dir: Path) -> None:
        if not _finished(run_dir):
            return
        meta = read_meta(run_dir)
        schedule, learner = meta["schedule"], meta["learner"]
        kwargs = json.dumps(learner.get("kwargs"), sort_keys=True)
        key = ("runs", learner.get("class"), kwargs, schedule["config"], schedule["users"])
        label = spec_label(learner, self.names)
        group = self.group(key, label, schedule["config"], int(schedule["users"]))
        plays = group.plays.setdefault(int(schedule["seed"]), {})
        role = _role(schedule)
        if role in plays and plays[role] != run_dir:
            raise CollectError(
                f"{plays[role]} and {run_dir} are both the {role} of {group.label} at seed "
                f"{schedule['seed']}: pool one of them"
            )
        plays[role] = run_dir

    def add_protocol(self, directory: Path) -> None:
        for play in PROTOCOL_PLAYS.values():
            if (directory / play / "meta.json").exists():
                self.add_run(directory / play)

    def add_sweep(self, directory: Path) -> None:
        for protocol in read_sweep_listing(directory)["protocols"]:
            label, config, users = protocol["label"], protocol["config"], protocol["users"]
            group = self.group(("sweep", label, config, users), label, config, users)
            runs = {play: directory / protocol["directory"] / name for play, name in PROTOCOL_PLAYS.items()}
            if all(_finished(run) for run in runs.values()):
                group.plays[protocol["seed"]] = runs
            else:
                group.missing.add(protocol["seed"])


def collect(paths: Iterable[Path | str], *, names: Mapping[str, str] | None = None) -> list[Group]:
    """The rows' runs, from sweeps, protocol directories and run directories, in the order given.

    A row read from protocol or run directories is labelled by its learner's class name and
    arguments (``ProgramLibraryLearner keep=demos``); ``names`` (import path to name) puts a name
    in place of the class name, as a sweep's spec names its learners (``library keep=demos``).
    A sweep's own rows keep the labels its ``sweep.json`` gives them.

    Raises:
        CollectError: a path is none of the three, or two runs are the same play of one row.
    """
    groups = _Groups(names or {})
    for path in map(Path, paths):
        if (path / SWEEP_FILE).exists():
            groups.add_sweep(path)
        elif is_protocol_dir(path):
            groups.add_protocol(path)
        elif (path / "meta.json").exists():
            groups.add_run(path)
        else:
            raise CollectError(f"{path} is not a sweep, a protocol directory or a run directory")
    return list(groups.by_key.values())


def rows(groups: Iterable[Group], *, seed: int = 0, resamples: int = 10_000) -> list[Row]:
    """The pooled row of each group (a group none of whose seeds finished gives a row of dashes)."""
    return [group_row(group, read_plays(group), seed=seed, resamples=resamples) for group in groups]


def read_plays(group: Group) -> dict[int, dict[str, list[Record]]]:
    """The records of each finished seed's plays: ``{seed: {play: records}}``."""
    return {
        s: {play: read_records(path) for play, path in by_play.items()} for s, by_play in group.plays.items()
    }


def group_row(
    group: Group,
    plays: Mapping[int, Mapping[str, Sequence[Record]]],
    *,
    seed: int = 0,
    resamples: int = 10_000,
) -> Row:
    """The pooled row of ``group`` from its records (`read_plays`), its missing seeds named."""
    return pooled_row(
        group.label,
        group.config,
        group.users,
        plays,
        missing=sorted(group.missing),
        seed=seed,
        resamples=resamples,
    )
