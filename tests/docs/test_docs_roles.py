"""No Sphinx role is left in a docstring: the reference renders them as text, never as links.

mkdocstrings reads Markdown docstrings, where a cross-reference is ``[Name][package.module.Name]``;
a role (a kind such as ``class`` between colons, then a name in backquotes) is printed as it is
written. The built site is checked for them too (``test_docs_site``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROLE = re.compile(r":(?:py:)?(class|func|mod|data|meth|attr|exc|obj|const):`[^`]+`")
PACKAGES = {
    "continual_arc": "src",
    "continual_arc_baselines": "baselines/src",
    "continual_arc_games": "games/src",
}


def _docstrings(obj: object) -> list[tuple[str, str]]:
    found = []
    doc = obj.docstring  # type: ignore[attr-defined]
    if doc is not None:
        found.append((str(obj.path), doc.value))  # type: ignore[attr-defined]
    for member in obj.members.values():  # type: ignore[attr-defined]
        if not member.is_alias:
            found += _docstrings(member)
    return found


def test_no_docstring_griffe_loads_holds_a_sphinx_role() -> None:
    griffe = pytest.importorskip(
        "griffe", reason="griffe comes with the docs extra: pip install -e '.[docs]'"
    )
    loader = griffe.GriffeLoader(search_paths=[str(ROOT / sub) for sub in PACKAGES.values()])
    left = [
        f"{path}: {match.group(0)}"
        for name in PACKAGES
        for path, text in _docstrings(loader.load(name))
        for match in ROLE.finditer(text)
    ]
    assert left == [], f"{len(left)} roles left, the first: {left[:5]}"


def test_the_role_pattern_finds_what_the_site_would_print() -> None:
    # Built from pieces, so that this file holds no role for a search of the source to find.
    role = ":" + "class" + ":`~continual_arc.learner.Learner`"
    assert ROLE.search(f"the runner ({role}) calls")
    assert not ROLE.search("the runner ([`Learner`][continual_arc.learner.Learner]) calls")


def test_no_script_or_benchmark_holds_a_sphinx_role() -> None:
    # Not on the site, but read by the same contributors: one way of writing a reference everywhere.
    left = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for folder in ("benchmarks", "scripts")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for match in ROLE.finditer(path.read_text(encoding="utf-8"))
    ]
    assert left == []
