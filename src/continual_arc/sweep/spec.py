"""A sweep's specification (TOML) and the protocol runs it expands into.

A spec names the learners (import path, arguments, the resources a play of each needs, and axes
of arguments to sweep), the configurations, seeds and numbers of users, and the options every play
shares::

    configs = ["arc1-smoke"]
    seeds = [0, 1, 2]
    users = [1]

    [run]                       # optional; these are the defaults
    alias_style = "hash"
    resamples = 10000
    bootstrap_seed = 0
    retries = 3                 # reruns of a play whose worker died
    plots = true                # each protocol's plots (the sweep's plane is drawn regardless)

    [[learners]]
    name = "library"
    class = "my_learners.library:LibraryLearner"     # module:Class, as --learner takes it
    kwargs = {keep = "programs"}
    cpus = 1
    axes = {keep = ["programs", "demos"]}   # one variant per value (several axes: every combination)

The sweep plays one protocol per learner variant, configuration, number of users and seed. A row
of the table is a learner variant at a setting (configuration and users), its seeds pooled.
"""

from __future__ import annotations

import itertools
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NotRequired

# pydantic reads a TypedDict from typing_extensions only, on Python 3.11 (the spec is validated).
from typing_extensions import TypedDict

from ..core.config import CANONICAL_SEEDS
from ..core.documents import DocumentError, parse_document
from ..core.errors import ContinualArcError
from ..core.jsonable import fields_json
from ..core.records import JSONObject, JSONValue, closed
from ..play.options import RunOptions
from ..tracks.registry import CONFIG_ALIASES, get_config

__all__ = [
    "LearnerSpec",
    "ProtocolRun",
    "RunSettings",
    "SpecError",
    "SweepSpec",
    "load_spec",
    "parse_spec",
]

_SLUG = re.compile(r"[^A-Za-z0-9._=-]+")


class SpecError(ContinualArcError, ValueError):
    """A sweep spec that cannot be read or expanded: the message names the key and what is wrong."""


_LearnerTable = TypedDict(
    "_LearnerTable",
    {
        "name": NotRequired[str],
        "class": str,
        "kwargs": NotRequired[JSONObject],
        "cpus": NotRequired[float],
        "gpus": NotRequired[float],
        "axes": NotRequired[dict[str, list[JSONValue]]],
    },
)
"""A ``[[learners]]`` table as the file holds it (``class``, a keyword, hence this form)."""
closed(_LearnerTable)


@closed
class SpecDocument(TypedDict):
    """A sweep spec as its TOML file holds it (the module docstring says what each key means).

    The types are checked by the declaration's validator; what a type cannot say (a list not
    empty, a number in range, an import path, two variants of one name) by
    [`parse_spec`][continual_arc.sweep.spec.parse_spec].
    """

    name: NotRequired[str]
    configs: NotRequired[str | list[str]]
    config: NotRequired[str | list[str]]
    seeds: NotRequired[int | list[int]]
    users: NotRequired[int | list[int]]
    run: NotRequired[RunSettings]
    learners: list[_LearnerTable]


@dataclass(frozen=True)
class LearnerSpec:
    """One learner variant of a sweep.

    Attributes:
        label: its row label (the spec's name, and each axis's value).
        learner: ``module:Class``.
        kwargs: its arguments (the spec's ``kwargs`` with the variant's axis values).
        cpus, gpus: what one play of it asks of the engine.
    """

    label: str
    learner: str
    kwargs: Mapping[str, JSONValue]
    cpus: float = 1.0
    gpus: float = 0.0

    @property
    def slug(self) -> str:
        """The label as a directory name."""
        return _SLUG.sub("-", self.label).strip("-") or "learner"

    def to_json(self) -> JSONObject:
        """The variant as ``sweep.json`` lists it (its import path under ``class``, as a spec names it)."""
        return {
            "label": self.label,
            "class": self.learner,
            "kwargs": dict(self.kwargs),
            "cpus": self.cpus,
            "gpus": self.gpus,
        }


@closed
@dataclass(frozen=True)
class RunSettings:
    """The options every play of a sweep shares: the spec's ``[run]``, each key optional.

    The table is read into this class by the spec's validator (a key it does not declare refused);
    what a type cannot say (a positive number of resamples) is checked by ``parse_spec``.
    """

    alias_style: Literal["hash", "names"] = "hash"
    max_concurrent: int | None = None
    instance_time_limit: float | None = None
    resamples: int = 10_000
    bootstrap_seed: int = 0
    retries: int = 3
    plots: bool = True

    def run_options(self) -> RunOptions:
        """How every play is played: the runner's options these settings name."""
        return RunOptions(
            alias_style=self.alias_style,
            max_concurrent=self.max_concurrent,
            instance_time_limit=self.instance_time_limit,
        )


@dataclass(frozen=True)
class ProtocolRun:
    """One protocol of a sweep: a learner variant at a configuration, number of users and seed.

    Attributes:
        learner: the variant.
        config, users, seed: the protocol's setting and run seed.
    """

    learner: LearnerSpec
    config: str
    users: int
    seed: int

    @property
    def setting(self) -> str:
        """The row's setting in words: configuration and users."""
        return f"{self.config}, {self.users} user{'s' if self.users != 1 else ''}"

    @property
    def directory(self) -> Path:
        """Where its protocol directory goes, relative to the sweep's directory."""
        return Path("protocols") / self.learner.slug / f"{self.config}-users{self.users}-seed{self.seed}"

    def to_json(self) -> JSONObject:
        """The protocol as ``sweep.json`` lists it: its folder, its variant's label and its setting."""
        return {
            "directory": str(self.directory),
            "label": self.learner.label,
            "config": self.config,
            "users": self.users,
            "seed": self.seed,
        }


