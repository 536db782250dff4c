"""The README's learner passes check_learner; every page's fences close; the sweep guide shows its spec."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from continual_arc.sweep.spec import load_spec
from continual_arc.testing import check_learner

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SWEEPS = ROOT / "docs" / "guides" / "sweeps.md"  # where the README's sweep section moved
PAGES = [README, ROOT / "baselines" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_the_readme_learner_passes_check_learner() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    source = next(block for block in blocks if "class EchoOrAsk" in block)
    namespace: dict[str, object] = {"__name__": "readme_learner"}
    exec(compile(source, str(README), "exec"), namespace)
    assert check_learner(namespace["EchoOrAsk"]) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_fence_closes_on_a_line_of_its_own(page: Path) -> None:
    # A closing fence with text after it opens a block instead, and the rest renders as code.
    lines = page.read_text().splitlines()
    assert [n for n, line in enumerate(lines, 1) if line.startswith("```") and line.strip() != "```"
            and not re.fullmatch(r"```[a-z0-9]+", line.strip())] == []  # fmt: skip
    assert sum(1 for line in lines if line.startswith("```")) % 2 == 0


def test_the_readme_fits_on_two_screens() -> None:
    assert len(README.read_text().splitlines()) <= 150


def test_the_sweep_spec_the_guide_names_is_the_one_it_shows() -> None:
    root = README.parent
    shown = re.findall(r"```toml\n(.*?)```", SWEEPS.read_text(), flags=re.S)
    named = set(re.findall(r"continual-arc sweep (\S+\.toml)", SWEEPS.read_text()))
    assert named == {"sweeps/library.toml"}
    assert (root / "sweeps" / "library.toml").read_text() in shown
    assert [s.label for s in load_spec(root / "sweeps" / "library.toml").variants] == [
        "library keep=programs",
        "library keep=demos",
    ]


def test_every_link_of_the_readme_names_a_file_of_the_repository() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text())
    assert len(links) > 20
    assert [link for link in links if not (README.parent / link).exists()] == []


def test_the_readme_and_getting_started_show_the_same_commands_and_table() -> None:
    # The main job's table is printed by `continual-arc protocol`; the two copies must not drift apart.
    started = (ROOT / "docs" / "getting-started.md").read_text()
    fences = re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S)
    assert fences[0] in started
    # getting started includes the table the README shows, seed 0 of the main experiment
    assert '--8<-- "experiments/arc1-main/tables.md:seed0"' in started.splitlines()


def test_the_readme_table_is_the_main_experiments_stored_table() -> None:
    # experiments/arc1-main/tables.md is recomputed from runs/ by `continual-arc figures` (the slow
    # test set checks it); the README shows its first table, seed 0, as stored there.
    readme = [line for line in README.read_text().splitlines() if line.startswith("|")]
    stored = (ROOT / "experiments" / "arc1-main" / "tables.md").read_text().split("\n## ")[1]
    assert "<!-- --8<-- [start:seed0] -->" in stored.splitlines()
    assert len(readme) == 5 and readme == [line for line in stored.splitlines() if line.startswith("|")]
