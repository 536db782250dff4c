"""Rule packs: folders of ARC-style rules of someone's own, each a seeded generator and a verifier.

A pack is a folder::

    <pack>/manifest.json       {"name", "version", "description", "rules": {id: {"file", "sha256"}}}
    <pack>/rules/<rule_id>.py  one rule each (the file name is the id with ``_`` for ``-``)

A rule's manifest entry may also set ``"demo_cap"``, an integer from 1 to
[`MAX_DEMO_CAP`][continual_arc.data.pack.MAX_DEMO_CAP]: the demonstrations an instance of the rule offers when
the rule is held out (`RulePack.demo_caps`). ARC-AGI-1's held-out tasks offer their train pairs, 2 to 7 of
them, where a generated rule would always offer 8, which tells a learner at its first observation that it
plays a pack. A streamed rule always offers 8, as Re-ARC's streamed tasks do.

Every rule file defines, at its top level (the contract a pack's author writes to):

* ``RULE``: the rule's id, a string equal to the id the manifest lists it under;
* ``generate(rng, diff_lb, diff_ub)``: one fresh pair ``{"input": grid, "output": grid}`` drawn
  from the `random.Random` ``rng`` alone, harder as the difficulty bounds (between 0 and 1)
  rise; it may raise to give up a draw, which is then redrawn;
* ``verify(grid)``: the rule applied to an input grid, written independently of the generator, so
  that a generator's slip is caught as a disagreement (a grid is a list of rows of colours 0-9).

A rule file is whole on its own: it imports nothing but the standard library (no module of the
pack, none of the benchmark), so its hash pins all it does; helpers two rules share are written
in each. The manifest pins every rule file by its SHA-256, so a result verified on a pack names exactly the
rules it was verified on: `RulePack.digest` (the SHA-256 of the manifest's bytes) is the
name recorded. [`load_pack`][continual_arc.data.pack.load_pack] refuses a pack whose files differ from its
manifest, and loads each rule under a private module name that no import elsewhere can reach.
[`build_manifest`][continual_arc.data.pack.build_manifest] writes the manifest of a pack's current files
(``continual-arc pack manifest``).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from ..core.errors import ContinualArcError
from ..core.files import atomic_write_text

__all__ = [
    "MANIFEST",
    "MAX_DEMO_CAP",
    "RULES_DIR",
    "PackError",
    "RulePack",
    "build_manifest",
    "dumps_manifest",
    "load_pack",
    "rule_id",
    "write_manifest",
]

MANIFEST = "manifest.json"
"""The manifest's file name in a pack folder."""

RULES_DIR = "rules"
"""The folder of a pack's rule files."""

MAX_DEMO_CAP = 8
"""The largest ``demo_cap`` a manifest may set: the most demonstrations any instance offers."""

_FIELDS = ("name", "version", "description", "rules")
_PRIVATE = "_continual_arc_pack"


class PackError(ContinualArcError, ValueError):
    """A pack that cannot be used as it is: its manifest, a rule file, or a rule's behaviour."""


@dataclass(frozen=True)
class RulePack:
    """A loaded pack, every file checked against its manifest.

    Attributes:
        root: the pack's folder.
        name: the pack's name (the manifest's).
        version: the pack's version (the manifest's).
        description: what the pack is, in a sentence or two.
        digest: the SHA-256 of the manifest's bytes, which pins every rule file.
        rules: each rule's loaded module, by rule id, sorted.
        demo_caps: the demonstration cap the manifest sets, by rule id, for the rules that set
            one (used when the rule is held out; the others offer 8).
    """

    root: Path
    name: str
    version: str
    description: str
    digest: str
    rules: Mapping[str, ModuleType]
    demo_caps: Mapping[str, int] = field(default_factory=dict)

    def describe(self) -> dict[str, str]:
        """What a result records about the pack: its name, version and manifest hash."""
        return {"pack": self.name, "version": self.version, "manifest_sha256": self.digest}


def rule_id(path: Path) -> str:
    """The id a rule file must declare: its stem with ``-`` for ``_`` (``sort_bars.py``: ``sort-bars``)."""
    return path.stem.replace("_", "-")


