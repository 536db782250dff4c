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

import dataclasses
import itertools
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
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
    "LearnerTable",
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


LearnerTable = TypedDict(
    "LearnerTable",
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
closed(LearnerTable)


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


@closed
@dataclass(frozen=True)
class SweepSpec:
    """A sweep spec: the one declaration of what its TOML file holds, validated where it is read.

    [`parse_spec`][continual_arc.sweep.spec.parse_spec] reads a file into this class (the keys the
    module docstring lists; one name or number where a list belongs, and ``config`` for
    ``configs``, read as the list); what a type cannot say (a list not empty, a number in range, an
    import path, two variants of one name) it checks after.

    Attributes:
        learners: the ``[[learners]]`` tables, as written (`variants` expands their axes).
        configs: the configurations, by their current names, each once.
        name: the sweep's name (default: the file's stem).
        seeds, users: the run seeds and numbers of users, each once.
        run: the options every play shares (``[run]``).
    """

    learners: tuple[LearnerTable, ...]
    configs: tuple[str, ...]
    name: str = "sweep"
    seeds: tuple[int, ...] = CANONICAL_SEEDS
    users: tuple[int, ...] = (1,)
    run: RunSettings = field(default_factory=RunSettings)

    @cached_property
    def variants(self) -> tuple[LearnerSpec, ...]:
        """Every learner variant: each table once per combination of its axes' values, in order."""
        return tuple(v for i, table in enumerate(self.learners) for v in _variants(table, i))

    def protocols(self) -> list[ProtocolRun]:
        """Every protocol of the sweep: variants, then configurations, users and seeds, in that order."""
        return [
            ProtocolRun(learner, config, users, seed)
            for learner in self.variants
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
            "learners": [v.to_json() for v in self.variants],
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
    if "config" in document and "configs" in document:
        raise SpecError("give configs (a list) or config (one name), not both")
    written = {"name": default_name, **document}
    if "config" in written:
        written["configs"] = written.pop("config")
    for key in ("configs", "seeds", "users"):  # one name or number stands for a list of it
        if key in written and not isinstance(written[key], list):
            written[key] = [written[key]]
    try:
        # Read as JSON text: pydantic builds the dataclasses from JSON objects, and a TOML date (no
        # JSON value) becomes text that its field then refuses by name.
        spec = parse_document(SweepSpec, json.dumps(written, default=str), "the spec")
    except DocumentError as err:
        raise SpecError(str(err)) from None
    _check_counts(spec)
    for config in spec.configs:
        get_config(config)  # refuses an unknown name, listing the known ones
    labels = [v.label for v in spec.variants]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice or len({v.slug for v in spec.variants}) < len(labels):
        raise SpecError(f"two learner variants share a name: {', '.join(twice) or 'after slugging'}")
    return dataclasses.replace(
        spec,
        configs=tuple(dict.fromkeys(CONFIG_ALIASES.get(c, c) for c in spec.configs)),
        seeds=tuple(dict.fromkeys(spec.seeds)),
        users=tuple(dict.fromkeys(spec.users)),
    )


def _check_counts(spec: SweepSpec) -> None:
    """Refuse what the declaration's types cannot: empty lists and numbers out of range."""
    if not spec.configs:
        raise SpecError("configs must be a configuration name or a non-empty list of them")
    for key, values, low in (("seeds", spec.seeds, 0), ("users", spec.users, 1)):
        if not values or any(v < low for v in values):
            raise SpecError(f"{key} must be a non-empty list of integers of at least {low}")
    if not spec.learners:
        raise SpecError("the spec needs at least one [[learners]] table")
    if spec.run.resamples < 1:
        raise SpecError("[run].resamples must be a positive integer")
    if spec.run.retries < 0:
        raise SpecError("[run].retries must be an integer of at least 0")


def _variants(entry: LearnerTable, index: int) -> list[LearnerSpec]:
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
