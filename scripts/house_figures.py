"""Print the figures by which issue 41's house-keeping is judged, read from the source tree by AST.

Over ``src/`` (the core) and ``baselines/src/`` (run from the repository's root, or give it):

* ``cast(`` calls in the core;
* ``TypedDict`` classes that mirror a dataclass: the same field names, or the dataclass's fields
  all among the ``TypedDict``'s keys and at least four in five of them (a document kept in step
  with its record by hand);
* ``Any`` as a name in the code (annotations written as strings included, the import itself not)
  and ``dict[str, Any]``, in each tree;
* ``get_track(...)`` calls outside the core's ``cli/`` and ``protocol/`` (the edge that resolves a
  track by name);
* import circles among the core's modules: the strongly connected components of the graph of
  module-level imports, each a circle (those under ``if TYPE_CHECKING:`` count: two modules that
  need each other's names, even for types only, are halves of one concept); and apart from them
  the circles that imports inside functions close as well;
* the modules of 300 to 400 lines (bunched under the 400-line cap);
* the functions over 60 lines, from ``def`` to their last line;
* the imports inside a function with no comment on their line or on the line above, saying why
  (a run of imports on consecutive lines shares the comment above its first).

The fast loop's wall time is not read from the tree: ``--fast-loop`` runs the command that
``CONTRIBUTING.md`` names under its "fast loop" heading and prints its wall time.

Usage: ``python scripts/house_figures.py [ROOT] [--list] [--fast-loop]``; ``--list`` also prints
where each counted thing is.
"""

from __future__ import annotations

import ast
import io
import re
import shlex
import subprocess
import sys
import time
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_LONG_FUNCTION = 60
_BUNCHED = (300, 400)
_MIRROR_SHARE = 0.8


@dataclass(frozen=True)
class Module:
    """A parsed source file and its dotted name."""

    path: Path
    name: str
    tree: ast.Module
    text: str

    @property
    def is_package(self) -> bool:
        """Whether the file is a package's ``__init__.py``."""
        return self.path.name == "__init__.py"


def _modules(src: Path) -> list[Module]:
    """Every ``.py`` file under ``src``, named as Python imports it."""
    modules = []
    for path in sorted(p for p in src.rglob("*.py") if "__pycache__" not in p.parts):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        text = path.read_text()
        modules.append(Module(path, ".".join(parts), ast.parse(text, str(path)), text))
    return modules


def _where(module: Module, line: int, root: Path) -> str:
    return f"{module.path.relative_to(root)}:{line}"


def _base_names(node: ast.ClassDef) -> set[str]:
    return {
        b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
        for b in node.bases
    }


def _annotated_names(node: ast.ClassDef) -> frozenset[str]:
    return frozenset(
        s.target.id
        for s in node.body
        if isinstance(s, ast.AnnAssign)
        and isinstance(s.target, ast.Name)
        # a ClassVar is no field of a dataclass
        and "ClassVar" not in ast.unparse(s.annotation)
    )


