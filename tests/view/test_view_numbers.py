"""The viewer rounds every number as the command line does: Python's format, ties to the even digit.

JavaScript's ``toFixed`` rounds a tie up (0.25 to one decimal gives 0.3, Python 0.2), so one run read
two ways gave T 0.2 and 0.3. The viewer's ``CAV.fmt`` is run here under Node on numbers the command
line formats, ties above all, and must print what Python prints.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

CORE = Path(__file__).resolve().parents[2] / "src" / "continual_arc" / "view" / "static" / "js" / "core.js"
RUNNER = """
global.window = {};
global.document = { addEventListener() {}, createElement() { return {}; } };
require(process.argv[1]);
const values = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(values.map(([x, d]) => window.CAV.fmt(x, d))));
"""
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="the viewer's script runs under Node here")


def viewer_fmt(values: list[tuple[float, int]]) -> list[str]:
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", RUNNER, str(CORE)], input=json.dumps(values), capture_output=True, text=True, check=True
    )
    shown: list[str] = json.loads(done.stdout)
    return shown


# Ties at 0, 1, 2 and 3 decimals (exact in binary), their neighbours, and the cases the issue met.
TIES = [(k / 2**n, d) for n in range(1, 5) for k in range(-9, 260, 3) for d in range(4)]
CASES = [(0.25, 1), (96.25, 1), (0.35, 1), (2.5, 0), (3.5, 0), (0.125, 2), (0.0625, 3), (100.0, 1), (0.0, 2)]


@needs_node
def test_ties_and_the_issues_numbers_read_the_same_in_the_viewer_and_the_command_line() -> None:
    values = CASES + TIES
    assert viewer_fmt(values) == [format(x, f".{d}f") for x, d in values]


@needs_node
@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1000, allow_nan=False), st.integers(0, 3)), min_size=1, max_size=50))
def test_any_number_the_viewer_shows_is_printed_as_python_prints_it(values: list[tuple[float, int]]) -> None:
    assert viewer_fmt(values) == [format(x, f".{d}f") for x, d in values]


def test_the_viewer_shows_shares_and_points_with_the_command_lines_decimals() -> None:
    script = CORE.read_text()
    assert "CAV.DECIMALS = { share: 2, points: 1 };" in script
    assert "digits = CAV.DECIMALS.share" in script  # an estimate (a share) with 2, as `report` prints
