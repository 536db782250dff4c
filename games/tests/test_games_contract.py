"""import-linter's contract that the games import nothing of the benchmark holds, and bites.

The contract is read from the repository's pyproject.toml and checked on two tiny trees: games that
import only themselves pass it, and games with one module importing the core break it.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAME = "the games import nothing of the benchmark"


def _contract() -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"] == NAME)


def _lint(tree: Path, games_import: str) -> subprocess.CompletedProcess[str]:
    """lint-imports, with the repository's contract, on games whose one module imports ``games_import``."""
    for package in ("continual_arc", "continual_arc_baselines", "continual_arc_games"):
        (tree / package).mkdir()
        (tree / package / "__init__.py").write_text("")
    (tree / "continual_arc_games" / "draw.py").write_text(f"import {games_import}\n")
    contract = _contract()
    lines = [
        "[importlinter]",
        "root_packages =\n    continual_arc\n    continual_arc_baselines\n    continual_arc_games",
        "[importlinter:contract:games]",
        f"name = {contract['name']}",
        f"type = {contract['type']}",
        "source_modules =\n" + "".join(f"    {m}\n" for m in contract["source_modules"]),
        "forbidden_modules =\n" + "".join(f"    {m}\n" for m in contract["forbidden_modules"]),
    ]
    (tree / ".importlinter").write_text("\n".join(lines) + "\n")
    linter = Path(sys.executable).with_name("lint-imports")
    if not linter.exists():
        pytest.skip("import-linter is not installed here (the dev extra)")
    return subprocess.run([str(linter), "--no-cache"], cwd=tree, capture_output=True, text=True, check=False)


def test_games_importing_only_themselves_keep_the_contract(tmp_path: Path) -> None:
    done = _lint(tmp_path, "continual_arc_games")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{NAME} KEPT" in done.stdout


@pytest.mark.parametrize("target", ["continual_arc", "continual_arc_baselines"])
def test_games_importing_the_benchmark_break_the_contract(tmp_path: Path, target: str) -> None:
    done = _lint(tmp_path, target)
    assert done.returncode == 1 and f"{NAME} BROKEN" in done.stdout
    assert f"continual_arc_games.draw -> {target}" in done.stdout