def _is_dataclass(node: ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
        if name == "dataclass":
            return True
    return False


# --- the figures, each a list of places -----------------------------------------------------------


def casts(modules: list[Module], root: Path) -> list[str]:
    """Every call of ``cast`` (``typing.cast`` by either spelling)."""
    return [
        _where(m, n.lineno, root)
        for m in modules
        for n in ast.walk(m.tree)
        if isinstance(n, ast.Call)
        and (
            (isinstance(n.func, ast.Name) and n.func.id == "cast")
            or (isinstance(n.func, ast.Attribute) and n.func.attr == "cast")
        )
    ]


def _typed_dicts(modules: list[Module]) -> dict[str, tuple[Module, ast.ClassDef, frozenset[str]]]:
    """Each ``TypedDict`` class by name, with its keys (inherited ones included)."""
    classes = [(m, n) for m in modules for n in ast.walk(m.tree) if isinstance(n, ast.ClassDef)]
    typed = {"TypedDict"}
    while grown := {c.name for _, c in classes if _base_names(c) & typed} - typed:
        typed |= grown  # a TypedDict of a TypedDict, to any depth
    found: dict[str, tuple[Module, ast.ClassDef, frozenset[str]]] = {}
    pending = [(m, c) for m, c in classes if _base_names(c) & typed]
    while pending:  # parents first, so that a child's keys include theirs
        left = []
        for module, node in pending:
            parents = _base_names(node) & (typed - {"TypedDict"})
            if parents - found.keys():
                left.append((module, node))
                continue
            keys = _annotated_names(node).union(*(found[p][2] for p in parents))
            found[node.name] = (module, node, keys)
        if len(left) == len(pending):
            break  # a parent outside the tree: leave the rest uncounted
        pending = left
    return found


def mirrored_typed_dicts(modules: list[Module], root: Path) -> list[str]:
    """The ``TypedDict`` classes whose keys repeat a dataclass's fields."""
    dataclasses = [
        (n.name, _annotated_names(n))
        for m in modules
        for n in ast.walk(m.tree)
        if isinstance(n, ast.ClassDef) and _is_dataclass(n)
    ]
    found = []
    for name, (module, node, keys) in sorted(_typed_dicts(modules).items()):
        for record, fields in dataclasses:
            if not fields or not keys:
                continue
            if fields == keys or (fields <= keys and len(fields) >= _MIRROR_SHARE * len(keys)):
                found.append(f"{_where(module, node.lineno, root)}: {name} ~ {record}")
                break
    return found


def _string_annotations(tree: ast.Module) -> Iterator[ast.AST]:
    """The expressions of annotations written as strings (``"dict[str, Any]"``)."""
    for node in ast.walk(tree):
        annotations: list[ast.expr | None] = []
        if isinstance(node, ast.AnnAssign | ast.arg):
            annotations.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            annotations.append(node.returns)
        for annotation in annotations:
            for inner in ast.walk(annotation) if annotation is not None else ():
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    try:
                        yield ast.parse(inner.value, mode="eval")
                    except SyntaxError:
                        continue  # a literal in an annotation (Literal["a b"]), not a type


def _is_any(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Any") or (
        isinstance(node, ast.Attribute) and node.attr == "Any"
    )


def anys(modules: list[Module], root: Path) -> list[str]:
    """Every ``Any`` written as a name in the code (its import aside)."""
    found = []
    for module in modules:
        for tree in (module.tree, *_string_annotations(module.tree)):
            line = getattr(tree, "lineno", None)
            for node in ast.walk(tree):
                if _is_any(node):
                    found.append(_where(module, line or getattr(node, "lineno", 0), root))
    return found


def dict_str_anys(modules: list[Module], root: Path) -> list[str]:
    """Every ``dict[str, Any]`` (or ``typing.Dict[str, Any]``)."""
    found = []
    for module in modules:
        for tree in (module.tree, *_string_annotations(module.tree)):
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Subscript)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in {"dict", "Dict"}
                    and isinstance(node.slice, ast.Tuple)
                    and len(node.slice.elts) == 2
                    and isinstance(node.slice.elts[0], ast.Name)
                    and node.slice.elts[0].id == "str"
                    and _is_any(node.slice.elts[1])
                ):
                    found.append(_where(module, getattr(node, "lineno", 0), root))
    return found


def get_track_calls(modules: list[Module], root: Path, *, edge: frozenset[str]) -> list[str]:
    """The calls of ``get_track`` outside the top package's subpackages named in ``edge``."""
    return [
        _where(m, n.lineno, root)
        for m in modules
        if not edge & set(m.name.split(".")[1:2])
        for n in ast.walk(m.tree)
        if isinstance(n, ast.Call)
        and (
            (isinstance(n.func, ast.Name) and n.func.id == "get_track")
            or (isinstance(n.func, ast.Attribute) and n.func.attr == "get_track")
        )
    ]


def _module_level_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports at a module's level: outside functions and methods, under any ``if`` or ``try``."""
    for statement in body:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            yield statement
        elif isinstance(statement, ast.If):
            yield from _module_level_imports(statement.body)
            yield from _module_level_imports(statement.orelse)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                yield from _module_level_imports(block)
            for handler in statement.handlers:
                yield from _module_level_imports(handler.body)
        elif isinstance(statement, ast.With | ast.ClassDef):
            yield from _module_level_imports(statement.body)


def _imported(module: Module, node: ast.Import | ast.ImportFrom, names: set[str]) -> set[str]:
    """The modules of the tree that one import statement names (the most specific one each)."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        if node.level:
            package = module.name.split(".")
            if not module.is_package:
                package = package[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, *([node.module] if node.module else [])])
        else:
            base = node.module or ""
        targets = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in names else base for alias in node.names
        ]
    found = set()
    for target in targets:
        while target and target not in names:
            target = target.rpartition(".")[0]
        if target and target != module.name:
            found.add(target)
    return found


def import_graph(modules: list[Module], *, in_functions: bool = False) -> dict[str, set[str]]:
    """Each module's imports of other modules of the tree: module-level ones, or (asked) all."""
    names = {m.name for m in modules}
    graph: dict[str, set[str]] = {m.name: set() for m in modules}
    for module in modules:
        nodes: Iterator[ast.Import | ast.ImportFrom] = (
            (n for n in ast.walk(module.tree) if isinstance(n, ast.Import | ast.ImportFrom))
            if in_functions
            else _module_level_imports(module.tree.body)
        )
        for node in nodes:
            graph[module.name] |= _imported(module, node, names)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    advanced = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def bunched_modules(modules: list[Module], root: Path) -> list[str]:
    """The modules whose line count lies between 300 and 400, both included."""
    low, high = _BUNCHED
    return [
        f"{m.path.relative_to(root)}: {lines}"
        for m in modules
        if low <= (lines := len(m.text.splitlines())) <= high
    ]


