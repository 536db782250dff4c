"""A learner named, not built: its import path and keyword arguments, as one value.

The command line (or a sweep, or a verifier) reads a [`LearnerRef`][continual_arc.core.learner_ref.LearnerRef]
once; it then travels unchanged down to whatever builds the learner, in this process or in a sandboxed child,
instead of a loose pair of a path and a dict. On disk it is the ``{"class": ..., "kwargs": ...}`` object
of [`LearnerSpec`][continual_arc.core.records.LearnerSpec] (``meta.json``'s ``learner``), byte for byte as
before.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .records import JSONObject, JSONValue, LearnerSpec

__all__ = ["LearnerRef"]


def _frozen(kwargs: Mapping[str, JSONValue]) -> Mapping[str, JSONValue]:
    return MappingProxyType(dict(kwargs))


@dataclass(frozen=True)
class LearnerRef:
    """A learner by import path and keyword arguments.

    Attributes:
        path: ``module:Class``.
        kwargs: the arguments it is built with (a read-only copy of those given).
    """

    path: str
    kwargs: Mapping[str, JSONValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # A copy nobody can change under the reference (a frozen dataclass freezes only the field).
        object.__setattr__(self, "kwargs", _frozen(self.kwargs))

    def _key(self) -> tuple[str, str]:
        # Equal as the JSON that records them: true and 1 are two arguments, as they are on disk.
        return self.path, json.dumps(dict(self.kwargs), sort_keys=True)

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LearnerRef):
            return NotImplemented
        return self._key() == other._key()

    def __reduce__(self) -> tuple[type[LearnerRef], tuple[str, JSONObject]]:
        # A mapping proxy does not pickle: a reference crosses to a worker process as a plain dict.
        return (LearnerRef, (self.path, dict(self.kwargs)))

    @property
    def arguments(self) -> JSONObject:
        """The keyword arguments as a plain dict, a copy (to build the learner, or to write them)."""
        return dict(self.kwargs)

    @property
    def spec(self) -> LearnerSpec:
        """The reference as a document records it (``{"class": path, "kwargs": {...}}``)."""
        return {"class": self.path, "kwargs": self.arguments}

    @classmethod
    def of(cls, spec: LearnerSpec) -> LearnerRef:
        """The reference a document records (``kwargs`` ``null``, as earlier releases wrote it, is none)."""
        return cls(spec["class"], spec.get("kwargs") or {})
