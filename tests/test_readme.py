"""The README's learner is a learner: its code runs as written and passes check_learner."""

from __future__ import annotations

import re
from pathlib import Path

from continual_arc.sweep.spec import load_spec
from continual_arc.testing import check_learner

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_learner_passes_check_learner() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    source = next(block for block in blocks if "class EchoOrAsk" in block)
    namespace: dict[str, object] = {"__name__": "readme_learner"}
    exec(compile(source, str(README), "exec"), namespace)
    assert check_learner(namespace["EchoOrAsk"]) == []


def test_every_fence_closes_on_a_line_of_its_own() -> None:
    # A closing fence with text after it opens a block instead, and the rest renders as code.
    lines = README.read_text().splitlines()
    assert [n for n, line in enumerate(lines, 1) if line.startswith("```") and line.strip() != "```"
            and not re.fullmatch(r"```[a-z0-9]+", line.strip())] == []  # fmt: skip
    assert sum(1 for line in lines if line.startswith("```")) % 2 == 0


def test_the_sweep_spec_the_readme_names_is_the_one_it_shows() -> None:
    root = README.parent
    shown = re.findall(r"```toml\n(.*?)```", README.read_text(), flags=re.S)
    named = set(re.findall(r"continual-arc sweep (\S+\.toml)", README.read_text()))
    assert named == {"sweeps/library.toml"}
    assert (root / "sweeps" / "library.toml").read_text() in shown
    assert [s.label for s in load_spec(root / "sweeps" / "library.toml").learners] == [
        "library keep=programs",
        "library keep=demos",
    ]
