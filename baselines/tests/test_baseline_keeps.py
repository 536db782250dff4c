"""Every baseline learner's class says what its built object keeps, under each argument that changes it.

The protocol reads whether a learner saves its state and whether it is stateless from the class, without
building it (``continual_arc.learner.declared_keeps``); these answers must be those the built objects give,
as the protocol got them when it built a probe.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import continual_arc_baselines
from continual_arc.learner import BaseLearner as CoreBase
from continual_arc.learner import declared_keeps, is_stateless, saves_state
from continual_arc_baselines.base import BaseLearner

VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("continual_arc_baselines.library:ProgramLibraryLearner", {}),
    ("continual_arc_baselines.library:ProgramLibraryLearner", {"keep": "nothing"}),
    ("continual_arc_baselines.library:ProgramLibraryLearner", {"keep": "nothing", "learn_prior": True}),
    ("continual_arc_baselines.library:ProgramLibraryLearner", {"keep": "demos"}),
    ("continual_arc_baselines.library:ProgramLibraryLearner", {"keep": "both"}),
    ("continual_arc_baselines.library.learner:PriorLibraryLearner", {"keep": "nothing"}),
    ("continual_arc_baselines.library.learner:PriorOnlyLearner", {}),
    ("continual_arc_baselines.floors:GridFloorLearner", {}),
    ("continual_arc_baselines.floors:GameFloorLearner", {}),
    ("continual_arc_baselines.explorer:GameExplorer", {"keep": False}),
    ("continual_arc_baselines.transfer:TransferExplorer", {"keep": False}),
    ("continual_arc_baselines.explorer.controls:PriorControl", {"keep": False}),
    ("continual_arc_baselines.learners:StatelessFloor", {"model": "m"}),
    ("continual_arc_baselines.learners:DemoCacheFloor", {"model": "m"}),
    ("continual_arc_baselines.learners:ModelProgramLibrary", {"model": "m"}),
    ("continual_arc_baselines.systems.bare:BareModelLearner", {"model": "m"}),
]


def _learner_classes() -> list[type]:
    """Every learner class the baselines define (importable without the optional extras)."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(continual_arc_baselines.__path__, "continual_arc_baselines."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra (torch, for the trained learners) not installed here
            continue
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, (BaseLearner, CoreBase)) and cls.__module__ == info.name:
                found[f"{cls.__module__}:{cls.__qualname__}"] = cls
    return [found[name] for name in sorted(found)]


def _built(cls: type, kwargs: dict[str, object]) -> object | None:
    try:
        return cls(**kwargs)
    except (TypeError, ValueError, OSError):
        return None  # needs arguments or a file this test does not give: its variants are listed


@pytest.mark.parametrize(("path", "kwargs"), VARIANTS, ids=[f"{p.rsplit(':')[1]}{k}" for p, k in VARIANTS])
def test_each_listed_variant_keeps_what_its_class_says(path: str, kwargs: dict[str, object]) -> None:
    module, name = path.split(":")
    cls = getattr(importlib.import_module(module), name)
    learner = cls(**kwargs)
    declared = declared_keeps(cls, kwargs)
    assert declared is not None, f"{path} is not declared for its own arguments"
    assert (declared.saves, declared.stateless) == (saves_state(learner), is_stateless(learner))


def test_every_learner_built_with_its_defaults_keeps_what_its_class_says() -> None:
    checked = 0
    for cls in _learner_classes():
        for kwargs in ({}, {"model": "m"}):
            learner = _built(cls, kwargs)
            if learner is None:
                continue
            declared = declared_keeps(cls, kwargs)
            assert declared is not None, f"{cls} is not declared for its own arguments"
            assert (declared.saves, declared.stateless) == (saves_state(learner), is_stateless(learner)), cls
            checked += 1
            break
    assert checked >= 12  # the discovery found the learners, not nothing
