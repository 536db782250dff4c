"""The counter of issue 41's figures, checked on a small tree written here whose answers are known.

Each figure of ``scripts/house_figures.py`` is played on a few modules that hold a known number of
the counted things, placed where a careless counter (a grep) would miscount them: in docstrings, in
comments, under ``if TYPE_CHECKING:``, inside functions.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from house_figures import (  # noqa: E402  (a script of scripts/)
    _modules,
    circles,
    fast_loop_command,
    figures,
    import_graph,
)

_MODULES = {
    "pkg/__init__.py": '"""A package."""\n',
    # two casts (one nested), one Any in a docstring (not counted), two in code, one of them as the
    # value of a dict[str, Any]; one in a string annotation
    "pkg/a.py": '''
        """Says Any and cast( in prose."""
        from __future__ import annotations

        from typing import TYPE_CHECKING, Any, cast

        from pkg import b

        if TYPE_CHECKING:
            from pkg.c import C


        def f(x: object) -> dict[str, Any]:
            return cast("dict[str, Any]", cast(dict, x))


        def g(y: "list[Any]") -> None:
            import json  # why: the json module is heavy here

            import os
            # why: both at once
            import re
            import sys
            del json, os, re, sys
        ''',
    "pkg/b.py": """
        from dataclasses import dataclass
        from typing import TypedDict

        from pkg.tracks import get_track


        @dataclass(frozen=True)
        class Point:
            x: int
            y: int


        class PointJSON(TypedDict):
            x: int
            y: int


        class Other(TypedDict):
            x: int
            z: int


        def h() -> None:
            from pkg import a

            get_track("toy")
            del a
        """,
    "pkg/c.py": """
        from pkg.a import f

        class C:
            pass
        """,
    "pkg/tracks.py": """
        def get_track(name: str) -> str:
            return name
        """,
    "pkg/cli/__init__.py": "",
    "pkg/cli/main.py": """
        from pkg.tracks import get_track

        get_track("toy")
        """,
}


def _tree(root: Path) -> None:
    for relative, text in _MODULES.items():
        path = root / "src" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    long = "def long():\n" + "    x = 1\n" * 60 + "    return x\n"  # 62 lines
    (root / "src" / "pkg" / "long.py").write_text(long + "\n" * (300 - long.count("\n")))  # 300 lines
    (root / "baselines" / "src").mkdir(parents=True)


def test_each_figure_counts_what_the_tree_holds(tmp_path: Path) -> None:
    _tree(tmp_path)
    found = {name: len(places) for name, places in figures(tmp_path).items()}
    assert found["cast( in src/"] == 2
    assert found["TypedDicts mirroring a dataclass (src/)"] == 1  # PointJSON; Other differs
    # a.py: the annotation's Any, the string annotation's Any (the imports and docstring aside)
    assert found["Any in src/"] == 2
    assert found["dict[str, Any] in src/"] == 1
    assert found["get_track( outside cli/ and protocol/"] == 1  # b.py; cli/main.py is the edge
    # a -> c only under TYPE_CHECKING, c -> a at module level: a circle; a -> b -> a only in h()
    assert found["import circles in src/"] == 1
    assert found["import circles in src/, imports in functions too"] == 1
    assert found["modules of 300-400 lines (src/)"] == 1
    assert found["functions over 60 lines (src/)"] == 1
    # os in g, a in h; re and sys share the comment above them
    assert found["imports in functions without a comment (src/)"] == 2
    assert found["Any in baselines/src/"] == 0


def test_circles_are_strongly_connected_components() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e", "f"}, "f": {"e"}}
    assert circles(graph) == [["a", "b", "c"], ["e", "f"]]


def test_a_circle_through_a_function_import_is_counted_apart(tmp_path: Path) -> None:
    _tree(tmp_path)
    (tmp_path / "src" / "pkg" / "c.py").write_text("class C:\n    pass\n")
    found = {name: len(places) for name, places in figures(tmp_path).items()}
    assert found["import circles in src/"] == 0
    assert found["import circles in src/, imports in functions too"] == 1  # a -> b, b -> a in h()


def test_the_import_graph_resolves_relative_imports(tmp_path: Path) -> None:
    src = tmp_path / "src" / "q"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text("from . import m\n")
    (src / "m.py").write_text("from .n import x\n")
    (src / "n.py").write_text("x = 1\n")
    assert import_graph(_modules(tmp_path / "src")) == {"q": {"q.m"}, "q.m": {"q.n"}, "q.n": set()}


def test_the_fast_loop_is_read_from_contributing() -> None:
    command = fast_loop_command(ROOT)
    assert command[:3] == [".venv/bin/python", "-m", "pytest"]
