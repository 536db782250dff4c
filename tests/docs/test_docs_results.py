"""No result typed by hand in the documentation: every estimate with its interval is included.

A result (``0.16 [0.07, 0.30]``: a share with its 95 % interval) reaches README.md, the baselines'
README, the pages under docs/ and the READMEs of runs/ and experiments/ only through an
experiment's ``tables.md``, which ``continual-arc figures`` recomputes from stored runs and the
slow test set compares: a page includes a table with
``--8<-- "experiments/NAME/tables.md:TABLE"``. The one exception is the README's main table, which
GitHub shows without includes; ``tests/test_readme.py`` holds it equal to ``experiments/arc1-main``'s
first table, so it is left out of the scan line for line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "docs" / "METRICS.md"
"""Its worked examples are made-up records, not results, and tests/measure computes each one."""
PAGES = [
    page
    for page in [
        ROOT / "README.md",
        ROOT / "baselines" / "README.md",
        ROOT / "runs" / "README.md",
        *sorted((ROOT / "experiments").glob("*/README.md")),
        *sorted((ROOT / "docs").rglob("*.md")),
    ]
    if page != WORKED
]
_VALUE = r"-?\d+\.\d+"
ESTIMATE = re.compile(rf"{_VALUE} \[{_VALUE}, {_VALUE}\]")
MAIN = ROOT / "experiments" / "arc1-main" / "tables.md"


def estimates(text: str, *, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Every estimate with its interval typed in ``text``, but on the lines ``allowed``."""
    return [m.group(0) for line in text.splitlines() if line not in allowed for m in ESTIMATE.finditer(line)]


def test_the_pattern_finds_estimates_and_nothing_else() -> None:
    text = "saves 0.16 [0.07, 0.30]; gap 33.9 [-27.1, 81.3] points; held-out -0.01 [-0.05, 0.02]"
    assert estimates(text) == ["0.16 [0.07, 0.30]", "33.9 [-27.1, 81.3]", "-0.01 [-0.05, 0.02]"]
    assert estimates("the interval is `[0.00, 0.75]`; seeds [0, 1, 2]; max_cost = 16") == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_page_types_no_result(page: Path) -> None:
    allowed = (
        frozenset(MAIN.read_text().splitlines())
        if page.name == "README.md" and page.parent == ROOT
        else frozenset()
    )
    assert estimates(page.read_text(), allowed=allowed) == []


@given(
    st.lists(st.text(alphabet="abc |.,-", max_size=30), min_size=1, max_size=10),
    st.floats(-1, 1, allow_nan=False),
    st.data(),
)
def test_an_estimate_planted_on_any_line_is_found(
    lines: list[str], value: float, data: st.DataObject
) -> None:
    planted = f"{value:.2f} [{value - 0.1:.2f}, {value + 0.1:.2f}]"
    i = data.draw(st.integers(0, len(lines) - 1))
    page = [*lines[:i], lines[i] + " " + planted, *lines[i + 1 :]]
    assert estimates("\n".join(page)) == [planted]