def long_functions(modules: list[Module], root: Path) -> list[str]:
    """The functions (methods and nested ones included) over 60 lines from ``def`` to their end."""
    return [
        f"{_where(m, n.lineno, root)}: {n.name} {length}"
        for m in modules
        for n in ast.walk(m.tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (n.end_lineno or n.lineno) - n.lineno + 1) > _LONG_FUNCTION
    ]


def _comment_lines(text: str) -> set[int]:
    """The lines that hold a comment."""
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return {token.start[0] for token in tokens if token.type == tokenize.COMMENT}


def uncommented_local_imports(modules: list[Module], root: Path) -> list[str]:
    """The imports inside a function with no comment saying why.

    The comment stands on the import's first line or on the line above; a run of imports on
    consecutive lines shares the comment above its first.
    """
    found = []
    for module in modules:
        comments = _comment_lines(module.text)
        nodes = {
            node.lineno: node
            for function in ast.walk(module.tree)
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
            for node in ast.walk(function)
            if isinstance(node, ast.Import | ast.ImportFrom)
        }
        for line in sorted(nodes):
            first = line
            while first - 1 in nodes and first not in comments:  # the run's first import
                first -= 1
            if not {first, first - 1} & comments:
                found.append(_where(module, line, root))
    return sorted(found)


def figures(root: Path) -> dict[str, list[str]]:
    """The figures by name, each with the places it counts."""
    core = _modules(root / "src")
    baselines = _modules(root / "baselines" / "src")
    edge = frozenset({"cli", "protocol"})
    return {
        "cast( in src/": casts(core, root),
        "TypedDicts mirroring a dataclass (src/)": mirrored_typed_dicts(core, root),
        "Any in src/": anys(core, root),
        "dict[str, Any] in src/": dict_str_anys(core, root),
        "Any in baselines/src/": anys(baselines, root),
        "dict[str, Any] in baselines/src/": dict_str_anys(baselines, root),
        "get_track( outside cli/ and protocol/": get_track_calls(core, root, edge=edge),
        "import circles in src/": [" <-> ".join(c) for c in circles(import_graph(core))],
        "import circles in src/, imports in functions too": [
            " <-> ".join(c) for c in circles(import_graph(core, in_functions=True))
        ],
        "modules of 300-400 lines (src/)": bunched_modules(core, root),
        "modules of 300-400 lines (baselines/src/)": bunched_modules(baselines, root),
        "functions over 60 lines (src/)": long_functions(core, root),
        "functions over 60 lines (baselines/src/)": long_functions(baselines, root),
        "imports in functions without a comment (src/)": uncommented_local_imports(core, root),
        "imports in functions without a comment (baselines/src/)": uncommented_local_imports(baselines, root),
    }


def fast_loop_command(root: Path) -> list[str]:
    """The command in the first code block under the "fast loop" heading of ``CONTRIBUTING.md``."""
    text = (root / "CONTRIBUTING.md").read_text()
    match = re.search(r"^#+ [^\n]*fast loop[^\n]*\n.*?```\w*\n(.*?)```", text, re.I | re.M | re.S)
    if match is None:
        raise SystemExit("CONTRIBUTING.md names no fast loop (a heading with 'fast loop' and a block)")
    return shlex.split(match.group(1).strip())


def main() -> None:
    """Print each figure on a line of its own, then (asked) where and the fast loop's time."""
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = Path(args[0]).resolve() if args else Path.cwd()
    found = figures(root)
    for name, places in found.items():
        print(f"{name:56} {len(places)}")
    if "--fast-loop" in flags:
        command = fast_loop_command(root)
        start = time.perf_counter()
        done = subprocess.run(command, cwd=root, check=False, capture_output=True, text=True)
        wall = time.perf_counter() - start
        tail = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
        print(f"{'fast loop wall time':56} {wall:.1f} s (exit {done.returncode}: {tail[0]})")
    if "--list" in flags:
        for name, places in found.items():
            if places:
                print(f"\n{name}:", *places, sep="\n  ")


if __name__ == "__main__":
    main()