@dataclass(frozen=True)
class SweepSpec:
    """A parsed spec: learner variants, configurations, seeds, users and shared options."""

    name: str
    learners: tuple[LearnerSpec, ...]
    configs: tuple[str, ...]
    seeds: tuple[int, ...]
    users: tuple[int, ...]
    run: RunSettings = field(default_factory=RunSettings)

    def protocols(self) -> list[ProtocolRun]:
        """Every protocol of the sweep: learners, then configurations, users and seeds, in that order."""
        return [
            ProtocolRun(learner, config, users, seed)
            for learner in self.learners
            for config in self.configs
            for users in self.users
            for seed in self.seeds
        ]

    def to_json(self) -> JSONObject:
        """The expanded spec as ``sweep.json`` records it: its settings, variants and every protocol."""
        return {
            "name": self.name,
            "configs": list(self.configs),
            "seeds": list(self.seeds),
            "users": list(self.users),
            "run": fields_json(self.run),
            "learners": [v.to_json() for v in self.learners],
            "protocols": [r.to_json() for r in self.protocols()],
        }


def load_spec(path: Path | str) -> SweepSpec:
    """Read and check a spec file.

    Raises:
        SpecError: the file is not TOML, or the spec is not valid (the message says which key).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise SpecError(f"cannot read sweep spec {path}: {err.strerror}") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise SpecError(f"{path} is not valid TOML: {err}") from None
    return parse_spec(document, default_name=Path(path).stem)


def parse_spec(document: Mapping[str, object], default_name: str = "sweep") -> SweepSpec:
    """A spec from its parsed TOML (see the module docstring for the keys).

    Raises:
        SpecError: an unknown or missing key, a value of the wrong kind, an unknown configuration,
            or two learner variants with one label.
    """
    try:
        # Read as JSON text: pydantic builds the [run] table's dataclass from a JSON object, and a
        # TOML date (no JSON value) becomes text that its field then refuses by name.
        spec = parse_document(SpecDocument, json.dumps(document, default=str), "the spec")
    except DocumentError as err:
        raise SpecError(str(err)) from None
    if "config" in spec and "configs" in spec:
        raise SpecError("give configs (a list) or config (one name), not both")
    configs = _names(spec.get("configs", spec.get("config")), "configs")
    for config in configs:
        get_config(config)  # refuses an unknown name, listing the known ones
    configs = [CONFIG_ALIASES.get(c, c) for c in configs]
    seeds = _ints(spec.get("seeds", list(CANONICAL_SEEDS)), "seeds", low=0)
    users = _ints(spec.get("users", [1]), "users", low=1)
    if not spec["learners"]:
        raise SpecError("the spec needs at least one [[learners]] table")
    learners = [v for i, entry in enumerate(spec["learners"]) for v in _variants(entry, i)]
    labels = [v.label for v in learners]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice or len({v.slug for v in learners}) < len(learners):
        raise SpecError(f"two learner variants share a name: {', '.join(twice) or 'after slugging'}")
    return SweepSpec(
        name=spec.get("name", default_name),
        learners=tuple(learners),
        configs=tuple(dict.fromkeys(configs)),
        seeds=tuple(dict.fromkeys(seeds)),
        users=tuple(dict.fromkeys(users)),
        run=_run(spec.get("run", RunSettings())),
    )


def _names(value: str | list[str] | None, key: str) -> list[str]:
    values = [value] if isinstance(value, str) else value
    if not values:
        raise SpecError(f"{key} must be a configuration name or a non-empty list of them")
    return values


def _ints(value: int | list[int], key: str, low: int) -> list[int]:
    values = [value] if isinstance(value, int) else value
    if not values or any(v < low for v in values):
        raise SpecError(f"{key} must be a non-empty list of integers of at least {low}")
    return values


def _variants(entry: _LearnerTable, index: int) -> list[LearnerSpec]:
    where = f"learners[{index}]"
    learner = entry["class"]
    if ":" not in learner:
        raise SpecError(f"{where}.class must be an import path, module:Class")
    kwargs, axes = entry.get("kwargs", {}), entry.get("axes", {})
    for axis, values in axes.items():
        if not values:
            raise SpecError(f"{where}.axes.{axis} must be a non-empty list of values")
    cpus, gpus = float(entry.get("cpus", 1)), float(entry.get("gpus", 0))
    if cpus < 0 or gpus < 0:
        raise SpecError(f"{where}.cpus and {where}.gpus must be numbers of at least 0")
    name = entry.get("name") or learner.rsplit(":", 1)[-1]
    out = []
    for combination in itertools.product(*axes.values()):
        chosen = dict(zip(axes, combination, strict=True))
        label = " ".join([name, *(f"{k}={_text(v)}" for k, v in chosen.items())])
        out.append(LearnerSpec(label, learner, {**kwargs, **chosen}, cpus, gpus))
    return out


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _run(settings: RunSettings) -> RunSettings:
    if settings.resamples < 1:
        raise SpecError("[run].resamples must be a positive integer")
    if settings.retries < 0:
        raise SpecError("[run].retries must be an integer of at least 0")
    return settings
