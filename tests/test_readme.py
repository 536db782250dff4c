"""The README's learner is a learner: its code runs as written and passes check_learner."""

from __future__ import annotations

import re
from pathlib import Path

from continual_arc.testing import check_learner

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_learner_passes_check_learner() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    source = next(block for block in blocks if "class EchoOrAsk" in block)
    namespace: dict[str, object] = {"__name__": "readme_learner"}
    exec(compile(source, str(README), "exec"), namespace)
    assert check_learner(namespace["EchoOrAsk"]) == []
