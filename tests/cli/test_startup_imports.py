"""Commands import only what they use: the heavy modules stay out of the quick commands.

Not a timing test (benchmarks/startup.py measures the times): the set of modules loaded is the same
on any machine, so this guards the start-up budgets against a stray import.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

import pytest

from continual_arc.cli import main

# pydantic too: building the first document validator costs a few hundred milliseconds, so only a
# command that reads a document (core.documents) may load it.
HEAVY = (
    "numpy",
    "matplotlib",
    "arcengine",
    "multiprocessing",
    "urllib.request",
    "http.client",
    "starlette",
    "pydantic",
)

_PROBE = """
import contextlib, sys
from continual_arc.cli import main
with contextlib.suppress(SystemExit), contextlib.redirect_stdout(None):
    main(sys.argv[1:])
print("heavy:", *sorted(set(sys.modules) & set(HEAVY)))
"""


def _heavy_modules(*argv: str) -> list[str]:
    code = f"HEAVY = {HEAVY!r}\n{_PROBE}"
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True)
    return out.stdout.split()[1:]


@pytest.mark.parametrize(
    "argv",
    [("--help",), ("schedule", "make", "--out", "{tmp}/s.json"), ("data", "status")],
    ids=["help", "schedule make", "data status"],
)
def test_a_quick_command_loads_no_heavy_module(argv: tuple[str, ...], tmp_path: Path) -> None:
    assert _heavy_modules(*(arg.format(tmp=tmp_path) for arg in argv)) == []


def test_a_run_report_loads_no_heavy_module(tmp_path: Path) -> None:
    schedule, run = tmp_path / "s.json", tmp_path / "run"
    with contextlib.redirect_stdout(None):
        assert main(["schedule", "make", "--config", "toy-smoke", "--out", str(schedule)]) == 0
        learner = "continual_arc.testing:GiveUpLearner"
        assert main(["run", "--learner", learner, "--schedule", str(schedule), "--out", str(run)]) == 0
    # It reads the run's documents, each validated where it is read: pydantic, and nothing heavier.
    assert _heavy_modules("report", str(run)) == ["pydantic"]


def test_the_probe_sees_a_heavy_module_when_one_is_loaded() -> None:
    # The check above could pass by never seeing anything: the comparison commands do load NumPy.
    assert "numpy" in _heavy_modules("learned", "--help")
