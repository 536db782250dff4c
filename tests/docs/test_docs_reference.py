"""The site's reference covers every public name of the stable import paths and the baselines' learners.

A name is covered when its module's page renders it (a ``::: module`` directive that leaves no member
out) and it has a docstring, as griffe reads it: griffe is what mkdocstrings renders from, and the
site shows no member without a docstring. The command line's reference is checked against the
parsers it is written from.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from continual_arc.learner import BaseLearner

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference"
STABLE = ["env", "grids", "learner", "runner", "sandbox", "schedule", "addons", "testing"]
DIRECTIVE = re.compile(r"^::: ([\w.]+)((?:\n    .*)*)", flags=re.M)

sys.path.insert(0, str(ROOT / "scripts"))
import cli_reference  # noqa: E402  (the hook the site runs, from scripts/)


def directives() -> dict[str, str]:
    """Every ``::: path`` of the reference pages, with its options as written."""
    found: dict[str, str] = {}
    for page in REFERENCE.rglob("*.md"):
        found |= {path: options for path, options in DIRECTIVE.findall(page.read_text())}
    return found


@pytest.fixture(scope="module")
def loaded() -> object:
    griffe = pytest.importorskip("griffe", reason="griffe comes with the docs extra: pip install '.[docs]'")
    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "src"), str(ROOT / "baselines" / "src")])
    core, baselines = loader.load("continual_arc"), loader.load("continual_arc_baselines")
    loader.resolve_aliases(implicit=False, external=False)
    return {"continual_arc": core, "continual_arc_baselines": baselines}


def _griffe_object(loaded: dict[str, object], path: str) -> object:
    top, _, rest = path.partition(".")
    obj = loaded[top]
    return obj[rest] if rest else obj  # type: ignore[index]


def _undocumented(loaded: dict[str, object], module: str) -> list[str]:
    names = importlib.import_module(module).__all__
    out = []
    for name in names:
        docstring = _griffe_object(loaded, f"{module}.{name}").docstring  # type: ignore[attr-defined]
        if docstring is None or not docstring.value.strip():
            out.append(name)
    return out


@pytest.mark.parametrize("module", STABLE)
def test_every_public_name_of_a_stable_path_has_an_entry_with_a_docstring(
    module: str, loaded: dict[str, object]
) -> None:
    options = directives().get(f"continual_arc.{module}")
    assert options is not None, f"no `::: continual_arc.{module}` in docs/reference/"
    assert "members:" not in options  # a members list would leave names out
    assert importlib.import_module(f"continual_arc.{module}").__all__
    assert _undocumented(loaded, f"continual_arc.{module}") == []


def _learner_classes() -> set[str]:
    """Every public learner class the baselines define, found by importing each module.

    A learner class is one on the core's BaseLearner or on the baselines' generic one (their explorers').
    """
    import continual_arc_baselines
    from continual_arc_baselines.base import BaseLearner as GenericBase

    found = set()
    for info in pkgutil.walk_packages(continual_arc_baselines.__path__, "continual_arc_baselines."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            module: ModuleType = importlib.import_module(info.name)
        except ImportError:  # a module of an extra that is not installed here (torch's)
            continue
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and obj.__module__ == info.name
                and issubclass(obj, (BaseLearner, GenericBase))
                and not name.startswith("_")
            ):
                found.add(f"{info.name}.{name}")
    return found


def test_every_learner_of_the_baselines_has_an_entry_with_a_docstring(loaded: dict[str, object]) -> None:
    documented = directives()
    covered = set()
    for path in documented:
        if not path.startswith("continual_arc_baselines"):
            continue
        obj = _griffe_object(loaded, path)
        if getattr(obj, "is_module", False):
            module = importlib.import_module(path)
            exported = [getattr(module, n) for n in getattr(module, "__all__", [])]
            covered |= {f"{c.__module__}.{c.__name__}" for c in exported if inspect.isclass(c)}
            assert _undocumented(loaded, path) == [], path
        else:
            covered.add(path)
            assert obj.docstring is not None and obj.docstring.value.strip(), path  # type: ignore[attr-defined]
    learners = _learner_classes()
    assert "continual_arc_baselines.library.learner.ProgramLibraryLearner" in learners
    assert learners - covered == set()


@pytest.mark.parametrize("prog", cli_reference.PROGS)
def test_the_command_line_reference_has_every_command_and_option(prog: str) -> None:
    page = cli_reference.markdown(prog)
    for name, parser in cli_reference.commands(prog):
        assert f"## `{name}`" in page
        for action in parser._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert f"`{option}" in page or f", {option}" in page, (name, option)


def test_the_core_reference_names_every_top_level_command() -> None:
    from continual_arc.cli import build_parser

    page = cli_reference.markdown("continual-arc")
    choices = next(a for a in build_parser()._actions if a.choices).choices
    assert choices is not None and len(choices) >= 17
    assert all(f"## `continual-arc {name}" in page for name in choices)


def test_the_pages_hold_the_markers_the_hook_fills() -> None:
    assert "<!-- cli-reference: continual-arc -->" in (REFERENCE / "cli.md").read_text()
    assert "<!-- cli-reference: continual-arc-baselines -->" in (REFERENCE / "cli-baselines.md").read_text()
    assert cli_reference.on_page_markdown("a\n<!-- cli-reference: continual-arc -->\n").startswith(
        "a\n## `continual-arc data"
    )