def _declared_rule(path: Path) -> str | None:
    """The string a rule file assigns to ``RULE`` at its top level, read without running the file."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except SyntaxError as err:
        raise PackError(f"rule file {path} is not valid Python: {err.msg} (line {err.lineno})") from None
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "RULE" for t in targets):
            value = node.value if isinstance(node, ast.Assign) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
    return None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read_manifest(root: Path) -> tuple[dict[str, Any], bytes]:
    path = root / MANIFEST
    if not root.is_dir():
        raise PackError(f"{root} is not a folder; a rule pack is a folder with {MANIFEST} and {RULES_DIR}/")
    if not path.is_file():
        raise PackError(f"{root} has no {MANIFEST}; write one with: continual-arc pack manifest {root}")
    raw = path.read_bytes()
    try:
        document = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise PackError(f"{path} is not valid JSON ({err})") from None
    missing = [key for key in _FIELDS if not isinstance(document, dict) or key not in document]
    if missing:
        raise PackError(f"{path} lacks the field(s) {', '.join(missing)}")
    if not isinstance(document["rules"], dict) or not document["rules"]:
        raise PackError(f"{path} lists no rules")
    return document, raw


def _demo_caps(rules: Mapping[str, Any]) -> dict[str, int]:
    """The ``demo_cap`` of every rule entry that sets one, each checked."""
    caps: dict[str, int] = {}
    for rule, entry in sorted(rules.items()):
        if not isinstance(entry, dict) or "demo_cap" not in entry:
            continue
        cap = entry["demo_cap"]
        # bool is an int to Python, but true is no number of demonstrations
        if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_DEMO_CAP:
            raise PackError(
                f"the manifest's demo_cap of rule {rule} must be an integer "
                f"from 1 to {MAX_DEMO_CAP}, not {cap!r}"
            )
        caps[rule] = cap
    return caps


def _checked_files(root: Path, rules: Mapping[str, Any]) -> dict[str, Path]:
    """Each listed rule's file, checked against its manifest entry; every rule file listed."""
    files: dict[str, Path] = {}
    for rule, entry in sorted(rules.items()):
        if not isinstance(entry, dict) or not {"file", "sha256"} <= set(entry):
            raise PackError(f"the manifest's entry for rule {rule} must give its file and sha256")
        path = root / str(entry["file"])
        if path.parent != root / RULES_DIR or rule_id(path) != rule:
            raise PackError(
                f"rule {rule}'s file must be {RULES_DIR}/{rule.replace('-', '_')}.py, not {entry['file']}"
            )
        if not path.is_file():
            raise PackError(f"rule {rule} is listed in the manifest but its file {path} is missing")
        if _sha256(path) != entry["sha256"]:
            raise PackError(
                f"rule {rule}'s file {path} differs from the manifest (sha256 mismatch); "
                f"if the change is meant, rewrite the manifest: continual-arc pack manifest {root}"
            )
        files[rule] = path
    unlisted = sorted(rule_id(p) for p in (root / RULES_DIR).glob("*.py") if rule_id(p) not in files)
    if unlisted:
        raise PackError(
            f"rule file(s) {', '.join(unlisted)} are in {root / RULES_DIR} but not in the manifest"
        )
    return files


def _import_rule(path: Path, module_name: str) -> ModuleType:
    """Run a rule file as a module of its own, under a name nothing else imports."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PackError(f"rule file {path} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    # Registered while it runs: dataclasses and pickling look a module up by its name.
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as err:  # a rule's own bug, whatever it is, is the pack author's to fix
        del sys.modules[module_name]
        raise PackError(f"rule file {path} raised {type(err).__name__} when loaded: {err}") from None
    return module


def _check_contract(rule: str, path: Path, module: ModuleType) -> None:
    if getattr(module, "RULE", None) != rule:
        raise PackError(f"rule file {path} must set RULE = {rule!r}")
    for name in ("generate", "verify"):
        if not callable(getattr(module, name, None)):
            raise PackError(f"rule file {path} defines no function {name}()")


def load_pack(root: Path | str) -> RulePack:
    """Load a pack: its manifest, every rule file checked by hash and run once as a private module.

    Raises:
        PackError: the manifest is missing or malformed (a ``demo_cap`` not an integer from 1 to
            8 among them), a file is missing, unlisted or differs from its hash, or a rule file
            fails to load or breaks the rule contract.
    """
    root = Path(root)
    document, raw = _read_manifest(root)
    files = _checked_files(root, document["rules"])
    caps = _demo_caps(document["rules"])
    digest = hashlib.sha256(raw).hexdigest()
    rules: dict[str, ModuleType] = {}
    for rule, path in files.items():
        module = _import_rule(path, f"{_PRIVATE}_{digest[:16]}_{path.stem}")
        _check_contract(rule, path, module)
        rules[rule] = module
    return RulePack(
        root=root,
        name=str(document["name"]),
        version=str(document["version"]),
        description=str(document["description"]),
        digest=digest,
        rules=rules,
        demo_caps=caps,
    )


def build_manifest(root: Path | str) -> dict[str, Any]:
    """The manifest of a pack's current rule files; name, version, description and caps kept if present.

    Raises:
        PackError: the pack holds no rule file, or a file's ``RULE`` differs from its name's id.
    """
    root = Path(root)
    paths = sorted((root / RULES_DIR).glob("*.py"))
    if not paths:
        raise PackError(f"{root / RULES_DIR} holds no rule files (*.py)")
    existing: dict[str, Any] = {}
    if (root / MANIFEST).is_file():
        existing, _ = _read_manifest(root)
    caps = _demo_caps(existing.get("rules", {}))
    rules: dict[str, dict[str, Any]] = {}
    for path in paths:
        if _declared_rule(path) != rule_id(path):
            raise PackError(f"rule file {path} must set RULE = {rule_id(path)!r} at its top level")
        rules[rule_id(path)] = {"file": f"{RULES_DIR}/{path.name}", "sha256": _sha256(path)}
        if rule_id(path) in caps:
            rules[rule_id(path)]["demo_cap"] = caps[rule_id(path)]
    return {
        "name": existing.get("name", root.resolve().name),
        "version": str(existing.get("version", "1")),
        "description": existing.get("description", ""),
        "rules": rules,
    }


def dumps_manifest(manifest: Mapping[str, Any]) -> str:
    """A manifest's canonical text: sorted keys, indent 1, a final newline."""
    return json.dumps(manifest, indent=1, sort_keys=True) + "\n"


def write_manifest(root: Path | str) -> Path:
    """Rewrite a pack's manifest from its rule files (atomically); its path."""
    path = Path(root) / MANIFEST
    atomic_write_text(path, dumps_manifest(build_manifest(root)))
    return path
