"""The examples in docstrings (``>>>``) run: doctest over every module of the core and the baselines.

The reference renders every docstring, so an example in one is documentation like any page's.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import continual_arc
import continual_arc_baselines


def modules() -> list[str]:
    """Every public module of the two packages, by name, as the reference renders them.

    Private modules are left out: the reference does not render them, and some are scripts a
    sandbox starts on their own (``_launch``, ``_child``), never imported.
    """
    names = []
    for package in (continual_arc, continual_arc_baselines):
        names.append(package.__name__)
        walked = pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
        names += [info.name for info in walked if not any(p.startswith("_") for p in info.name.split("."))]
    return sorted(names)


def _imported(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as error:  # an extra not installed here (torch, arcengine)
        pytest.skip(f"{name} needs what is not installed here: {error}")


@pytest.mark.parametrize("name", modules())
def test_the_docstring_examples_of_a_module_run(name: str) -> None:
    module = _imported(name)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module, name):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} docstring example(s) of {name} failed"


def test_the_walk_finds_the_stable_paths_and_the_stages() -> None:
    found = set(modules())
    assert {"continual_arc.env", "continual_arc.play.runner", "continual_arc_baselines.library"} <= found
