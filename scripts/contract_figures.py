"""Print the figures by which the stages' contracts are judged (issue 28): how typed the code is.

Counts, over ``src/`` and ``baselines/src/`` (run from the repository's root, or give it):

* ``Any`` and ``dict[str, Any]`` as written in the code;
* ``get_track(`` calls (a track resolved by name);
* the modules that spell out a protocol's reset plays (``"stream-reset"`` as a literal);
* the lines of the arc3 games inside the core's ``src/``, and their share of the core's lines;
* the string constants of ``src/`` (docstrings and the enumerations' own bodies aside) that spell a
  phase or a play, or an end: as a value (what should be the enumeration's member), and apart from
  them as the key of a typed document (a subscript, a dict's key or a ``get`` of a name that a
  ``TypedDict`` declares, such as a record's ``"solved"``, which mypy checks only as a literal).

Usage: ``python scripts/contract_figures.py [ROOT] [--list]``; ``--list`` also prints where each
value left is.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

_ANY = re.compile(r"\bAny\b")
_DICT_ANY = re.compile(r"dict\[str, Any\]")
_GET_TRACK = re.compile(r"\bget_track\(")
_RESET_PLAY = re.compile(r"[\"']stream-reset[\"']")


_PHASES_AND_PLAYS = frozenset(
    {"stream", "epilogue", "held-out", "seen", "stream-reset", "held-out-reset", "seen-reset"}
)
_ENDS = frozenset(
    {"solved", "attempt cap", "gave up", "action cap", "learner error", "time limit", "unfinished"}
)
_ENUM_BASES = frozenset({"StrEnum", "Enum"})
_KEY_METHODS = frozenset({"get", "pop", "setdefault"})


def _docstrings(tree: ast.Module) -> set[int]:
    nodes = (
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
    )
    return {
        id(n.body[0].value)
        for n in nodes
        if n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)
    }


def _base_names(node: ast.ClassDef) -> set[str]:
    return {
        b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
        for b in node.bases
    }


def _typed_fields(trees: list[ast.Module]) -> set[str]:
    """Every field name a ``TypedDict`` of the sources declares (class form, inherited, and functional)."""
    nodes = [n for tree in trees for n in ast.walk(tree)]
    typed = {"TypedDict"}
    classes = [n for n in nodes if isinstance(n, ast.ClassDef)]
    while grown := {c.name for c in classes if _base_names(c) & typed} - typed:
        typed |= grown  # a TypedDict of a TypedDict, to any depth
    fields = {
        s.target.id
        for c in classes
        if _base_names(c) & typed
        for s in c.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
    }
    for call in (n for n in nodes if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "TypedDict"):
        keys = call.args[1].keys if len(call.args) > 1 and isinstance(call.args[1], ast.Dict) else []
        fields |= {k.value for k in keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return fields


def _keys(tree: ast.Module, fields: set[str]) -> set[int]:
    """The constants in a key's place.

    A subscript, a dict display's key, a ``get``'s first argument, the left of an ``in``, or an
    element of a list of field names (every element a declared field).
    """
    keys: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
            keys.add(id(node.left))
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and all(
            isinstance(e, ast.Constant) and e.value in fields for e in node.elts
        ):
            keys |= {id(e) for e in node.elts}
        elif isinstance(node, ast.Subscript):
            keys.add(id(node.slice))
        elif isinstance(node, ast.Dict):
            keys |= {id(k) for k in node.keys if k is not None}
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _KEY_METHODS
        ):
            keys |= {id(a) for a in node.args[:1]}
    return keys


def _outside_enums(tree: ast.Module) -> Iterator[ast.Constant]:
    """The string constants of a module outside docstrings and outside the bodies of enumerations."""
    skipped = _docstrings(tree)
    enums = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and _base_names(n) & _ENUM_BASES]
    for enum in enums:
        skipped |= {id(n) for n in ast.walk(enum)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            yield node


def vocabulary_literals(root: Path) -> dict[str, list[str]]:
    """Where ``src/`` spells a phase, a play or an end: as a value, or as a typed document's key."""
    files = _sources(root / "src")
    trees = [ast.parse(f.read_text(), str(f)) for f in files]
    fields = _typed_fields(trees)
    found: dict[str, list[str]] = {
        "phase/play values": [],
        "end values": [],
        "phase/play keys": [],
        "end keys": [],
    }
    for path, tree in zip(files, trees, strict=True):
        keys = _keys(tree, fields)
        for node in _outside_enums(tree):
            value = str(node.value)
            vocabulary = "phase/play" if value in _PHASES_AND_PLAYS else "end" if value in _ENDS else None
            if vocabulary is not None:
                kind = "keys" if id(node) in keys and value in fields else "values"
                found[f"{vocabulary} {kind}"].append(f"{path.relative_to(root)}:{node.lineno}: {value}")
    return found


def _sources(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def _count(pattern: re.Pattern[str], files: list[Path]) -> int:
    return sum(len(pattern.findall(f.read_text())) for f in files)


def figures(root: Path) -> dict[str, object]:
    """The figures, by name, for the repository at ``root``."""
    core, baselines = _sources(root / "src"), _sources(root / "baselines" / "src")
    core_lines = sum(len(f.read_text().splitlines()) for f in core)
    games = [f for f in core if "games" in f.relative_to(root / "src").parts[:-1]]
    game_lines = sum(len(f.read_text().splitlines()) for f in games)
    literals = {f"{name} literals in src/": len(where) for name, where in vocabulary_literals(root).items()}
    return {
        **literals,
        "Any in src/": _count(_ANY, core),
        "dict[str, Any] in src/": _count(_DICT_ANY, core),
        "Any in baselines/src/": _count(_ANY, baselines),
        "dict[str, Any] in baselines/src/": _count(_DICT_ANY, baselines),
        "get_track( calls in src/": _count(_GET_TRACK, core),
        "modules naming a reset play": sum(1 for f in core if _RESET_PLAY.search(f.read_text())),
        "game lines in src/": game_lines,
        "games' share of src/ lines": f"{100 * game_lines / core_lines:.1f} %" if core_lines else "-",
    }


def main() -> None:
    """Print each figure on a line of its own."""
    args = [a for a in sys.argv[1:] if a != "--list"]
    root = Path(args[0]) if args else Path.cwd()
    for name, value in figures(root).items():
        print(f"{name:34} {value}")
    if "--list" in sys.argv[1:]:
        for name, where in vocabulary_literals(root).items():
            print(f"\n{name}:", *where, sep="\n  ")


if __name__ == "__main__":
    main()
